"""`tf.test`. Its names load on first use (PEP 562; the table at the end), so `import eagerflow` does
not import unittest and tempfile for programs that never test."""


class _Experimental:
    """`tf.test.experimental`."""

    @staticmethod
    def sync_devices():
        """Blocks until every compiled call made so far has finished: for benchmarks, after
        `tf.config.experimental.set_synchronous_execution(False)` (codegen/jit_dispatch.py)."""
        from ..codegen.jit_dispatch import sync_devices
        sync_devices()


experimental = _Experimental()

# Names that load on first use, all from api/test_case.py.
_NAMES = ("TestCase", "gpu_device_name", "is_built_with_cuda", "is_built_with_gpu_support", "is_built_with_rocm",
          "is_built_with_xla", "is_gpu_available", "main")


def __getattr__(name):
    if name in _NAMES:
        from . import test_case
        return getattr(test_case, name)
    raise AttributeError(f"module 'tf.test' has no attribute {name!r}")


def __dir__():
    return sorted(_NAMES + ("experimental",))
