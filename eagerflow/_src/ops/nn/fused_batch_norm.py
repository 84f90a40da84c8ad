"""FusedBatchNormV3: batch normalization in one op, as tf.keras 2's BatchNormalization and
tf.compat.v1.nn.fused_batch_norm write it into TensorFlow's graphs (Keras 3 composes it from math ops).

Inference (`is_training=False`) normalizes with the given mean and variance; training normalizes with the
batch's own mean and (biased) variance and returns, as the running-statistics outputs, the batch mean and
the unbiased variance, blended with the inputs by `exponential_avg_factor` when it is below 1. The
channel axis is the last one (NHWC, NDHWC) or the second (NCHW, NCDHW). The gradient is that of y
(the statistics outputs feed variable updates, not the loss), for x, scale and offset only, as in
TensorFlow (none for the given mean and variance, also in inference)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop

_FORMATS = ("NHWC", "NCHW", "NDHWC", "NCDHW")


def _channel_axis(data_format, rank):
    if data_format not in _FORMATS:
        raise InvalidArgumentError(None, None, f"Invalid data format: {data_format}")
    return 1 if data_format in ("NCHW", "NCDHW") else rank - 1


def _kernel(x, scale, offset, mean, variance, epsilon=1e-4, exponential_avg_factor=1.0, data_format="NHWC",
            is_training=True):
    axis = _channel_axis(data_format, x.ndim)
    shape = [1] * x.ndim
    shape[axis] = -1
    reduced = tuple(a for a in range(x.ndim) if a != axis)
    xf = x.astype(np.float32)
    if is_training:
        m, v = xf.mean(axis=reduced), xf.var(axis=reduced)
        n = xf.size // max(xf.shape[axis], 1)
        unbiased = v * (n / max(n - 1, 1))
        f = np.float32(exponential_avg_factor)
        run_m = m if f == 1 or mean.size == 0 else (1 - f) * mean + f * m
        run_v = unbiased if f == 1 or variance.size == 0 else (1 - f) * variance + f * unbiased
    else:
        m, v, run_m, run_v = mean, variance, mean, variance  # reserve spaces: the statistics used
    inv = 1.0 / np.sqrt(v.astype(np.float32) + np.float32(epsilon))
    y = (xf - m.reshape(shape)) * (inv * scale).reshape(shape) + offset.reshape(shape)
    u = scale.dtype
    return (y.astype(x.dtype), run_m.astype(u), run_v.astype(u), m.astype(u), v.astype(u), np.zeros(0, u))


def _infer(inputs, attrs):
    x, scale, offset, mean, variance = inputs
    R.check_dtype_in("FusedBatchNormV3", x.dtype, (_dt.float16, _dt.bfloat16, _dt.float32))
    R.check_dtype_in("FusedBatchNormV3", scale.dtype, (_dt.bfloat16, _dt.float32), attr="U")
    if x.shape.rank is not None and x.shape.rank not in (4, 5):
        raise InvalidArgumentError(None, None, f"input must be 4-dimensional or 5-dimensional{x.shape.as_list()}")
    channels = None
    if x.shape.rank is not None:
        channels = x.shape[_channel_axis(attrs.get("data_format", "NHWC"), x.shape.rank)]
    vector = Spec(scale.shape if scale.shape.rank == 1 else TensorShape([channels]), scale.dtype)
    return [Spec(x.shape, x.dtype), vector, vector, vector, vector, Spec(TensorShape([0]), scale.dtype)]


def _grad(op, g, *_statistics_grads):
    from ..array import basic as _array
    from ..math import elementwise as _math
    from ..math import reduce as _reduce
    x, scale, _, mean, variance = op.inputs
    attrs = op.attrs
    rank = x.shape.rank
    axis = _channel_axis(attrs.get("data_format", "NHWC"), rank)
    reduced = [a for a in range(rank) if a != axis]
    shape = [1] * rank
    shape[axis] = -1

    def per_channel(t):
        return _array.reshape(t, shape)
    xf, gf = _math.cast(x, _dt.float32), _math.cast(g, _dt.float32)
    eps = as_tensor(np.float32(attrs.get("epsilon", 1e-4)))
    if attrs.get("is_training", True):
        m = _reduce.reduce_mean(xf, reduced)
        centered = xf - per_channel(m)
        inv = _math.rsqrt(_reduce.reduce_mean(_math.square(centered), reduced) + eps)
    else:
        centered = xf - per_channel(mean)
        inv = _math.rsqrt(variance + eps)
    xhat = centered * per_channel(inv)
    d_offset = _reduce.reduce_sum(gf, reduced)
    d_scale = _reduce.reduce_sum(gf * xhat, reduced)
    if attrs.get("is_training", True):
        count = _math.cast(_array.size(xf), _dt.float32) / _math.cast(_array.shape(xf)[axis], _dt.float32)
        dx = per_channel(scale * inv / count) * (count * gf - per_channel(d_offset) - xhat * per_channel(d_scale))
        return _math.cast(dx, x.dtype), d_scale, d_offset, None, None
    return _math.cast(gf * per_channel(scale * inv), x.dtype), d_scale, d_offset, None, None


FusedBatchNormV3 = defop("FusedBatchNormV3", inputs=("x", "scale", "offset", "mean", "variance"), kernel=_kernel,
                         infer=_infer, grad=_grad, multi_output=True,
                         doc="Batch normalization of x over every axis but the channel axis, in one op.")


def fused_batch_norm(x, scale, offset, mean, variance, epsilon=1e-4, data_format="NHWC", is_training=True,
                     exponential_avg_factor=1.0):
    """The op's six outputs: y, running mean, running variance, and three values its gradient may reuse."""
    return bind(FusedBatchNormV3, tuple(as_tensor(t) for t in (x, scale, offset, mean, variance)),
                {"epsilon": float(epsilon), "data_format": data_format, "is_training": bool(is_training),
                 "exponential_avg_factor": float(exponential_avg_factor)})
