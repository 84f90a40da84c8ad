"""keras.ops.linalg (Keras' keras/src/ops/linalg.py) on eagerflow's tf.linalg ops. NumPy's conventions: svd
returns (u, s, vh), norm takes NumPy's `ord`. Integers are refused by the decompositions and solvers (TensorFlow's
kernels, as Keras on TF), while norm takes them to floatx."""
from __future__ import annotations

from ._common import float_result, public, tensor, tf

__all__ = ["cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "jvp", "lstsq", "lu_factor", "matrix_rank",
           "norm", "pinv", "qr", "solve", "solve_triangular", "svd"]
__dir__ = public(__all__)


def _floats(*xs):
    return float_result(*xs)


def _adjoint(x):
    return tf().linalg.adjoint(x)


def cholesky(x, upper=False):
    x = tensor(x)
    lower = tf().linalg.cholesky(x)
    return _adjoint(lower) if upper else lower


def cholesky_inverse(x, upper=False):
    """The inverse of A from its Cholesky factor x (A = L L^H, x = L, or L^H when upper)."""
    t = tf()
    x = tensor(x)
    lower = _adjoint(x) if upper else x
    eye = t.eye(x.shape[-1], batch_shape=x.shape.as_list()[:-2], dtype=x.dtype)
    return t.linalg.cholesky_solve(lower, eye)


def det(x):
    x = tensor(x)
    return tf().linalg.det(x)


def eig(x):
    x = tensor(x)
    return tuple(tf().linalg.eig(x))


def eigh(x):
    x = tensor(x)
    return tuple(tf().linalg.eigh(x))


def inv(x):
    x = tensor(x)
    return tf().linalg.inv(x)


def lstsq(a, b, rcond=None):
    """The least-squares solution of a @ x = b, through the pseudo-inverse (NumPy's rcond cut-off)."""
    t = tf()
    a, b = tensor(a), tensor(b)
    vector = b.shape.rank == 1
    if vector:
        b = t.expand_dims(b, -1)
    out = t.matmul(pinv(a, rcond), b)
    return t.squeeze(out, -1) if vector else out


def lu_factor(x):
    """(lu, pivots): the packed LU factors and, as Keras on TF returns, the inverse of tf.linalg.lu's row
    permutation (pivots[i] is the row of lu where row i of x went)."""
    t = tf()
    x = tensor(x)
    lu, perm = t.linalg.lu(x)
    return lu, t.cast(t.argsort(perm, axis=-1), perm.dtype)


def matrix_rank(x, tol=None):
    x = tensor(x)
    return tf().linalg.matrix_rank(x, tol=tol)


def pinv(x, rcond=None):
    x = tensor(x)
    return tf().linalg.pinv(x, rcond=1e-15 if rcond is None else rcond)


def qr(x, mode="reduced"):
    if mode not in ("reduced", "complete"):
        raise ValueError(f"`mode` argument value not supported. Expected one of {{'reduced', 'complete'}}. "
                         f"Received: mode={mode}")
    x = tensor(x)
    return tuple(tf().linalg.qr(x, full_matrices=mode == "complete"))


def solve(a, b):
    t = tf()
    a, b = tensor(a), tensor(b)
    if b.shape.rank == a.shape.rank - 1:
        return t.squeeze(t.linalg.solve(a, t.expand_dims(b, -1)), -1)
    return t.linalg.solve(a, b)


def solve_triangular(a, b, lower=False):
    t = tf()
    a, b = tensor(a), tensor(b)
    if b.shape.rank == a.shape.rank - 1:
        return t.squeeze(t.linalg.triangular_solve(a, t.expand_dims(b, -1), lower=lower), -1)
    return t.linalg.triangular_solve(a, b, lower=lower)


def svd(x, full_matrices=True, compute_uv=True):
    t = tf()
    x = tensor(x)
    if not compute_uv:
        return t.linalg.svd(x, full_matrices=full_matrices, compute_uv=False)
    s, u, v = t.linalg.svd(x, full_matrices=full_matrices)
    return u, s, _adjoint(v)


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002
    """NumPy's vector norms (one axis) and matrix norms (two axes); axis=None takes all axes."""
    t = tf()
    (x,) = _floats(x)
    rank = x.shape.rank
    axes = list(range(rank)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    axes = [a % rank for a in axes]
    a = t.abs(x)
    if len(axes) == 1 or (axis is None and ord is None):
        return _vector_norm(a, ord, axes, keepdims)
    if len(axes) != 2:
        raise ValueError(f"Invalid axis values for `norm`. Received: axis={axis}")
    r, c = axes
    if ord in (None, "fro"):
        return t.sqrt(t.reduce_sum(a * a, axis=axes, keepdims=keepdims))
    if ord in (1, -1, float("inf"), float("-inf")):
        inner, outer = (r, c) if ord in (1, -1) else (c, r)
        sums = t.reduce_sum(a, axis=inner, keepdims=True)
        pick = t.reduce_max if ord in (1, float("inf")) else t.reduce_min
        out = pick(sums, axis=outer, keepdims=True)
        return out if keepdims else t.squeeze(out, axes)
    if ord in ("nuc", 2, -2):
        perm = [d for d in range(rank) if d not in axes] + axes
        s = t.linalg.svd(t.transpose(x, perm), compute_uv=False)
        out = t.reduce_sum(s, -1) if ord == "nuc" else (t.reduce_max(s, -1) if ord == 2 else t.reduce_min(s, -1))
        if keepdims:
            for d in sorted(axes):
                out = t.expand_dims(out, d)
        return out
    raise ValueError(f"Invalid `ord` argument for matrix norm. Received: ord={ord}")


def _vector_norm(a, ord, axes, keepdims):  # noqa: A002
    t = tf()
    if ord is None or ord == 2:
        return t.sqrt(t.reduce_sum(a * a, axis=axes, keepdims=keepdims))
    if ord == float("inf"):
        return t.reduce_max(a, axis=axes, keepdims=keepdims)
    if ord == float("-inf"):
        return t.reduce_min(a, axis=axes, keepdims=keepdims)
    if ord == 0:
        return t.reduce_sum(t.cast(a != 0, a.dtype), axis=axes, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid `ord` argument for vector norm. Received: ord={ord}")
    return t.reduce_sum(a ** ord, axis=axes, keepdims=keepdims) ** (1.0 / ord)


def jvp(fun, primals, tangents, has_aux=False):
    """Forward-mode product J(primals) @ tangents by the double-VJP trick: u -> u^T J is linear in u, and its
    gradient along tangents is J @ tangents. Returns (outputs, output tangents[, aux])."""
    t = tf()
    primals, tangents = list(primals), list(tangents)
    with t.GradientTape() as outer:
        with t.GradientTape(persistent=True) as inner:
            for p in primals:
                inner.watch(p)
            result = fun(*primals)
            outputs, aux = result if has_aux else (result, None)
        flat_out = t.nest.flatten(outputs)
        dummies = [t.zeros_like(o) for o in flat_out]
        for u in dummies:
            outer.watch(u)
        vjps = inner.gradient(flat_out, primals, output_gradients=dummies)
        dot = t.add_n([t.reduce_sum(g * tan) for g, tan in zip(vjps, tangents) if g is not None])
    tangent_out = outer.gradient(dot, dummies)
    tangent_out = t.nest.pack_sequence_as(outputs, tangent_out)
    return (outputs, tangent_out, aux) if has_aux else (outputs, tangent_out)
