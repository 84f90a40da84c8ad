"""SymbolicTensor: an edge of a graph being traced, a tensor with a static (partial) shape and a
dtype but no value.

Its own module because most of it is refusal: what a symbolic tensor cannot do in Python (be a
bool, be iterated, be an index, give a number) raises TensorFlow's errors in TensorFlow's words,
which have nothing to do with how a graph records its operations (graph.py).
"""
from __future__ import annotations

from ..core.shape import TensorShape
from ..core.tensor import Tensor


class OperatorNotAllowedInGraphError(TypeError):
    """Raised when a symbolic tensor is used as a Python bool or iterated (TensorFlow's class)."""


# TensorFlow's advice, appended to both refusals word for word.
_RESOLUTIONS = ("You can attempt the following resolutions to the problem: If you are running in Graph mode, use "
                "Eager execution mode or decorate this function with @tf.function. If you are using AutoGraph, you "
                "can try decorating this function with @tf.function. If that does not work, then you may be using "
                "an unsupported feature or your source code may not be visible to AutoGraph. See https://github.com/"
                "tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/reference/limitations.md"
                "#access-to-source-code for more information.")


class SymbolicTensor(Tensor):
    """An edge of a graph: output `value_index` of `op`, with a static (partial) shape and dtype."""

    # _keras_mask: the Keras mask a layer attached to this tensor (keras/layers/masks.py); unset until then
    __slots__ = ("_op", "_value_index", "_shape", "_dtype", "_keras_mask", "__weakref__")

    def __init__(self, op, value_index, shape, dtype):
        self._op = op
        self._value_index = value_index
        self._shape = shape
        self._dtype = dtype

    @property
    def op(self):
        return self._op

    @property
    def graph(self):
        return self._op.graph

    @property
    def value_index(self):
        return self._value_index

    @property
    def name(self) -> str:
        return f"{self._op.name}:{self._value_index}"

    @property
    def shape(self) -> TensorShape:
        return self._shape

    def set_shape(self, shape):
        self._shape = self._shape.merge_with(shape)

    @property
    def device(self):
        return ""

    @property
    def is_symbolic(self) -> bool:
        return True

    def consumers(self):
        return [op for op in self._op.graph.get_operations() if any(t is self for t in op.inputs)]

    def _static_value(self):
        """A graph constant's value, so shape rules can see static shapes and axes."""
        if self._op.type == "Const":
            return self._op.attrs["value"]
        return None

    @property
    def variable_spec(self):
        """For a captured variable handle: the (shape, dtype) of the variable behind it (None for
        another resource, e.g. an iterator argument's handle)."""
        return self._op.attrs.get("variable_spec")

    def numpy(self):
        """A symbolic tensor has no value while tracing: TensorFlow's AttributeError, in its words
        (its graph tensors have no `numpy`; tf.print shows the value when the function runs)."""
        raise AttributeError("'SymbolicTensor' object has no attribute 'numpy'")

    def __bool__(self):
        raise OperatorNotAllowedInGraphError(f"Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. "
                                             f"{_RESOLUTIONS}")

    def __len__(self):
        if self._shape.rank and self._shape[0] is not None:
            return self._shape[0]
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self.name}). Please call `x.shape` "
                        f"rather than `len(x)` for shape information.")

    def __iter__(self):
        # TensorFlow refuses even when the length is known (`a, b = x` too): a loop over a tensor is
        # AutoGraph's to convert into a While, and tf.unstack splits one explicitly.
        raise OperatorNotAllowedInGraphError(f"Iterating over a symbolic `tf.Tensor` is not allowed. {_RESOLUTIONS}")

    def __index__(self):
        raise TypeError(f"Cannot use a symbolic tensor ({self.name}) as a Python index.")

    def __float__(self):
        raise TypeError(f"Cannot convert a symbolic tf.Tensor ({self.name}) to a Python float.")

    __int__ = __float__

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):
        return f'Tensor("{self.name}", shape={self._shape}, dtype={self._dtype.name})'
