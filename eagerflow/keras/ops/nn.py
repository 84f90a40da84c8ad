"""keras.ops.nn (Keras' keras/src/ops/nn.py): activations and losses here; convolutions, pooling, normalization
and attention in _nn_layers.py. Integer inputs of the float-valued activations become floatx, as in Keras."""
from __future__ import annotations

from ._common import FLOATX, float_result, public, tensor, tf
from ._nn_layers import (adaptive_average_pool, adaptive_max_pool, average_pool, batch_normalization, conv,
                         conv_transpose, depth_to_space, depthwise_conv, dot_product_attention, layer_normalization,
                         max_pool, moments, multi_hot, psnr, rms_normalization, separable_conv, space_to_depth)
from ._nn_patches import ctc_decode, fold, unfold

# Integer inputs: the activations TensorFlow's kernels refuse integers for (sigmoid, softplus, selu, gelu, softmax,
# celu, hard_tanh...) raise TensorFlow's error, as Keras on TF does; the ones Keras computes by arithmetic that
# promotes (silu, elu, softsign, hard_sigmoid...) return floatx.
_LAYERS = ["adaptive_average_pool", "adaptive_max_pool", "average_pool", "batch_normalization", "conv",
           "conv_transpose", "depth_to_space", "depthwise_conv", "dot_product_attention", "layer_normalization",
           "max_pool", "moments", "multi_hot", "psnr", "rms_normalization", "separable_conv", "space_to_depth",
           "ctc_decode", "fold", "unfold"]
__all__ = _LAYERS + [
    "binary_crossentropy", "categorical_crossentropy", "celu", "ctc_loss", "elu", "gelu", "glu", "hard_shrink",
    "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "leaky_relu", "log_sigmoid", "log_softmax", "normalize",
    "one_hot", "polar", "relu", "relu6", "selu", "sigmoid", "silu", "soft_shrink", "softmax", "softplus", "softsign",
    "sparse_categorical_crossentropy", "sparse_plus", "sparse_sigmoid", "sparsemax", "squareplus", "swish",
    "tanh_shrink", "threshold"]
__dir__ = public(__all__)


def _floats(x):
    return float_result(x)[0]


def relu(x):
    return tf().nn.relu(x)


def relu6(x):
    return tf().nn.relu6(x)


def sigmoid(x):
    return tf().math.sigmoid(tensor(x))


def softplus(x):
    return tf().math.softplus(tensor(x))


def softsign(x):
    x = _floats(x)
    return x / (1.0 + tf().math.abs(x))


def silu(x):
    x = _floats(x)
    return x * tf().math.sigmoid(x)


swish = silu


def log_sigmoid(x):
    x = _floats(x)
    return -tf().math.softplus(-x)


def leaky_relu(x, negative_slope=0.2):
    return tf().nn.leaky_relu(_floats(x), alpha=negative_slope)


def elu(x, alpha=1.0):
    t = tf()
    x = _floats(x)
    return t.where(x > 0, x, alpha * (t.exp(x) - 1.0))


def celu(x, alpha=1.0):
    """max(x, 0) + alpha * min(exp(x / alpha) - 1, 0)."""
    t = tf()
    x = tensor(x)
    return t.maximum(x, 0.0) + alpha * t.minimum(t.exp(x / alpha) - 1.0, 0.0)


def selu(x):
    return tf().nn.selu(tensor(x))


def gelu(x, approximate=True):
    return tf().nn.gelu(tensor(x), approximate=approximate)


def glu(x, axis=-1):
    """The first half of x along axis gated by the sigmoid of the second half (integers refused, as in Keras)."""
    t = tf()
    x = tensor(x)
    if x.shape[axis] % 2 != 0:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape.as_list())} "
                         f"with axis={axis}")
    a, b = t.split(x, 2, axis=axis)
    return a * t.math.sigmoid(b)


def hard_sigmoid(x):
    """relu6(x + 3) / 6, Keras 3's definition."""
    return tf().nn.relu6(_floats(x) + 3.0) / 6.0


