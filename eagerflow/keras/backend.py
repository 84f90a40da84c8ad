"""`tf.keras.backend` (`K`): the legacy Keras backend functions TensorFlow 2.21 still ships, as thin
wrappers over eagerflow's ops, with Keras' argument names and defaults (`K.mean(x, axis=None,
keepdims=False)`), the float type and epsilon settings, and variable helpers (`K.get_value`).

Old TF 2.x programs lean on these (`from tensorflow.keras import backend as K`); each one here
does what Keras 3.15's does, checked against TensorFlow 2.21 (tests/keras/test_backend.py). The
convolution, pooling, RNN and CTC helpers are not provided.
"""
from __future__ import annotations

import numpy as np

from .naming import clear_session as _clear_session

_SETTINGS = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def _tf():
    import eagerflow as tf
    return tf


# --- settings -----------------------------------------------------------------------------------

def backend():
    return "tensorflow"


def floatx():
    """The default float type of Keras' weights and casts ('float32')."""
    return _SETTINGS["floatx"]


def set_floatx(value):
    if value not in ("bfloat16", "float16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'bfloat16', 'float16', 'float32', "
                         f"'float64'}}")
    _SETTINGS["floatx"] = str(value)


def epsilon():
    """The fuzz factor Keras adds to divisions and clips probabilities with (1e-7)."""
    return _SETTINGS["epsilon"]


def set_epsilon(value):
    _SETTINGS["epsilon"] = float(value)


def image_data_format():
    return _SETTINGS["image_data_format"]


def set_image_data_format(data_format):
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    _SETTINGS["image_data_format"] = str(data_format)


def clear_session(free_memory=True):
    _clear_session()


_UIDS: dict = {}


def get_uid(prefix=""):
    """1, 2, ... per prefix: Keras' counter for unique names."""
    _UIDS[prefix] = _UIDS.get(prefix, 0) + 1
    return _UIDS[prefix]


# --- dtypes, shapes, values ------------------------------------------------------------------------

def standardize_dtype(dtype):
    """A dtype's Keras name ('float32'); None is floatx()."""
    tf = _tf()
    if dtype is None:
        return floatx()
    name = dtype.name if hasattr(dtype, "name") and not isinstance(dtype, str) else dtype
    try:
        name = tf.as_dtype(name if isinstance(name, str) else np.dtype(name).name).name
    except (TypeError, ValueError, KeyError):
        name = None
    if name is None or (isinstance(dtype, str) and dtype != name):  # Keras' names only: not 'float', 'double'
        raise ValueError(f"Invalid dtype: {dtype}")
    return name


def dtype(x):
    return standardize_dtype(x.dtype)


def is_float_dtype(dtype):
    return standardize_dtype(dtype).startswith(("float", "bfloat"))


def is_int_dtype(dtype):
    return standardize_dtype(dtype).startswith(("int", "uint"))


def result_type(*dtypes):
    """Keras' promotion: integers with floats give the float (int32 + float32 -> float32)."""
    names = [standardize_dtype(d) for d in dtypes]
    if not names:
        return floatx()
    floats = [n for n in names if n.startswith(("float", "bfloat"))]
    return np.result_type(*[np.dtype(n) for n in (floats or names)]).name


def cast_to_floatx(x):
    if hasattr(x, "dtype") and not isinstance(x, np.ndarray):
        return cast(x, floatx())
    return np.asarray(x, dtype=floatx())


def is_keras_tensor(x):
    from .utils import is_keras_tensor as check
    return check(x)


def is_sparse(tensor):
    return False


def to_dense(tensor):
    return tensor


def int_shape(x):
    """The static shape as a tuple (None for unknown dimensions)."""
    shape = x.shape
    if hasattr(shape, "as_list"):
        return None if shape.rank is None else tuple(shape.as_list())
    return tuple(shape)


def ndim(x):
    return len(int_shape(x))


def shape(x):
    return _tf().shape(x)


def count_params(x):
    return int(np.prod(int_shape(x)))


def eval(x):  # noqa: A001 - Keras' name
    return get_value(x)


def get_value(x):
    """The value as NumPy (a tensor's or a variable's)."""
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def batch_get_value(tensors):
    return [get_value(t) for t in tensors]


def set_value(x, value):
    x.assign(np.asarray(value, dtype=x.dtype.name))


def batch_set_value(tuples):
    for x, value in tuples:
        set_value(x, value)


def variable(value, dtype=None, name=None, constraint=None):
    tf = _tf()
    return tf.Variable(np.asarray(value, dtype=standardize_dtype(dtype)), name=name, constraint=constraint)


def constant(value, dtype=None, shape=None, name=None):
    tf = _tf()
    return tf.constant(value, dtype=standardize_dtype(dtype), shape=shape, name=name)


def cast(x, dtype):
    return _tf().cast(x, standardize_dtype(dtype))


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def moving_average_update(x, value, momentum):
    """x <- x * momentum + value * (1 - momentum)."""
    return x.assign(x * momentum + _tf().cast(value, x.dtype) * (1.0 - momentum))


def zeros(shape, dtype=None, name=None):
    return _tf().zeros(shape, standardize_dtype(dtype), name=name)


def ones(shape, dtype=None, name=None):
    return _tf().ones(shape, standardize_dtype(dtype), name=name)


def eye(size, dtype=None, name=None):
    return _tf().eye(size, dtype=standardize_dtype(dtype), name=name)


def zeros_like(x, dtype=None, name=None):
    return _tf().zeros_like(x, dtype=None if dtype is None else standardize_dtype(dtype), name=name)


