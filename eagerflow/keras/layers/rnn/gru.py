"""GRU in Keras 3's reset_after form (gates [z, r, h], bias rows (input, recurrent)); GRUMath is its step,
shared with GRUCell."""
from __future__ import annotations

from ...._src.ops.array.joining import split
from .recurrent import GateMath, RecurrentLayer


class GRUMath(GateMath):
    """Keras 3's default GRU (reset_after=True): z, r = sigmoid(x W + b_in + h U + b_rec);
    h~ = tanh(x W_h + b_in_h + r * (h U_h + b_rec_h)); h_t = z h_{t-1} + (1 - z) h~."""
    _gates = 3

    def _bias_shape(self):
        return (2, 3 * self.units)

    def _input_bias(self):
        return self.bias[0]

    def _loop_constants(self):
        return (self.bias[1] if self.bias is not None else None,)

    def _step(self, x, hs, recurrent, extra, rec_masks=None):
        h = hs[0]
        rec = self._recurrent(h, recurrent, rec_masks)  # h itself (undropped) mixes below, as in Keras
        if extra[0] is not None:
            rec = rec + extra[0]
        x_z, x_r, x_h = split(x, 3, axis=1)
        r_z, r_r, r_h = split(rec, 3, axis=1)
        z = self.recurrent_activation(x_z + r_z)
        r = self.recurrent_activation(x_r + r_r)
        hh = self.activation(x_h + r * r_h)
        return (z * h + (1.0 - z) * hh,)


class GRU(GRUMath, RecurrentLayer):
    __doc__ = GRUMath.__doc__

    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        if not self._extra.get("reset_after", True):
            raise NotImplementedError("GRU(reset_after=False) is not supported yet.")
