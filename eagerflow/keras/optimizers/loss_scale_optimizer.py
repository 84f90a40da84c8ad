"""keras.optimizers.LossScaleOptimizer: dynamic loss scaling around an inner optimizer (Keras 3.15).

fit multiplies the loss by `dynamic_scale` before differentiating (`scale_loss`), so small float16
gradients do not flush to zero; `apply` then checks the gradients: all finite -> divide them by the
scale, let the inner optimizer step, and count the step (after `dynamic_growth_steps` good steps in
a row the scale doubles); any inf/NaN -> skip the step, halve the scale, restart the count. Under
tf.function the check is a tf.cond, so a traced train step makes the same choice every call.
"""
from __future__ import annotations

import numpy as np

from ..._src.control_flow.cond import cond
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.array import joining as _joining
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..variables import KerasVariable
from .base import Optimizer

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None, "loss_scale_factor": None,
                  "gradient_accumulation_steps": None}


class LossScaleOptimizer(Optimizer):
    def __init__(self, inner_optimizer, initial_scale=2.0**15, dynamic_growth_steps=2000, name=None, **kwargs):
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        for arg, default in _BASE_DEFAULTS.items():
            if arg not in kwargs:
                continue
            value = kwargs.pop(arg)
            if (default is None and value is not None) or value != default:
                raise ValueError(f"LossScaleOptimizer does not support `{arg}`. Instead, set `{arg}` on the "
                                 f"`inner_optimizer`.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs)}`.")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale, self.dynamic_growth_steps = initial_scale, dynamic_growth_steps
        self.inner_optimizer.loss_scale_factor = None
        self.step_counter = self.dynamic_scale = None

    def build(self, var_list):
        self.step_counter = KerasVariable(np.array(0, np.int64), trainable=False, name="step_counter",
                                          path=f"{self.name}/step_counter")
        self.dynamic_scale = KerasVariable(np.array(self.initial_scale, np.float32), trainable=False,
                                           name="dynamic_scale", path=f"{self.name}/dynamic_scale")
        self.inner_optimizer.build(var_list)
        super().build(var_list)

    @property
    def variables(self):
        own = [self._iterations, self._learning_rate]
        if self.step_counter is not None:
            own += [self.step_counter, self.dynamic_scale]
        return own + self.inner_optimizer.variables

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        self.inner_optimizer.learning_rate = value

    def scale_loss(self, loss):
        return loss * (self.dynamic_scale if self.built else self.initial_scale)

    @staticmethod
    def check_finite(grads):
        return _reduce.reduce_all(_joining.stack([_reduce.reduce_all(_math.is_finite(g)) for g in grads
                                                if g is not None]))

    def apply(self, grads, trainable_variables=None):
        if not self.built:
            self.build(trainable_variables)
        grads = [None if g is None else convert_to_tensor(g) for g in grads]

        def finite():
            scale = convert_to_tensor(self.dynamic_scale)
            self.inner_optimizer.apply([None if g is None else g / scale for g in grads], trainable_variables)
            grow = _math.equal(self.step_counter, np.int64(self.dynamic_growth_steps - 1))
            self.step_counter.assign(_array.where(grow, np.int64(0), self.step_counter + np.int64(1)))
            current = convert_to_tensor(self.dynamic_scale)
            self.dynamic_scale.assign(_array.where(grow, current * 2.0, current))
            return _array.constant(True)

        def not_finite():
            self.step_counter.assign(np.int64(0))
            self.dynamic_scale.assign(self.dynamic_scale * 0.5)
            return _array.constant(False)

        cond(self.check_finite(grads), finite, not_finite)
        return self.iterations

    def get_config(self):
        from . import serialize
        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import deserialize
        config = dict(config)
        inner = deserialize(config.pop("inner_optimizer"), custom_objects=custom_objects)
        return cls(inner, **config)
