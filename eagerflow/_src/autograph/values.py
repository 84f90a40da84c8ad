"""The values converted code passes around: a name with no value yet (Undefined), a branch
that fell off the end of the function (NO_RETURN), a list appended in a tensor loop (TensorList),
and the test of whether a value decides control flow only at run time (is_symbolic)."""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.tensor import EagerTensor, Tensor


class Undefined:
    """The value of a variable not yet assigned on this path (Python would raise on reading it)."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"Undefined({self.name!r})"

    def _fail(self, *args, **kwargs):
        raise UnboundLocalError(f"'{self.name}' is used before assignment")  # TensorFlow's words

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        self._fail()


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__neg__",
              "__getitem__", "__bool__", "__iter__", "__len__", "__lt__", "__gt__", "__le__", "__ge__", "__call__",
              "__matmul__", "__pow__", "__float__", "__int__", "__index__"):
    setattr(Undefined, _name, Undefined._fail)


def get_composite(read, label):
    """The value of `obj.attr` / `xs[k]` (converters/composites.py); Undefined when it has none yet."""
    try:
        return read()
    except (AttributeError, KeyError, IndexError, NameError):  # NameError: its object is not bound yet
        return Undefined(label)


def forget_composite(remove):
    """Removes `obj.attr` / `xs[k]` that had no value before a branch or loop (converters/composites.py);
    nothing to remove is fine."""
    try:
        remove()
    except (AttributeError, KeyError, IndexError, TypeError):
        pass


def is_undefined(value):
    return isinstance(value, Undefined)


class TensorList:
    """A Python list appended inside a tensor loop: its items stacked in one tensor ([n, ...]),
    carried as a loop variable whose first dimension may grow (shape invariant [None, ...]).

    Beyond TensorFlow on purpose (TF 2.21 raises InaccessibleTensorError for such a list and
    asks for a tf.TensorArray): see converters/calls.py and docs/differences.md."""

    def __init__(self, tensor):
        self.tensor = tensor

    def _as_tensor(self):  # convert_to_tensor / tf.function outputs see the stacked items
        return self.tensor

    @property
    def dtype(self):
        return self.tensor.dtype

    @property
    def shape(self):
        return self.tensor.shape

    def __getitem__(self, index):
        return self.tensor[index]

    def __len__(self):
        n = self.tensor.shape[0] if self.tensor.shape.rank else None
        if n is None:
            raise TypeError("len is not well defined for a list of unknown length built in a loop; use tf.shape")
        return n

    def __repr__(self):
        return f"TensorList({self.tensor!r})"


def is_symbolic(value):
    """Whether `value` decides control flow only at run time (a tensor of the graph being traced)."""
    if isinstance(value, Tensor):
        return not isinstance(value, EagerTensor)
    return state.graph is not None and hasattr(type(value), "_as_tensor") and not isinstance(value, TensorList)


def bool_tensor(value):
    t = convert_to_tensor(value)
    if t.dtype is not _dt.bool_:
        from ..ops.math.elementwise import cast
        t = cast(t, _dt.bool_)
    return t


def condition(value, statement):
    """The test of an `if` or `while` statement as TensorFlow's AutoGraph takes it: one holding one value of any
    rank (`i < n` with n of shape [1]), or of unknown shape, is reshaped to a scalar; one known to hold several
    is a ValueError in TensorFlow's words (`statement`: "if statement", "while loop")."""
    t = bool_tensor(value)
    if t.shape.rank == 0:
        return t
    known = [d for d in (t.shape.as_list() if t.shape.rank is not None else []) if d is not None]
    if int(np.prod(known, dtype=np.int64)) > 1:
        raise ValueError(f"condition of {statement} expected to be `tf.bool` scalar, got {t}; to check for None, "
                         f"use `is not None`")
    from ..ops.array.basic import reshape
    return reshape(t, [])


class _NoReturn:
    """What a branch returns when it falls off the end of the function (converters/returns.py)."""
    __slots__ = ()

    def __repr__(self):
        return "NO_RETURN"


NO_RETURN = _NoReturn()


def function_return(value):
    """The converted function's result: None where a path fell off the end; a name left without
    a value (one returned alone or in a tuple or list) fails as reading it would (Python, TF)."""
    if value is NO_RETURN:
        return None
    for item in (value if isinstance(value, (tuple, list)) else (value,)):
        if isinstance(item, Undefined):
            item._fail()
    return value
