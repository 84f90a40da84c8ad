"""What a jit_compile=True ConcreteFunction shows and runs beyond its plain call: whether its
outputs-plus-intermediates variant (the call under an outer GradientTape) can be compiled too, and
the text `ConcreteFunction.code` gives (the jaxpr that runs, then the NumPy reference code).
No JAX import here: codegen/xla.py holds everything that needs it."""
from __future__ import annotations

import warnings

from ..core import dtypes as _dt


def jit_can_return(name, outputs) -> bool:
    """Whether the outputs plus saved intermediates of a jit_compile function (what a call under an
    outer GradientTape returns) can come out of one XLA executable: arrays can; a loop's history or
    an If's kept values (variant tensors) are Python structures the NumPy gradient kernels read, and
    cannot. Then that call runs the NumPy code, with a warning rather than silently: once per trace
    (the variant is built once, by with_intermediates)."""
    bad = next((t for t in outputs if t.dtype is _dt.variant or t.dtype is _dt.resource), None)
    if bad is None:
        return True
    warnings.warn(f"tf.function {name!r} (jit_compile=True) called under a recording GradientTape runs "
                  f"as NumPy code, not XLA: its gradient needs the saved state of {bad.op.type} "
                  f"{bad.op.name!r}, which the compiled executable cannot return. Put the GradientTape "
                  f"inside the jit function to compile the forward and backward pass together.",
                  RuntimeWarning, stacklevel=4)
    return False


def jit_code(compiled, source):
    """`ConcreteFunction.code` for a jit function: the jaxpr XLA compiles (once a call has shown the
    argument types) as comments, then the NumPy code labelled as the jit_compile=False reference."""
    jaxpr = compiled.jaxpr_text()
    if jaxpr is not None:
        head = ("# jit_compile=True: calls run one XLA executable compiled through JAX. Its program (jaxpr) "
                "for the first call's argument types:\n" + "\n".join("# " + line for line in jaxpr.splitlines()))
    else:
        head = ("# jit_compile=True: calls run one XLA executable compiled through JAX (its jaxpr is shown "
                "here after the first call).")
    return head + "\n# Below: the NumPy code jit_compile=False runs (the reference, not what runs here).\n" + source
