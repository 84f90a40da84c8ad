"""ActivityRegularization: adds an L1/L2 penalty on its input to the model's losses."""
from __future__ import annotations

from ..base import Layer


class ActivityRegularization(Layer):
    """Passes its input through and adds l1 * sum|x| + l2 * sum(x**2) (over the batch size) to the losses."""
    supports_masking = True

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        from ... import regularizers as _reg
        super().__init__(activity_regularizer=_reg.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def get_config(self):
        return {**super().get_config(), "l1": self.l1, "l2": self.l2}
