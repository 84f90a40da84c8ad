"""TensorFlow's refusals of a bad `target` or `sources` in GradientTape.gradient.

TensorFlow 2.21 checks the arguments in this order, and each refusal has its own class:
  1. `target is None`: TypeError "Argument `target` should be a list or nested structure of Tensors,
     Variables or CompositeTensors to be differentiated, but received None."
  2. each leaf of target, then of sources, goes through TensorFlow's dtype lookup (IsTrainable):
     None or a string is not a dtype -> TypeError "Cannot convert the argument `type_value`: 'abc'
     to a TensorFlow DType."; a Python number is read as a DataType enum value and then the code
     asks the number for its `.dtype` -> AttributeError "'float' object has no attribute 'dtype'".
  3. anything else that is not a tensor or variable (a NumPy array has a dtype, so it passes 2)
     fails in the C++ tape -> AttributeError "'numpy.ndarray' object has no attribute '_id'".
We raise the same classes with the same words, and never TensorFlow's accidents beyond these.
"""
from __future__ import annotations

from ..core.tensor import Tensor


def _is_differentiable_object(x) -> bool:
    return isinstance(x, Tensor) or hasattr(type(x), "_as_tensor")


def _check_leaf_is_dtype_like(leaf):
    if leaf is None or isinstance(leaf, (str, bytes)):
        raise TypeError(f"Cannot convert the argument `type_value`: {leaf!r} to a TensorFlow DType.")
    if isinstance(leaf, (bool, int, float, complex)):
        raise AttributeError(f"'{type(leaf).__name__}' object has no attribute 'dtype'")


def check_gradient_arguments(target, flat_targets, flat_sources):
    """Raises TensorFlow's error for the first bad argument of tape.gradient (see the module docstring)."""
    if target is None:
        raise TypeError("Argument `target` should be a list or nested structure of Tensors, Variables or "
                        "CompositeTensors to be differentiated, but received None.")
    for leaf in flat_targets:
        if not _is_differentiable_object(leaf):
            _check_leaf_is_dtype_like(leaf)
    for leaf in flat_sources:
        if not _is_differentiable_object(leaf):
            _check_leaf_is_dtype_like(leaf)
    for leaf in (*flat_targets, *flat_sources):
        if not _is_differentiable_object(leaf):
            raise AttributeError(f"'{_qualified_type_name(leaf)}' object has no attribute '_id'")


def _qualified_type_name(x) -> str:
    kind = type(x)
    module = kind.__module__
    return kind.__name__ if module in ("builtins", None) else f"{module.split('.')[0]}.{kind.__name__}"


def check_jacobian_target(target):
    """TensorFlow's jacobian reads `target.shape` first: a non-tensor fails there (AttributeError)."""
    if not _is_differentiable_object(target):
        raise AttributeError(f"'{type(target).__name__}' object has no attribute 'shape'")
