"""keras.ops.numpy's products (matmul, dot, inner, outer, kron, cross...), triangles and diagonals, differences
and integrals, correlation, NumPy's window functions and `vectorize`."""
from __future__ import annotations

import numpy as np

from ._common import FLOATX, float_result, promoted, tensor, tf


def matmul(x1, x2):
    return tf().matmul(*promoted(x1, x2))


def dot(x1, x2):
    t = tf()
    a, b = promoted(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    if b.shape.rank == 1:
        return t.tensordot(a, b, axes=[[a.shape.rank - 1], [0]])
    return t.tensordot(a, b, axes=[[a.shape.rank - 1], [b.shape.rank - 2]])


def tensordot(x1, x2, axes=2):
    return tf().tensordot(*promoted(x1, x2), axes=axes)


def einsum(subscripts, *operands, **kwargs):
    return tf().einsum(subscripts, *promoted(*operands))


def inner(x1, x2):
    """The sum product over the last axes of both."""
    t = tf()
    a, b = promoted(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    return t.tensordot(a, b, axes=[[a.shape.rank - 1], [b.shape.rank - 1]])


def outer(x1, x2):
    t = tf()
    a, b = promoted(x1, x2)
    return t.reshape(a, [-1, 1]) * t.reshape(b, [1, -1])


def vdot(x1, x2):
    """The dot product of the flattened inputs, the first conjugated."""
    t = tf()
    a, b = promoted(x1, x2)
    if a.dtype.is_complex:
        a = t.math.conj(a)
    return t.reduce_sum(t.reshape(a, [-1]) * t.reshape(b, [-1]))


def kron(x1, x2):
    t = tf()
    a, b = promoted(x1, x2)
    rank = max(a.shape.rank, b.shape.rank)
    a = t.reshape(a, [1] * (rank - a.shape.rank) + a.shape.as_list())
    b = t.reshape(b, [1] * (rank - b.shape.rank) + b.shape.as_list())
    interleaved_a = t.reshape(a, [d for n in a.shape.as_list() for d in (n, 1)])
    interleaved_b = t.reshape(b, [d for n in b.shape.as_list() for d in (1, n)])
    return t.reshape(interleaved_a * interleaved_b, [p * q for p, q in zip(a.shape.as_list(), b.shape.as_list())])


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The 3-vector cross product along the given axes (2-vectors taken as having z = 0)."""
    t = tf()
    from ._np_arrays import moveaxis
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promoted(x1, x2)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] == 2 and b.shape[-1] == 2:  # two 2-vectors: NumPy returns the z component alone
        a0, a1 = t.unstack(a, axis=-1)
        b0, b1 = t.unstack(b, axis=-1)
        return a0 * b1 - a1 * b0
    if a.shape[-1] == 2:
        a = t.pad(a, [[0, 0]] * (a.shape.rank - 1) + [[0, 1]])
    if b.shape[-1] == 2:
        b = t.pad(b, [[0, 0]] * (b.shape.rank - 1) + [[0, 1]])
    a0, a1, a2 = t.unstack(a, axis=-1)
    b0, b1, b2 = t.unstack(b, axis=-1)
    out = t.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(out, -1, axisc)


def _band(x, k, lower):
    t = tf()
    x = tensor(x)
    rows, cols = x.shape[-2], x.shape[-1]
    r = t.reshape(t.range(rows), [-1, 1])
    c = t.reshape(t.range(cols), [1, -1])
    keep = (c - r <= k) if lower else (c - r >= k)
    return t.where(keep, x, t.zeros_like(x))


def tril(x, k=0):
    return _band(x, k, lower=True)


def triu(x, k=0):
    return _band(x, k, lower=False)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The offset diagonal of the (axis1, axis2) planes, as the last axis."""
    t = tf()
    from ._np_arrays import moveaxis
    x = moveaxis(tensor(x), [axis1, axis2], [-2, -1])
    rows, cols = x.shape[-2], x.shape[-1]
    n = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    r = t.range(n) - min(offset, 0)
    c = t.range(n) + max(offset, 0)
    flat = t.reshape(x, t.concat([t.shape(x)[:-2], [rows * cols]], 0))
    return t.gather(flat, r * cols + c, axis=-1)


def diag(x, k=0):
    """A 1-D x becomes a matrix with x on diagonal k; a 2-D x gives its diagonal k."""
    t = tf()
    x = tensor(x)
    if x.shape.rank == 1:
        n = x.shape[0] + abs(k)
        index = t.range(x.shape[0])
        rows, cols = index + max(-k, 0), index + max(k, 0)
        return t.scatter_nd(t.stack([rows, cols], axis=1), x, [n, n])
    if x.shape.rank == 2:
        return diagonal(x, k)
    raise ValueError(f"`x` must be 1-D or 2-D. Received: x.shape={tuple(x.shape.as_list())}")


def diagflat(x, k=0):
    return diag(tf().reshape(tensor(x), [-1]), k)


def trace(x, offset=0, axis1=0, axis2=1):
    t = tf()
    x = tensor(x)
    if x.dtype == t.bool:
        x = t.cast(x, "int32")
    return t.reduce_sum(diagonal(x, offset, axis1, axis2), axis=-1)


def vander(x, N=None, increasing=False):  # noqa: N803
    t = tf()
    x = tensor(x)
    n = x.shape[0] if N is None else N
    powers = t.range(n, dtype=x.dtype)
    if not increasing:
        powers = t.reverse(powers, [0])
    return t.math.pow(t.expand_dims(x, 1), t.expand_dims(powers, 0))


def slogdet(x):
    (x,) = float_result(x)
    return tuple(tf().linalg.slogdet(x))


def diff(a, n=1, axis=-1):
    t = tf()
    x = tensor(a)
    for _ in range(n):
        length = x.shape[axis]
        begin = [0] * x.shape.rank
        hi = list(begin)
        hi[axis] = 1
        extent = [-1] * x.shape.rank
        extent[axis] = length - 1
        later, earlier = t.slice(x, hi, extent), t.slice(x, begin, extent)
        x = t.not_equal(later, earlier) if x.dtype == t.bool else later - earlier
    return x


def trapezoid(y, x=None, dx=1.0, axis=-1):
    t = tf()
    (y,) = float_result(y)
    widths = dx if x is None else diff(float_result(x)[0], axis=axis)
    from ._np_arrays import moveaxis
    ym = moveaxis(y, axis, -1)
    mids = (ym[..., 1:] + ym[..., :-1]) / 2.0
    if x is not None and widths.shape.rank > 1:
        widths = moveaxis(widths, axis, -1)
    return t.reduce_sum(mids * t.cast(widths, y.dtype), axis=-1)


def correlate(x1, x2, mode="valid"):
    """NumPy's 1-D cross-correlation: out[k] = sum_n x1[n + k] * conj(x2[n]) over the modes' shifts."""
    t = tf()
    a, b = float_result(x1, x2)
    la, lb = a.shape[0], b.shape[0]
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"Invalid mode: '{mode}'. Mode must be one of: 'full', 'same', 'valid'.")
    full = t.pad(a, [[lb - 1, lb - 1]])
    shifts = la + lb - 1
    rows = t.stack([full[k:k + lb] for k in range(shifts)])
    out = t.reduce_sum(rows * b, axis=-1)
    if mode == "full":
        return out
    if mode == "valid":
        start = min(la, lb) - 1
        return out[start:start + max(la, lb) - min(la, lb) + 1]
    start = (min(la, lb) - 1) // 2  # Keras on TF centres 'same' on the shorter input
    return out[start:start + max(la, lb)]


def corrcoef(x):
    """Pearson correlation coefficients between the rows of x."""
    t = tf()
    (x,) = float_result(x)
    if x.shape.rank == 1:
        x = t.expand_dims(x, 0)
    centred = x - t.reduce_mean(x, axis=1, keepdims=True)
    cov = t.matmul(centred, centred, transpose_b=True)
    d = t.sqrt(t.linalg.diag_part(cov))
    return t.clip_by_value(cov / t.expand_dims(d, 1) / t.expand_dims(d, 0), -1.0, 1.0)


def _window(fn):
    def make(x, *args):
        n = int(tensor(x).numpy()) if hasattr(x, "numpy") else int(x)
        return tf().constant(np.asarray(fn(n, *args), dtype=FLOATX))
    return make


bartlett, blackman, hamming, hanning = (_window(f) for f in (np.bartlett, np.blackman, np.hamming, np.hanning))
kaiser = _window(np.kaiser)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """pyfunc mapped over the leading axis of its (broadcast) arguments with tf.vectorized_map."""
    if excluded or signature:
        raise NotImplementedError("keras.ops.vectorize(excluded=..., signature=...) is not supported yet.")

    def wrapped(*args):
        t = tf()
        args = [tensor(a) for a in args]
        if all(a.shape.rank == 0 for a in args):
            return pyfunc(*args)
        shape = t.shape(args[0])
        for a in args[1:]:
            shape = t.broadcast_dynamic_shape(shape, t.shape(a))
        flat = [t.reshape(t.broadcast_to(a, shape), [-1]) for a in args]
        out = t.vectorized_map(lambda xs: pyfunc(*xs), flat)
        return t.reshape(out, shape)
    return wrapped

