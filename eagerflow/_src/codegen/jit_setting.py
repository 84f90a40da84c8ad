"""`tf.config.optimizer.set_jit` / `get_jit`: whether `tf.function`s compile through XLA by default.

TensorFlow's switch turns on XLA auto-clustering for every function; eagerflow has no clusters, so
it makes every `tf.function` without an explicit `jit_compile=False` compile whole, as
`jit_compile=True` does (codegen/xla.py). Kept apart from codegen/xla.py so reading the switch
never imports JAX. Process-wide, as TensorFlow's is; read when a function traces.
"""
from __future__ import annotations

_setting = ""  # TensorFlow's values: "" (off) or "autoclustering"


def set_jit(enabled):
    """`True` or "autoclustering": compile every tf.function (unless it says jit_compile=False);
    `False` or "": only those that ask (TensorFlow accepts any other string silently too)."""
    global _setting
    if enabled is True:
        _setting = "autoclustering"
    elif not enabled:
        _setting = ""
    else:
        _setting = str(enabled)


def get_jit():
    """"autoclustering" after `set_jit(True)`, "" otherwise (TensorFlow's return values)."""
    return _setting


def wanted(jit_compile) -> bool:
    """Whether a function with this `jit_compile` argument compiles: its own True/False decides,
    None follows `set_jit`."""
    if jit_compile is not None:
        return bool(jit_compile)
    return bool(_setting)
