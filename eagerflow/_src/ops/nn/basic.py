"""Neural-network ops (`tf.nn`): activations, bias_add, dropout, moments, batch normalization; softmax and
log_softmax are in softmax.py (re-exported here).

Losses live in ops/nn/losses.py, convolution in ops/nn/conv.py, pooling in ops/nn/pooling.py. Gradients of
the activations are written with `where` over the op's own inputs/outputs rather than as separate
*Grad ops (except ReluGrad, the hot one), so second derivatives come for free from the ops they
are made of.
"""
from __future__ import annotations

import math as _pymath

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from ..array import basic as _array
from ..array.joining import concat
from ..math import elementwise as _math
from ..random import draws as _random
from ..math import reduce as _reduce
from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..registry import Spec, bind, defop
from ..lazy_jax import jnp  # callables that import JAX on first use only
from .softmax import LogSoftmax, Softmax, log_softmax, softmax  # noqa: F401

_NO_ATTRS: dict = {}


def _c(value, like):
    """A scalar constant of `like`'s dtype (gradient rules must not promote dtypes)."""
    return _exact(value, like.dtype)


def _exact(value, dtype):
    """`value` as a tensor of `dtype`; Python numbers are converted straight to `dtype` (NumPy
    arrays keep their dtype), so a float64 constant is not rounded through float32 first."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and dtype.is_floating:
        return convert_to_tensor(np.asarray(value, dtype.np_dtype))
    return as_tensor(value, dtype)


def _zeros(like):
    return _array.zeros_like(like)


def _same(x):
    return x if isinstance(x, Tensor) else as_tensor(x)


def _as_dtype(x, np_dtype):
    return np.asarray(x).astype(np_dtype, copy=False)

# ----------------------------------------------------------------------------------------------
# Activations
# ----------------------------------------------------------------------------------------------


def _relu_grad_grad(op, gg):
    return bind(ReluGrad, (gg, op.inputs[1])), None


ReluGrad = defop(
    "ReluGrad", inputs=("gradients", "features"), infer=R.binary(R.REAL_NUMBERS),
    # NOTE: a product, as TensorFlow's kernel computes it (`gradients * (features > 0)`): a nan or inf
    # gradient where features <= 0 gives nan, not 0; and a masked np.where is ten times slower.
    kernel=lambda g, x: g * (x > 0),
    grad=_relu_grad_grad, doc="Relu's gradient: `gradients * (features > 0)`.")
_ZEROS = {}  # dtype -> a 0-d zero of it, made once


def _relu_kernel(x, out=None):
    # NOTE: a cached 0-d zero: np.zeros((), x.dtype) per call costs ~110 ns, a Python 0 more
    # (NumPy converts it every call); ~7% of the W1 cached tf.function call (bench/).
    zero = _ZEROS.get(x.dtype)
    if zero is None:
        zero = _ZEROS[x.dtype] = np.zeros((), x.dtype)
    return np.maximum(x, zero, out=out)


_relu_kernel.fills_out = _relu_kernel.in_place = True  # may run in a dead input's buffer (codegen/buffers.py)


Relu = defop("Relu", inputs=("features",), infer=R.unary(R.REAL_NUMBERS), kernel=_relu_kernel,
             grad=lambda op, g: bind(ReluGrad, (g, op.inputs[0])))


def _relu6_grad(op, g):
    x = op.inputs[0]
    inside = _math.logical_and(_math.greater(x, _c(0, x)), _math.less(x, _c(6, x)))
    return _array.where(inside, g, _zeros(g))


Relu6 = defop("Relu6", inputs=("features",), infer=R.unary(R.REAL_NUMBERS), grad=_relu6_grad,
              kernel=lambda x: np.clip(x, 0, 6).astype(x.dtype, copy=False))


def _elu_kernel(x):
    # max(expm1(min(x, 0)), x): x where x > 0 (expm1(0) = 0), expm1(x) elsewhere (expm1(x) >= x);
    # the same values as a select on x > 0, without np.where's cost over a random sign pattern.
    r = np.expm1(np.minimum(x, x.dtype.type(0)))
    return np.maximum(r, x, out=r) if r.ndim else np.maximum(r, x)


Elu = defop("Elu", inputs=("features",), infer=R.unary(R.FLOATS), kernel=_elu_kernel,
            # selected on output < 0, as TensorFlow's EluGrad: a NaN input passes g through unchanged
            grad=lambda op, g: _array.where(_math.less(op.outputs[0], _c(0, g)),
                                            g * (op.outputs[0] + _c(1, g)), g))

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _selu_kernel(x):
    # scale*alpha*expm1(min(x, 0)) + scale*max(x, 0): one of the two terms is 0 for each x, so
    # the sum is the select on x > 0 (no np.where: see _elu_kernel).
    zero = x.dtype.type(0)
    neg = np.expm1(np.minimum(x, zero)) * x.dtype.type(_SELU_SCALE * _SELU_ALPHA)
    return neg + np.maximum(x, zero) * x.dtype.type(_SELU_SCALE)


Selu = defop("Selu", inputs=("features",), infer=R.unary(R.FLOATS), kernel=_selu_kernel,
             grad=lambda op, g: _array.where(  # TensorFlow's SeluGrad: the scale at 0 too (outputs < 0 test)
                 _math.less(op.outputs[0], _c(0, g)), g * (op.outputs[0] + _c(_SELU_SCALE * _SELU_ALPHA, g)),
                 g * _c(_SELU_SCALE, g)))

def _softplus_kernel(x):
    """log(1 + e^x) = max(x, 0) + log1p(e^-|x|): no overflow for large x, no cancellation for small.
    NumPy's log1p (and logaddexp, built on it) has no SIMD loop: 50 ms for 4M float32, so log1p(u)
    for u in (0, 1] is log(w) - ((w - 1) - u) / w with w = 1 + u (the rounding of w corrected to first
    order): within 4 ulp of the exact value, as TensorFlow's own kernel is (it returns x above ~14)."""
    if x.ndim == 0:
        return _softplus_kernel(x.reshape(1)).reshape(())
    one, zero = x.dtype.type(1), x.dtype.type(0)
    u = np.abs(x)
    np.negative(u, out=u)
    np.exp(u, out=u)
    w = u + one
    r = np.log(w)
    w -= one
    w -= u
    u += one
    w /= u
    r -= w
    r += np.maximum(x, zero)
    return r


