"""`tf.test`. Its names load on first use (PEP 562), so `import eagerflow` does not import unittest
and tempfile for programs that never test."""
_NAMES = ("TestCase", "gpu_device_name", "is_built_with_cuda", "is_built_with_gpu_support", "is_built_with_rocm",
          "is_built_with_xla", "is_gpu_available", "main")


def __getattr__(name):
    if name in _NAMES:
        from . import test_case
        return getattr(test_case, name)
    raise AttributeError(f"module 'tf.test' has no attribute {name!r}")


def __dir__():
    return sorted(_NAMES)