def ones_like(x, dtype=None, name=None):
    return _tf().ones_like(x, dtype=None if dtype is None else standardize_dtype(dtype), name=name)


def arange(start, stop=None, step=1, dtype="int32"):
    tf = _tf()
    if stop is None:
        start, stop = 0, start
    return tf.range(start, stop, step, dtype=standardize_dtype(dtype))


# --- element-wise and reductions ---------------------------------------------------------------------

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


# --- shapes and arrangement ---------------------------------------------------------------------------

def reshape(x, shape):
    return _tf().reshape(x, shape)


def transpose(x):
    return _tf().transpose(x)


def permute_dimensions(x, pattern):
    return _tf().transpose(x, perm=list(pattern))


def expand_dims(x, axis=-1):
    return _tf().expand_dims(x, axis)


def squeeze(x, axis):
    return _tf().squeeze(x, [axis])


def flatten(x):
    return _tf().reshape(x, [-1])


def batch_flatten(x):
    tf = _tf()
    return tf.reshape(x, tf.stack([tf.shape(x)[0], -1]))


def concatenate(tensors, axis=-1):
    return _tf().concat(list(tensors), axis)


def stack(x, axis=0):
    return _tf().stack(x, axis=axis)


def tile(x, n):
    tf = _tf()
    return tf.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    """(batch, dim) -> (batch, n, dim)."""
    tf = _tf()
    if int_shape(x) is not None and len(int_shape(x)) != 2:
        raise ValueError(f"Expected 2D input tensor. Received: x.shape={int_shape(x)}")
    return tf.tile(tf.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x, rep, axis):
    return _tf().repeat(x, rep, axis=axis)


def reverse(x, axes):
    return _tf().reverse(x, [axes] if isinstance(axes, int) else list(axes))


def gather(reference, indices):
    return _tf().gather(reference, indices)


def one_hot(indices, num_classes):
    return _tf().one_hot(indices, num_classes, axis=-1)


def temporal_padding(x, padding=(1, 1)):
    return _tf().pad(x, [[0, 0], list(padding), [0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    data_format = data_format or image_data_format()
    pads = [list(p) for p in padding]
    if data_format == "channels_first":
        return _tf().pad(x, [[0, 0], [0, 0]] + pads)
    return _tf().pad(x, [[0, 0]] + pads + [[0, 0]])


def dot(x, y):
    """Keras' dot: matmul, and for rank > 2 the last axis of x with the second-to-last of y."""
    tf = _tf()
    xr, yr = ndim(x), ndim(y)
    if xr <= 2 and yr <= 2:
        return tf.matmul(x, y)
    return tf.tensordot(x, y, axes=[[xr - 1], [yr - 2]])


def batch_dot(x, y, axes=None):
    """Per-sample dot products of two batches (axes default: x's last with y's second-to-last or last)."""
    tf = _tf()
    xr, yr = ndim(x), ndim(y)
    if axes is None:
        axes = [xr - 1, yr - 2 if yr > 2 else yr - 1]
    if isinstance(axes, int):
        axes = [axes, axes]
    ax, ay = [a % r for a, r in zip(axes, (xr, yr))]
    if ax == 0 or ay == 0:
        raise ValueError(f"Cannot perform batch_dot over axis 0. Received: axes={axes}")
    letters = "bcdefghijklmnopqrstuvwxyz"
    xs = ["a"] + list(letters[:xr - 1])
    ys = ["a"] + list(letters[xr - 1:xr - 1 + yr - 1])
    ys[ay] = xs[ax]
    out = [c for i, c in enumerate(xs) if i != ax] + [c for i, c in enumerate(ys) if i not in (0, ay)]
    result = tf.einsum(f"{''.join(xs)},{''.join(ys)}->{''.join(out)}", x, y)
    return tf.expand_dims(result, 1) if len(out) == 1 else result


def switch(condition, then_expression, else_expression):
    tf = _tf()
    if callable(then_expression):
        return tf.cond(condition, then_expression, else_expression)
    return tf.where(condition, then_expression, else_expression)


def in_top_k(predictions, targets, k):
    return _tf().math.in_top_k(targets, predictions, k)


def stop_gradient(variables):
    tf = _tf()
    if isinstance(variables, (list, tuple)):
        return [tf.stop_gradient(v) for v in variables]
    return tf.stop_gradient(variables)


def bias_add(x, bias, data_format=None):
    tf = _tf()
    if (data_format or image_data_format()) == "channels_first" and ndim(x) > 2:
        return x + tf.reshape(bias, [1, -1] + [1] * (ndim(x) - 2))
    return x + bias


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=0.001):
    return _tf().nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


def dropout(x, level, noise_shape=None, seed=None):
    return _tf().nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf().random.normal(shape, mean, stddev, dtype=standardize_dtype(dtype), seed=seed)


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return _tf().random.uniform(shape, minval, maxval, dtype=standardize_dtype(dtype), seed=seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return _tf().random.truncated_normal(shape, mean, stddev, dtype=standardize_dtype(dtype), seed=seed)


def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    tf = _tf()
    return tf.cast(tf.random.uniform(shape, seed=seed) < p, standardize_dtype(dtype))


def map_fn(fn, elems, name=None, dtype=None):
    return _tf().map_fn(fn, elems, name=name, fn_output_signature=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return _tf().foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    return _tf().foldr(fn, elems, initializer=initializer, name=name)


def gradients(loss, variables):
    return _tf().gradients(loss, variables)


def name_scope(name):
    return _tf().name_scope(name)
