"""SGD (Keras 3's formula): with momentum m = mu m - lr g; var += m, or with Nesterov
var += mu m - lr g."""
from __future__ import annotations

from ..._src.composite.indexed_slices import IndexedSlices
from ..._src.ops.math import elementwise as _math
from .base import Optimizer


class SGD(Optimizer):
    _config_keys = ("momentum", "nesterov")

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if not 0 <= momentum <= 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum, self.nesterov = momentum, nesterov

    def _make_slots(self, variable):
        return (self.add_variable_from_reference(variable, "momentum"),) if self.momentum else ()

    @property
    def _updates_rows(self):
        return not self.momentum  # plain SGD touches only the rows a gather's gradient names

    def update_step(self, g, v, lr, step):
        if not self.momentum:
            if isinstance(g, IndexedSlices):
                v.scatter_sub(IndexedSlices(g.values * _math.cast(lr, g.dtype), g.indices, g.dense_shape))
            else:
                v.assign_sub(g * lr)
            return
        (m,) = self._slots_for(v)
        m.assign(m * self.momentum - g * lr)
        if self.nesterov:
            v.assign_add(m * self.momentum - g * lr)
        else:
            v.assign_add(m)