def _leaky_relu_kernel(x, alpha=0.2):
    """x > 0 ? x : alpha * x, as max(x, alpha*x) for alpha <= 1 and min(x, alpha*x) above: no
    np.where (see _elu_kernel). alpha = 0 keeps the select: 0 * inf is nan, where TF gives inf."""
    a = x.dtype.type(alpha)
    if alpha == 0 or not np.isfinite(alpha):
        return np.where(x > 0, x, x * a)
    scaled = x * a
    pick = np.maximum if alpha <= 1 else np.minimum
    return pick(x, scaled, out=scaled) if scaled.ndim else pick(x, scaled)


Softplus = defop("Softplus", inputs=("features",), infer=R.unary(R.FLOATS), kernel=_softplus_kernel,
                 grad=lambda op, g: g * _math.sigmoid(op.inputs[0]))
LeakyRelu = defop(
    "LeakyRelu", inputs=("features",), infer=R.unary(R.FLOATS),
    kernel=_leaky_relu_kernel,
    grad=lambda op, g: _array.where(_math.greater(op.inputs[0], _c(0, g)), g,
                                    g * _c(op.attrs.get("alpha", 0.2), g)))

# Kernels that may run tile by tile (codegen/tiling.py): the NumPy passes each makes.
for _op, _passes in ((Relu, 1), (ReluGrad, 2), (Relu6, 2), (Elu, 3), (Selu, 6), (Softplus, 11), (LeakyRelu, 2)):
    _op.elementwise = _passes


def relu(features, name=None):
    return bind(Relu, (_same(features),))


def crelu(features, axis=-1, name=None):
    """`tf.nn.crelu`: relu of [x, -x] concatenated along `axis` (twice the channels)."""
    x = as_tensor(features)
    return relu(concat([x, -x], axis))


def relu6(features, name=None):
    return bind(Relu6, (_same(features),))


def elu(features, name=None):
    return bind(Elu, (as_tensor(features),))


def selu(features, name=None):
    return bind(Selu, (as_tensor(features),))


def softplus(features, name=None):
    return bind(Softplus, (as_tensor(features),))


def leaky_relu(features, alpha=0.2, name=None):
    """`tf.nn.leaky_relu`: integer features are computed in float32, as in TensorFlow."""
    x = _same(features)
    if x.dtype.is_integer:
        x = _math.cast(x, _dt.float32)
    return bind(LeakyRelu, (x,), {"alpha": float(alpha)})


def _float_features(features, fn_name):
    x = _same(features)
    if not x.dtype.is_floating:
        raise ValueError(f"`features.dtype` must be a floating point tensor. Received: features.dtype={x.dtype!r}")
    return x


