"""`tf.keras.backend`'s element-wise math, reductions (Keras' `(x, axis, keepdims)`), activations and
the element-wise losses."""
from __future__ import annotations

import numpy as np

from .backend_settings import _tf, epsilon, floatx


def _unary(name):
    def fn(x):
        return getattr(_tf().math, name)(x)
    fn.__name__ = name
    fn.__doc__ = f"`tf.math.{name}` of `x`."
    return fn


abs = _unary("abs")  # noqa: A001
exp, log, sqrt, square, sin, cos, tanh, sign, round = (  # noqa: A001
    _unary(n) for n in ("exp", "log", "sqrt", "square", "sin", "cos", "tanh", "sign", "round"))
sigmoid, softplus, softsign = _unary("sigmoid"), _unary("softplus"), _unary("softsign")


def _binary(name):
    def fn(x, y):
        return getattr(_tf().math, name)(x, y)
    fn.__name__ = name
    return fn


equal, not_equal, greater, greater_equal, less, less_equal, maximum, minimum = (
    _binary(n) for n in ("equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "maximum",
                         "minimum"))


def pow(x, a):  # noqa: A001
    return _tf().pow(x, a)


def _reduction(name, inputs="any"):
    """A reduction with Keras' (x, axis, keepdims); `inputs`: "bool" casts x to bool (all/any),
    "float" casts a bool x to floatx (mean/std/var)."""
    def fn(x, axis=None, keepdims=False):
        tf = _tf()
        x = tf.convert_to_tensor(x)
        if inputs == "bool":
            x = tf.cast(x, tf.bool)
        elif inputs == "float" and x.dtype == tf.bool:
            x = tf.cast(x, floatx())
        return getattr(tf.math, name)(x, axis=axis, keepdims=keepdims)
    fn.__name__ = name
    return fn


sum = _reduction("reduce_sum")  # noqa: A001
prod = _reduction("reduce_prod")
mean, std, var = (_reduction(n, "float") for n in ("reduce_mean", "reduce_std", "reduce_variance"))
max, min = _reduction("reduce_max"), _reduction("reduce_min")  # noqa: A001
all, any = _reduction("reduce_all", "bool"), _reduction("reduce_any", "bool")  # noqa: A001


def argmax(x, axis=-1):
    return _tf().argmax(x, axis)


def argmin(x, axis=-1):
    return _tf().argmin(x, axis)


def cumsum(x, axis=0):
    return _tf().cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return _tf().math.cumprod(x, axis=axis)


def clip(x, min_value, max_value):
    """`x` clipped to [min_value, max_value]; a max below the min clips to the min, as Keras does."""
    if max_value is not None and min_value is not None and max_value < min_value:
        max_value = min_value
    if max_value is None:
        max_value = np.inf
    if min_value is None:
        min_value = -np.inf
    return _tf().clip_by_value(x, min_value, max_value)


def l2_normalize(x, axis=None):
    return _tf().math.l2_normalize(x, axis=axis)


# --- activations ------------------------------------------------------------------------------------

def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """Keras' generalised ReLU: `alpha * (x - threshold)` below `threshold`, capped at `max_value`."""
    tf = _tf()
    x = tf.convert_to_tensor(x)
    below = x < threshold
    out = tf.where(below, tf.zeros_like(x) if alpha == 0 else alpha * (x - threshold), x)
    if max_value is not None:
        out = tf.minimum(out, tf.cast(max_value, out.dtype))
    return out


def elu(x, alpha=1.0):
    tf = _tf()
    return tf.where(x > 0, x, alpha * (tf.exp(x) - 1.0))


def hard_sigmoid(x):
    """The backend's hard sigmoid: clip(0.2 x + 0.5, 0, 1) (keras.activations' is relu6(x + 3) / 6)."""
    tf = _tf()
    return tf.clip_by_value(0.2 * tf.convert_to_tensor(x) + 0.5, 0.0, 1.0)


def softmax(x, axis=-1):
    return _tf().nn.softmax(x, axis=axis)


# --- losses -------------------------------------------------------------------------------------------

def binary_crossentropy(target, output, from_logits=False):
    """Element-wise binary cross-entropy (no mean over the last axis, unlike keras.losses')."""
    tf = _tf()
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -(target * tf.math.log(output) + (1.0 - target) * tf.math.log(1.0 - output))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .losses import categorical_crossentropy as loss
    return loss(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1, ignore_class=None):
    from .losses import sparse_categorical_crossentropy as loss
    if ignore_class is not None:
        raise NotImplementedError("K.sparse_categorical_crossentropy(ignore_class=...) is not supported yet.")
    return loss(target, output, from_logits=from_logits, axis=axis)
