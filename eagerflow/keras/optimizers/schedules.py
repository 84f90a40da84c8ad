"""`keras.optimizers.schedules`: learning rates as a function of the step count, as Keras 3.15
computes them (its formulas, defaults, default names and get_config keys). Each schedule is built
from tf ops, so it works on a Python step, an eager tensor, or the optimizer's iteration counter
inside a traced train step."""
import math as _pymath

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor as _convert
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math


class LearningRateSchedule:
    """The base class: a callable `schedule(step) -> learning rate`, serialisable by get_config."""

    def __call__(self, step):
        raise NotImplementedError(f"Learning rate schedule '{self.__class__.__name__}' must override "
                                  f"`__call__(self, step)`.")

    def get_config(self):
        raise NotImplementedError(f"Learning rate schedule '{self.__class__.__name__}' must override "
                                  f"`get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _float_step(step):
    step = _convert(step)
    return step if step.dtype is _dt.float32 else _math.cast(step, _dt.float32)


def _progress(step, decay_steps, staircase):
    """step / decay_steps, floored when `staircase` (exponential and inverse-time decay)."""
    p = _float_step(step) / float(decay_steps)
    return _math.floor(p) if staircase else p


def _f32(value):
    return _convert(float(value), _dt.float32)


class ExponentialDecay(LearningRateSchedule):
    """lr = initial_learning_rate * decay_rate ** (step / decay_steps) (the exponent floored when
    `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        p = _progress(step, self.decay_steps, self.staircase)
        return _math.multiply(_math.pow(_convert(float(self.decay_rate)), p),
                              float(self.initial_learning_rate))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] up to and including boundaries[0], values[1] up to boundaries[1], ..., values[-1]
    after the last boundary."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries, self.values, self.name = boundaries, values, name

    def __call__(self, step):
        step = _float_step(step)
        lr = _f32(self.values[0])
        for boundary, value in zip(self.boundaries, self.values[1:]):
            lr = _array.where(_math.greater(step, float(boundary)), _f32(value), lr)
        return lr

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - step / decay_steps) ** power + end, the step held at decay_steps; with
    `cycle`, decay_steps grows to the next multiple of itself past the step instead."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                 name="PolynomialDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle, self.name = end_learning_rate, power, cycle, name

    def __call__(self, step):
        step = _float_step(step)
        decay_steps = _f32(self.decay_steps)
        if self.cycle:
            multiplier = _array.where(_math.equal(step, 0.0), _f32(1.0), _math.ceil(step / decay_steps))
            decay_steps = decay_steps * multiplier
        else:
            step = _math.minimum(step, decay_steps)
        fraction = step / decay_steps
        start, end = float(self.initial_learning_rate), float(self.end_learning_rate)
        return _math.pow(1.0 - fraction, float(self.power)) * (start - end) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps) (the ratio floored when `staircase`)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="InverseTimeDecay"):
        self.initial_learning_rate, self.decay_steps, self.decay_rate = initial_learning_rate, decay_steps, decay_rate
        self.staircase, self.name = staircase, name

    def __call__(self, step):
        p = _progress(step, self.decay_steps, self.staircase)
        return float(self.initial_learning_rate) / (1.0 + p * float(self.decay_rate))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


def _cosine(fraction, alpha):
    """(1 - alpha) * (1 + cos(pi * fraction)) / 2 + alpha."""
    return (1.0 - alpha) * (0.5 * (1.0 + _math.cos(fraction * _pymath.pi))) + alpha


class CosineDecay(LearningRateSchedule):
    """Cosine decay to alpha * the peak over decay_steps, after an optional linear warmup from
    initial_learning_rate to warmup_target over warmup_steps (the peak is then warmup_target)."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", warmup_target=None,
                 warmup_steps=0):
        self.initial_learning_rate, self.decay_steps, self.alpha = initial_learning_rate, decay_steps, alpha
        self.name, self.warmup_target, self.warmup_steps = name, warmup_target, warmup_steps

    def __call__(self, step):
        step = _float_step(step)
        start = float(self.initial_learning_rate)
        if self.warmup_target is None:
            fraction = _math.minimum(step, float(self.decay_steps)) / float(self.decay_steps)
            return start * _cosine(fraction, float(self.alpha))
        target, warmup = float(self.warmup_target), float(self.warmup_steps)
        after = _math.minimum(step - warmup, float(self.decay_steps)) / float(self.decay_steps)
        decayed = target * _cosine(after, float(self.alpha))
        warming = start + (target - start) * (step / warmup if warmup else _f32(1.0))
        return _array.where(_math.less(step, warmup), warming, decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """SGDR: cosine decay over first_decay_steps, then restarts, each period t_mul times longer
    and its peak m_mul times lower."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0, name="SGDRDecay"):
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, first_decay_steps
        self.t_mul, self.m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def __call__(self, step):
        fraction = _float_step(step) / float(self.first_decay_steps)
        t_mul = float(self.t_mul)
        if t_mul == 1.0:
            restarts = _math.floor(fraction)
            fraction = fraction - restarts
        else:
            restarts = _math.floor(_math.log(1.0 - fraction * (1.0 - t_mul)) / _pymath.log(t_mul))
            done = (1.0 - _math.pow(_f32(t_mul), restarts)) / (1.0 - t_mul)
            fraction = (fraction - done) / _math.pow(_f32(t_mul), restarts)
        peak = _math.pow(_f32(self.m_mul), restarts)
        alpha = float(self.alpha)
        decayed = (1.0 - alpha) * (0.5 * peak * (1.0 + _math.cos(fraction * _pymath.pi))) + alpha
        return float(self.initial_learning_rate) * decayed

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self.t_mul, "m_mul": self.m_mul, "alpha": self.alpha, "name": self.name}


_SCHEDULES = {cls.__name__: cls for cls in (ExponentialDecay, PiecewiseConstantDecay, PolynomialDecay,
                                            InverseTimeDecay, CosineDecay, CosineDecayRestarts)}


def serialize(learning_rate_schedule):
    """Keras 3's dict for a schedule: module, class_name, config, registered_name."""
    return {"module": "keras.optimizers.schedules", "class_name": type(learning_rate_schedule).__name__,
            "config": learning_rate_schedule.get_config(), "registered_name": None}


def deserialize(config, custom_objects=None):
    from ..saving.serialization import deserialize_keras_object
    return deserialize_keras_object(config, _SCHEDULES, custom_objects, "learning rate schedule")
