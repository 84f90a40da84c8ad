"""SimpleRNN: h = activation(x W + h U + b), as a layer over a sequence; SimpleRNNMath is its step, shared with
SimpleRNNCell."""
from __future__ import annotations

from .recurrent import GateMath, RecurrentLayer


class SimpleRNNMath(GateMath):
    """h_t = activation(x_t W + h_{t-1} U + b)."""

    def _step(self, x, hs, recurrent, extra, rec_masks=None):
        return (self.activation(x + self._recurrent(hs[0], recurrent, rec_masks)),)


class SimpleRNN(SimpleRNNMath, RecurrentLayer):
    __doc__ = SimpleRNNMath.__doc__
