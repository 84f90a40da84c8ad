"""A Keras layer's losses: add_loss() values, activity-regularizer losses and weight regularizers.

Why a mixin: Keras 3 keeps the losses of the latest outermost call only, gathered from every nested
layer, then adds each trainable weight's regularizer evaluated now; this bookkeeping needs nothing of
building or calling (base.py) beyond the `_losses` and `_tracked_layers` lists.
"""
from __future__ import annotations

from ..._src.core import nest
from ..._src.core.convert import convert_to_tensor
from ..._src.core.tensor import Tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.state.variables import Variable
from .layer_call_state import note_loss_added
from .layer_weight_lists import unique_by_identity


class LossesMixin:
    """add_loss, activity losses and the `losses` property over `_losses`/`_tracked_layers` (see Layer)."""

    def add_loss(self, loss):
        """Adds scalar loss tensors that fit adds to the compiled loss; cleared by the next outermost call."""
        for value in nest.flatten(loss, expand_composites=True):
            if not isinstance(value, (Tensor, Variable)):
                raise ValueError("`add_loss()` can only be called from inside `build()` or `call()`, on a tensor "
                                 f"input. Received invalid value: {value}")
            self._losses.append(value)
            note_loss_added()

    def _add_activity_losses(self, outputs):
        for output in nest.flatten(outputs, expand_composites=True):
            if isinstance(output, Tensor):
                loss = convert_to_tensor(self.activity_regularizer(output))
                if output.shape.rank:  # Keras 3 divides by the batch size
                    loss = _math.div_no_nan(loss, _math.cast(_array.shape(output)[0], loss.dtype))
                self._losses.append(loss)
                note_loss_added()

    def _clear_losses(self):
        self._losses.clear()
        for layer in self._tracked_layers:
            layer._clear_losses()

    def _flatten_layers(self):
        out = []
        for layer in self._tracked_layers:
            out.append(layer)
            out.extend(layer._flatten_layers())
        return unique_by_identity(out)

    @property
    def losses(self):
        """add_loss() values of this layer and its sublayers, then each trainable weight's regularizer
        evaluated now (Keras 3's order)."""
        losses = list(self._losses)
        for layer in self._flatten_layers():
            losses.extend(layer._losses)
        for w in self.trainable_weights:
            regularizer = getattr(w, "regularizer", None)
            if regularizer is not None:
                losses.append(regularizer(w))
        return losses
