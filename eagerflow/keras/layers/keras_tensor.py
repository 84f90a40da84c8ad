"""KerasTensor: a placeholder description (shape with None batch, dtype) that remembers which
layer or keras.ops call produced it (`_keras_history`, a Node), so `keras.Model(inputs, outputs)` can
walk back from the outputs to the inputs and replay the calls on real tensors.

Python operators on a KerasTensor (`2 * x + 1`, `x[:, 0]`, `-x`, `x > 0`, `x @ w`) are the keras.ops
functions Keras 3 maps them to, so each becomes a node of the functional graph. `==` stays Python's
identity test and `x.T`, `len(x)`, `bool(x)` and iteration are refused, as in Keras 3.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..naming import unique_name


class Node:
    """One recorded call of a layer (or keras.ops operation): its (nested) arguments and its outputs.

    The node registers itself with the operation, so `layer.input`/`layer.output` can answer from the
    first call (Keras 3 answers from call 0)."""

    __slots__ = ("layer", "args", "kwargs", "outputs", "__weakref__")

    def __init__(self, layer, args, kwargs, outputs):
        self.layer, self.args, self.kwargs, self.outputs = layer, args, kwargs, outputs
        nodes = getattr(layer, "_inbound_nodes", None)
        if nodes is None:
            nodes = []
            object.__setattr__(layer, "_inbound_nodes", nodes)
        nodes.append(self)

    def __getitem__(self, index):
        """`tensor._keras_history[0]` is the operation and `[1]` its call index, as in Keras 3's KerasHistory."""
        return (self.layer, self.layer._inbound_nodes.index(self))[index]

    @property
    def operation(self):
        """Keras 3's name for the layer or operation (`tensor._keras_history.operation`)."""
        return self.layer

    @property
    def input_tensors(self):
        from ..._src.core import nest
        flat = nest.flatten((self.args, self.kwargs), expand_composites=True)
        return [v for v in flat if isinstance(v, KerasTensor)]


def first_call_tensors(layer, which):
    """`layer.input` / `layer.output`: the tensors of its first symbolic call (one, or a list)."""
    nodes = layer.__dict__.get("_inbound_nodes")
    if not nodes:
        raise AttributeError(f"The layer {layer.name} has never been called and thus has no defined {which}.")
    tensors = nodes[0].input_tensors if which == "input" else nodes[0].outputs
    return tensors[0] if len(tensors) == 1 else list(tensors)


def has_keras_tensor(value):
    """Whether a KerasTensor is in `value`, lists, tuples and dicts entered (cheap: every keras.ops
    call and layer call asks)."""
    if isinstance(value, KerasTensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(has_keras_tensor(v) for v in value)
    if isinstance(value, dict):
        return any(has_keras_tensor(v) for v in value.values())
    return False


def _ops():
    from .. import ops
    return ops


class KerasTensor:
    def __init__(self, shape, dtype="float32", name=None, sparse=False, ragged=False):
        self.shape = tuple(shape)
        self.dtype = _dt.as_dtype(getattr(dtype, "name", dtype))
        self.sparse, self.ragged = bool(sparse), bool(ragged)
        # Unnamed: keras_tensor, keras_tensor_1, ... counted with the layers' names, so that
        # keras.backend.clear_session() starts them over (Keras 3).
        self.name = unique_name("keras_tensor") if name is None else name
        self._keras_history = None  # the Node that produced this tensor

    @property
    def ndim(self):
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype.name}, sparse={self.sparse}, "
                f"ragged={self.ragged}, name={self.name}>")

    # --- what a symbolic tensor cannot answer ---
    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __array__(self, dtype=None, copy=None):  # also what `ndarray + x` and TensorFlow ops meet
        raise ValueError("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any "
                         "actual numerical value. You cannot convert it to a NumPy array.")

    def __iter__(self):
        raise NotImplementedError("Iterating over a symbolic KerasTensor is not supported.")

    # --- operators: keras.ops calls, recorded as nodes ---
    def __add__(self, other):
        return _ops().add(self, other)

    def __radd__(self, other):
        return _ops().add(other, self)

    def __sub__(self, other):
        return _ops().subtract(self, other)

    def __rsub__(self, other):
        return _ops().subtract(other, self)

    def __mul__(self, other):
        return _ops().multiply(self, other)

    def __rmul__(self, other):
        return _ops().multiply(other, self)

    def __matmul__(self, other):
        return _ops().matmul(self, other)

    def __rmatmul__(self, other):
        return _ops().matmul(other, self)

    def __truediv__(self, other):
        return _ops().true_divide(self, other)

    def __rtruediv__(self, other):
        return _ops().true_divide(other, self)

    def __floordiv__(self, other):
        return _ops().floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _ops().floor_divide(other, self)

    def __mod__(self, other):
        return _ops().mod(self, other)

    def __rmod__(self, other):
        return _ops().mod(other, self)

    def __pow__(self, other):
        return _ops().power(self, other)

    def __rpow__(self, other):
        return _ops().power(other, self)

    def __neg__(self):
        return _ops().negative(self)

    def __abs__(self):
        return _ops().absolute(self)

    def __round__(self, ndigits=None):
        return _ops().round(self, decimals=ndigits or 0)

    def __invert__(self):
        return _ops().logical_not(self)

    def __and__(self, other):
        return _ops().logical_and(self, other)

    def __rand__(self, other):
        return _ops().logical_and(other, self)

    def __or__(self, other):
        return _ops().logical_or(self, other)

    def __ror__(self, other):
        return _ops().logical_or(other, self)

    def __xor__(self, other):
        return _ops().logical_xor(self, other)

    def __rxor__(self, other):
        return _ops().logical_xor(other, self)

    def __lt__(self, other):
        return _ops().less(self, other)

    def __le__(self, other):
        return _ops().less_equal(self, other)

    def __gt__(self, other):
        return _ops().greater(self, other)

    def __ge__(self, other):
        return _ops().greater_equal(self, other)

    def __ne__(self, other):
        return _ops().not_equal(self, other)

    __hash__ = object.__hash__  # `==` is identity (Keras 3 leaves it to Python)

    def __getitem__(self, key):
        return _ops().get_item(self, key)
