"""The public function of a one-op elementwise op: converts its arguments (TensorFlow's no-promotion
dtype rule for binary ops) and binds the op. Shared by every elementwise op module in this family."""
from __future__ import annotations

from ...core.convert import convert_to_tensor
from ...core.tensor import Tensor
from ..operands import binary_operands
from ..registry import bind


def binary_fn(opdef, loose_right=False):
    def fn(x, y, name=None):
        x, y = binary_operands(x, y, opdef.name, loose_right)
        return bind(opdef, (x, y), name=name)
    fn.__name__ = opdef.name
    fn.__doc__ = f"Elementwise `{opdef.name}` with broadcasting (TensorFlow's no-promotion dtype rule)."
    return fn


def unary_fn(opdef):
    def fn(x, name=None):
        return bind(opdef, (x if isinstance(x, Tensor) else convert_to_tensor(x),), name=name)
    fn.__name__ = opdef.name
    fn.__doc__ = f"Elementwise `{opdef.name}`."
    return fn