def gelu(features, approximate=False, name=None):
    """`tf.nn.gelu`: x * Phi(x) with the exact erf form, or the tanh approximation."""
    x = _float_features(features, "gelu")
    half = _c(0.5, x)
    if approximate:
        inner = _c(0.7978845608028654, x) * (x + _c(0.044715, x) * x * x * x)
        return half * x * (_c(1.0, x) + _math.tanh(inner))
    # TensorFlow's form: x * Phi(x) through erfc, which keeps its relative accuracy for x << 0
    # (1 + erf(x / sqrt 2) cancels: gelu(-5) would be 4% off in float32).
    from ..math.special import erfc  # (special imports this module)
    return half * x * erfc(-x * _c(0.7071067811865476, x))


def silu(features, beta=1.0, name=None):
    """`tf.nn.silu` (a.k.a. swish): x * sigmoid(beta * x)."""
    x = _same(features)
    if isinstance(beta, (int, float)) and beta == 1.0:
        return x * _math.sigmoid(x)
    return x * _math.sigmoid(_exact(beta, x.dtype) * x)


swish = silu
sigmoid = _math.sigmoid
tanh = _math.tanh

# ----------------------------------------------------------------------------------------------
# BiasAdd
# ----------------------------------------------------------------------------------------------


def _channel_axis(rank, data_format):
    return 1 if data_format.startswith("NC") and rank > 2 else rank - 1


def _bias_add_kernel(value, bias, data_format="NHWC", out=None):
    if bias.ndim != 1 or value.ndim < 2 or value.shape[_channel_axis(value.ndim, data_format)] != bias.shape[0]:
        raise ValueError("bad shapes")  # the shape rule words the error
    axis = _channel_axis(value.ndim, data_format)
    shape = [1] * value.ndim
    shape[axis] = -1
    return np.add(value, bias.reshape(shape), out=out)


_bias_add_kernel.fills_out = _bias_add_kernel.in_place = True  # may add in the convolution's output (codegen/buffers.py)


def _bias_add_infer(inputs, attrs):
    value, bias = inputs
    R.check_same_dtype("BiasAdd", inputs)
    vs, bs = value.shape, bias.shape
    if bs.rank is not None and bs.rank != 1:
        raise InvalidArgumentError(None, None, f"Biases must be 1D: {R.fmt_dims(bs)}")
    graph = R.graph_shape_check(inputs)  # TensorFlow's graph shape function words these otherwise
    if vs.rank is not None and vs.rank < 2:
        raise InvalidArgumentError(None, None, f"Shape must be at least rank 2 but is rank {vs.rank}" if graph
                                   else f"Input tensor must be at least 2D: {R.fmt_dims(vs)}")
    if vs.rank is not None and bs.rank == 1:
        channels = vs[_channel_axis(vs.rank, attrs.get("data_format", "NHWC"))]
        if channels is not None and bs[0] is not None and channels != bs[0]:
            if graph:
                raise InvalidArgumentError(None, None, f"Dimensions must be equal, but are {channels} and {bs[0]}")
            raise InvalidArgumentError(None, None, f"Must provide as many biases as the last dimension of the "
                                                   f"input tensor: {R.fmt_dims(bs)} vs. {R.fmt_dims(vs)}")
    return [Spec(vs, value.dtype)]


def _bias_add_grad_kernel(out_backprop, data_format="NHWC"):
    axis = _channel_axis(out_backprop.ndim, data_format)
    axes = tuple(i for i in range(out_backprop.ndim) if i != axis)
    return np.sum(out_backprop, axis=axes).astype(out_backprop.dtype, copy=False)


def _bias_add_grad_infer(inputs, attrs):
    s = inputs[0].shape
    channels = None if s.rank is None else s[_channel_axis(s.rank, attrs.get("data_format", "NHWC"))]
    return [Spec(TensorShape([channels]), inputs[0].dtype)]


def _bias_add_grad_grad(op, gg):
    """BiasAddGrad sums over all but the channel axis; its adjoint broadcasts back."""
    g = op.inputs[0]
    return bind(BiasAdd, (_array.zeros_like(g), gg), op.attrs)


BiasAddGrad = defop("BiasAddGrad", inputs=("out_backprop",), kernel=_bias_add_grad_kernel,
                    infer=_bias_add_grad_infer, grad=_bias_add_grad_grad)
BiasAdd = defop("BiasAdd", inputs=("value", "bias"), kernel=_bias_add_kernel, infer=_bias_add_infer,
                grad=lambda op, g: (g, bind(BiasAddGrad, (g,), op.attrs)))


