"""The per-thread state a layer call shares with the calls nested inside it, and the input conversion.

Why a module of its own: `training` must reach every nested layer without being passed by hand, and
the first call's weight creation must happen once when several threads call a fresh model, so this
state lives beside `Layer` (base.py) rather than in it; models and attention layers take BUILD_LOCK too.
"""
from __future__ import annotations

import threading

import numpy as np

from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.core.tensor import Tensor
from ..._src.ops.math import elementwise as _math
from ..._src.state.variables import Variable

_training = threading.local()
any_loss_added = False  # until the first add_loss/activity loss, calls skip clearing losses
BUILD_LOCK = threading.RLock()  # re-entrant: a model's build builds its layers


def note_loss_added():
    """Marks that some layer holds losses, so outermost calls from now on clear the previous call's."""
    global any_loss_added
    any_loss_added = True


def training_stack():
    """This thread's stack of `training` values, one per layer call in progress."""
    stack = getattr(_training, "stack", None)
    if stack is None:
        stack = _training.stack = []
    return stack


def current_training():
    """The `training` value of the innermost layer call in progress (None outside any call)."""
    stack = getattr(_training, "stack", None)
    return stack[-1] if stack else None


def to_input_tensor(value, dtype):
    """A call's input as Keras 3 feeds it: arrays and Python numbers become tensors, floats take `dtype`."""
    if isinstance(value, Tensor):
        return _math.cast(value, dtype) if value.dtype.is_floating and value.dtype is not dtype else value
    if isinstance(value, Variable):
        return value
    if isinstance(value, (np.ndarray, np.generic, list, float, int)):
        t = convert_to_tensor(value)
        return _math.cast(t, dtype) if t.dtype.is_floating and t.dtype is not dtype else t
    return value


def shape_tuple(x):
    """A tensor's static shape as Keras reports it: a tuple with None for unknown dims."""
    shape = x.shape
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)


def output_shapes(outputs):
    """The shapes of a call's outputs, for summary(); None when the call returned something else."""
    try:
        return nest.map_structure(shape_tuple, outputs, expand_composites=True)
    except Exception:  # noqa: BLE001 - a call may return non-tensors; shapes are for summary() only
        return None