def hard_silu(x):
    x = _floats(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def hard_tanh(x):
    return tf().maximum(tf().minimum(tensor(x), 1.0), -1.0)


def hard_shrink(x, threshold=0.5):
    t = tf()
    x = tensor(x)
    return t.where(t.abs(x) > threshold, x, t.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    t = tf()
    x = tensor(x)
    return t.where(x > threshold, x - threshold, t.where(x < -threshold, x + threshold, t.zeros_like(x)))


def tanh_shrink(x):
    x = tensor(x)
    return x - tf().math.tanh(x)


def threshold(x, threshold, default_value):
    """x where x > threshold, else default_value."""
    t = tf()
    x = tensor(x)
    return t.where(x > threshold, x, t.cast(default_value, x.dtype))


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2, a smooth ReLU."""
    t = tf()
    x = tensor(x)
    return (x + t.sqrt(t.square(x) + t.cast(b, x.dtype))) / 2.0


def sparse_plus(x):
    """0 below -1, x above 1, (x + 1)^2 / 4 between."""
    t = tf()
    x = tensor(x)
    return t.where(x <= -1.0, t.zeros_like(x), t.where(x >= 1.0, x, t.square(x + 1.0) / 4.0))


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, (x + 1) / 2 between."""
    t = tf()
    x = tensor(x)
    return t.where(x <= -1.0, t.zeros_like(x), t.where(x >= 1.0, t.ones_like(x), (x + 1.0) / 2.0))


def sparsemax(x, axis=-1):
    """The Euclidean projection of x onto the probability simplex along axis (Martins & Astudillo 2016)."""
    t = tf()
    x = tensor(x)
    sorted_x = t.sort(x, axis=axis, direction="DESCENDING")
    cumsum = t.math.cumsum(sorted_x, axis=axis)
    n = x.shape[axis]
    shape = [1] * x.shape.rank
    shape[axis] = n
    k = t.reshape(t.range(1, n + 1, dtype=x.dtype), shape)
    support = t.cast(1.0 + k * sorted_x > cumsum, x.dtype)
    k_z = t.reduce_sum(support, axis=axis, keepdims=True)
    tau = (t.reduce_sum(support * sorted_x, axis=axis, keepdims=True) - 1.0) / k_z
    return t.maximum(x - tau, 0.0)


def polar(abs_, angle):
    """The complex number abs_ * exp(i * angle)."""
    t = tf()
    abs_, angle = float_result(abs_, angle)
    ctype = "complex128" if abs_.dtype.name == "float64" else "complex64"
    return t.cast(abs_ * t.cos(angle), ctype) + t.cast(abs_ * t.sin(angle), ctype) * t.constant(1j, dtype=ctype)


def softmax(x, axis=-1):
    t = tf()
    x = tensor(x)
    if axis is None or isinstance(axis, (tuple, list)):
        axes = list(range(x.shape.rank)) if axis is None else list(axis)
        shifted = x - t.stop_gradient(t.reduce_max(x, axis=axes, keepdims=True))
        e = t.exp(shifted)
        return e / t.reduce_sum(e, axis=axes, keepdims=True)
    return t.nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return tf().nn.log_softmax(tensor(x), axis=axis)


def normalize(x, axis=-1, order=2, epsilon=None):
    t = tf()
    x = _floats(x)
    if order != 2:
        norm = t.norm(x, ord=order, axis=axis, keepdims=True)
        return x / t.maximum(norm, 1e-12 if epsilon is None else epsilon)
    squares = t.reduce_sum(t.square(x), axis=axis, keepdims=True)
    return x * t.math.rsqrt(t.maximum(squares, (1e-12 if epsilon is None else epsilon) ** 2))


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    return tf().one_hot(x, num_classes, axis=axis, dtype=dtype or FLOATX)


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise (no mean over the last axis, unlike keras.losses')."""
    from ..backend_math import binary_crossentropy as loss
    return loss(target, output, from_logits=from_logits)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from ..losses import categorical_crossentropy as loss
    return loss(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from ..losses import sparse_categorical_crossentropy as loss
    return loss(target, output, from_logits=from_logits, axis=axis)


from ..losses.ctc import ctc_loss  # noqa: E402 - keras.ops.ctc_loss lives in keras/losses/ctc.py
