"""Initializers that draw: RandomNormal, RandomUniform, TruncatedNormal, Orthogonal and the
VarianceScaling family (Glorot, He and LeCun), with Keras 3's formulas: a VarianceScaling draw has
variance scale / fan, where fan is fan_in, fan_out or their mean (compute_fans); a uniform draw is
U(-l, l) with l = sqrt(3 * variance), a truncated normal is cut at two standard deviations."""
from __future__ import annotations

import math

import numpy as np

from .base import Initializer, compute_fans, numpy_dtype, rng_for

_TRUNCATED_STD = 0.87962566103423978  # the standard deviation of a unit normal cut at +-2


def truncated_normal(rng, mean, stddev, shape):
    """Normal draws with those outside mean +- 2 stddev drawn again."""
    draw = rng.normal(mean, stddev, size=shape)
    bad = np.abs(draw - mean) > 2 * stddev
    while bad.any():
        draw[bad] = rng.normal(mean, stddev, size=int(bad.sum()))
        bad = np.abs(draw - mean) > 2 * stddev
    return draw


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def get_config(self):
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}

    def __call__(self, shape, dtype=None):
        draw = rng_for(self.seed).uniform(self.minval, self.maxval, size=tuple(shape))
        return draw.astype(numpy_dtype(dtype))


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def get_config(self):
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}

    def __call__(self, shape, dtype=None):
        draw = rng_for(self.seed).normal(self.mean, self.stddev, size=tuple(shape))
        return draw.astype(numpy_dtype(dtype))


class TruncatedNormal(RandomNormal):
    """A normal draw (mean, stddev) with every value beyond two stddevs of the mean drawn again."""

    def __call__(self, shape, dtype=None):
        draw = truncated_normal(rng_for(self.seed), self.mean, self.stddev, tuple(shape))
        return draw.astype(numpy_dtype(dtype))


_MODES = ("fan_in", "fan_out", "fan_avg")
_DISTRIBUTIONS = ("uniform", "truncated_normal", "untruncated_normal")


class VarianceScaling(Initializer):
    """Keras' family: variance scale / fan, uniform, truncated or untruncated normal."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in _MODES:
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of {set(_MODES)}")
        distribution = "truncated_normal" if distribution == "normal" else distribution
        if distribution not in _DISTRIBUTIONS:
            raise ValueError(f"Invalid `distribution` argument: {distribution}.Please use one of "
                             f"{set(_DISTRIBUTIONS)}")
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.input_axes, self.output_axes = input_axes, output_axes  # the fans' axes (compute_fans)

    def get_config(self):
        axes = {"input_axes": self.input_axes, "output_axes": self.output_axes}
        if type(self) is not VarianceScaling:  # Glorot/He/LeCun: only the seed and the axes are arguments
            return {"seed": self.seed, **axes}
        return {"seed": self.seed, "scale": self.scale, "mode": self.mode, "distribution": self.distribution, **axes}

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, fan)
        rng = rng_for(self.seed)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            draw = rng.uniform(-limit, limit, size=shape)
        elif self.distribution == "untruncated_normal":
            draw = rng.normal(0.0, math.sqrt(variance), size=shape)
        else:
            draw = truncated_normal(rng, 0.0, math.sqrt(variance) / _TRUNCATED_STD, shape)
        return draw.astype(numpy_dtype(dtype))


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class Orthogonal(Initializer):
    """`gain` times a random orthogonal matrix (the Q of a QR decomposition of a normal draw,
    sign-fixed), the shape read as (product of all axes but the last, last axis)."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def get_config(self):
        return {"seed": self.seed, "gain": self.gain}

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        _check_qr_dtype(dtype)
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = rng_for(self.seed).normal(size=(max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q[:rows, :cols]).reshape(shape).astype(numpy_dtype(dtype))


def _check_qr_dtype(dtype):
    """Keras draws the matrix in `dtype` and factors it in `dtype`: a dtype the normal draw cannot
    hold is TensorFlow's TypeError, and one the Qr op refuses (bfloat16) is that op's own error."""
    from ..._src.core.dtypes import as_dtype
    dtype = as_dtype(str(getattr(dtype, "name", dtype))) if dtype is not None else None
    if dtype is None or dtype.name in ("float16", "float32", "float64"):
        return
    if not dtype.is_floating:
        raise TypeError(f"Cannot convert 0.0 to EagerTensor of dtype {dtype.name}")
    from ..._src.core.convert import convert_to_tensor
    from ..._src.ops.linalg.decompositions import qr
    qr(convert_to_tensor(np.eye(2, dtype=dtype.np_dtype)))  # raises the op's refusal of this dtype
