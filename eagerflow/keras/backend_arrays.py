"""`tf.keras.backend`'s shape and arrangement functions (reshape, concatenate, padding, dot products),
`switch`, the random draws and the functional control helpers (map_fn, foldl, foldr)."""
from __future__ import annotations

from .backend_settings import _tf, image_data_format
from .backend_values import int_shape, ndim, standardize_dtype


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