def bias_add(value, bias, data_format=None, name=None):
    """`tf.nn.bias_add`: adds a 1-D bias along the channel axis (last for N...C formats)."""
    value, bias = binary_operands(value, bias, "BiasAdd")
    if data_format is not None and data_format.startswith("NC"):
        return bind(BiasAdd, (value, bias), {"data_format": "NCHW"})
    return bind(BiasAdd, (value, bias))

# ----------------------------------------------------------------------------------------------
# Dropout, moments, batch normalization (composed from other ops)
# ----------------------------------------------------------------------------------------------


def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """`tf.nn.dropout`: zeroes each element with probability `rate` and scales the kept ones by
    1 / (1 - rate), so the expected value is unchanged."""
    x = _same(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={x.dtype!r}")
    if not isinstance(rate, Tensor):
        if not (isinstance(rate, (int, float, np.number)) and 0 <= float(rate) < 1):
            raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")
        if float(rate) == 0:
            return x  # TensorFlow returns the input untouched for a Python rate of 0
    rate_t = _exact(rate, x.dtype)
    if rate_t.dtype is not x.dtype:
        rate_t = _math.cast(rate_t, x.dtype)
    shape = _array.shape(x) if noise_shape is None else noise_shape
    random_tensor = _random.uniform(shape, seed=seed, dtype=x.dtype)
    keep = _math.cast(_math.greater_equal(random_tensor, rate_t), x.dtype)
    scale = _math.reciprocal(_c(1, x) - rate_t)
    return x * scale * keep


def moments(x, axes, shift=None, keepdims=False, name=None):
    """`tf.nn.moments`: (mean, variance) over `axes`. The variance uses the mean as a constant,
    as TensorFlow does (its gradient through the mean is zero anyway). float16 is computed in
    float32."""
    x = _same(x)
    y = _math.cast(x, _dt.float32) if x.dtype is _dt.float16 else x
    mean = _reduce.reduce_mean(y, axes, keepdims=True)
    variance = _reduce.reduce_mean(_math.squared_difference(y, _array.stop_gradient(mean)), axes, keepdims=True)
    if not keepdims:  # summing over size-1 axes drops them, without needing their static shape
        mean = _reduce.reduce_sum(mean, axes)
        variance = _reduce.reduce_sum(variance, axes)
    if x.dtype is _dt.float16:
        return _math.cast(mean, x.dtype), _math.cast(variance, x.dtype)
    return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """`tf.nn.batch_normalization`: (x - mean) * scale / sqrt(variance + eps) + offset, arranged
    as x * inv + (offset - mean * inv) like TensorFlow (one multiply-add over x)."""
    x = _same(x)
    mean, variance = _exact(mean, x.dtype), _exact(variance, x.dtype)
    inv = _math.rsqrt(variance + _exact(variance_epsilon, variance.dtype))
    if scale is not None:
        inv = inv * _exact(scale, x.dtype)
    shift = _math.negative(mean * inv) if offset is None else _exact(offset, x.dtype) - mean * inv
    return x * _math.cast(inv, x.dtype) + _math.cast(shift, x.dtype)

# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_bias_shape(ndim, data_format):
    shape = [1] * ndim
    shape[_channel_axis(ndim, data_format)] = -1
    return shape


ReluGrad.jax = lambda g, x: jnp.where(x > 0, g, jnp.zeros((), g.dtype))
Relu.jax = lambda x: jnp.maximum(x, jnp.zeros((), x.dtype))
Relu6.jax = lambda x: jnp.clip(x, 0, 6).astype(x.dtype)
Elu.jax = lambda x: jnp.where(x > 0, x, jnp.expm1(jnp.minimum(x, 0))).astype(x.dtype)
Selu.jax = lambda x: jnp.where(x > 0, _SELU_SCALE * x, _SELU_SCALE * _SELU_ALPHA * jnp.expm1(jnp.minimum(x, 0))
                               ).astype(x.dtype)
Softplus.jax = lambda x: jnp.logaddexp(jnp.zeros((), x.dtype), x)
LeakyRelu.jax = lambda x, alpha=0.2: jnp.where(x > 0, x, x * np.asarray(alpha, x.dtype))
BiasAdd.jax = lambda value, bias, data_format="NHWC": value + jnp.reshape(
    bias, _jax_bias_shape(value.ndim, data_format))
BiasAddGrad.jax = lambda g, data_format="NHWC": jnp.sum(
    g, axis=tuple(i for i in range(g.ndim) if i != _channel_axis(g.ndim, data_format))).astype(g.dtype)
