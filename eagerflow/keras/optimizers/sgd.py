"""SGD (Keras 3's formula): with momentum m = mu m - lr g; var += m, or with Nesterov
var += mu m - lr g."""
from __future__ import annotations

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

    def update_step(self, g, v, lr, step):
        if not self.momentum:
            v.assign_sub(g * lr)
            return
        (m,) = self._slots_for(v)
        m.assign(m * self.momentum - g * lr)
        if self.nesterov:
            v.assign_add(m * self.momentum - g * lr)
        else:
            v.assign_add(m)
