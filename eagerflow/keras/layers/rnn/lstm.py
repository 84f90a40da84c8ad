"""LSTM (gates [i, f, c, o], forget-gate bias starting at 1, as Keras lays them out); LSTMMath is its
step, shared with LSTMCell."""
from __future__ import annotations

import numpy as np

from ...._src.ops.array.joining import split
from .recurrent import GateMath, RecurrentLayer


class LSTMMath(GateMath):
    """i, f, o = sigmoid(.), c~ = tanh(.); c_t = f c_{t-1} + i c~; h_t = o tanh(c_t)."""
    _gates = 4
    _n_states = 2

    def _bias_value(self, shape, dtype):
        value = np.asarray(self.bias_initializer((self.units * 4,), dtype))
        if self._extra.get("unit_forget_bias", True):
            value = value.copy()
            value[self.units:2 * self.units] = 1.0
        return value

    def _step(self, x, hs, recurrent, extra, rec_masks=None):
        h, c = hs
        z = x + self._recurrent(h, recurrent, rec_masks)
        i, f, cc, o = split(z, 4, axis=1)
        i, f, o = self.recurrent_activation(i), self.recurrent_activation(f), self.recurrent_activation(o)
        c = f * c + i * self.activation(cc)
        return (o * self.activation(c), c)


class LSTM(LSTMMath, RecurrentLayer):
    __doc__ = LSTMMath.__doc__
