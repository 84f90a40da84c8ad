"""`keras.optimizers.schedules`: learning rates as a function of the step count."""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops import math as _math


class LearningRateSchedule:
    def __call__(self, step):
        raise NotImplementedError


class ExponentialDecay(LearningRateSchedule):
    """lr = initial_learning_rate * decay_rate ** (step / decay_steps) (the exponent floored when
    `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        step = convert_to_tensor(step)
        step = step if step.dtype is _dt.float32 else _math.cast(step, _dt.float32)
        p = step / float(self.decay_steps)
        if self.staircase:
            p = _math.floor(p)
        return _math.multiply(_math.pow(convert_to_tensor(float(self.decay_rate)), p),
                              float(self.initial_learning_rate))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}
