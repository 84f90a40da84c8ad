"""More of `tf.linalg`: `cross` (an op of its own), and `pinv`, `matrix_rank`, `normalize`,
`tensor_diag`, `tensor_diag_part` composed from ops (SVD, norms, diagonals)."""
from __future__ import annotations

import numpy as np

from ...core.errors import FailedPreconditionError
from .. import shape_rules as R
from ..operands import as_tensor, binary_operands
from ..validation import check_rule
from ..registry import Spec, bind, defop


def _cross_kernel(a, b):
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        raise FailedPreconditionError(None, None, "Cross-products are only defined for 3-element vectors.")
    return np.cross(a, b)


def _cross_infer(inputs, attrs):
    a, b = inputs
    R.check_same_dtype("Cross", inputs)
    for t in (a, b):
        if t.shape.rank is not None and t.shape[-1] not in (None, 3):
            raise FailedPreconditionError(None, None, "Cross-products are only defined for 3-element vectors.")
    return [Spec(R.broadcast_shape(a.shape, b.shape), a.dtype)]


Cross = defop("Cross", inputs=("a", "b"), kernel=_cross_kernel, infer=_cross_infer,
              grad=lambda op, g: (_math.sum_to(cross(op.inputs[1], g), op.inputs[0]),
                                  _math.sum_to(cross(g, op.inputs[0]), op.inputs[1])))


def cross(a, b, name=None):
    """`tf.linalg.cross`: the cross product of 3-element vectors (batched over leading axes)."""
    x, y = binary_operands(a, b, "Cross")
    check_rule(Cross, (x, y), {})
    return bind(Cross, (x, y))


def pinv(a, rcond=None, validate_args=False, name=None):
    """`tf.linalg.pinv`: the Moore-Penrose pseudo-inverse through the SVD; singular values below
    rcond * max(s) count as zero (rcond defaults to 10 * max(m, n) * eps, as in TensorFlow)."""
    x = as_tensor(a)
    m, n = x.shape[-2], x.shape[-1]
    if rcond is None:
        rcond = 10.0 * max(m, n) * np.finfo(x.dtype.np_dtype).eps
    s, u, v = _decompositions.svd(x)
    cutoff = as_tensor(rcond, x.dtype) * _reduce.reduce_max(s, axis=-1, keepdims=True)
    keep = _math.greater(s, cutoff)
    s_inv = _array.where(keep, _array.ones_like(s) / _array.where(keep, s, _array.ones_like(s)), _array.zeros_like(s))
    return _matmul.matmul(v * _array.expand_dims(s_inv, -2), u, transpose_b=True)


def matrix_rank(a, tol=None, validate_args=False, name=None):
    """`tf.linalg.matrix_rank`: the number of singular values above `tol` (default
    max(s) * max(m, n) * eps), as int32."""
    x = as_tensor(a)
    s = _decompositions.svd(x, compute_uv=False)
    if tol is None:
        eps = np.finfo(x.dtype.np_dtype).eps
        tol = _reduce.reduce_max(s, axis=-1, keepdims=True) * as_tensor(max(x.shape[-2], x.shape[-1]) * eps, x.dtype)
    else:
        tol = as_tensor(tol, x.dtype)
    from ...core import dtypes as _dt
    return _reduce.reduce_sum(_math.cast(_math.greater(s, tol), _dt.int32), axis=-1)


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.linalg.normalize`: (tensor / its norm, the norm kept with size-1 axes)."""
    x = as_tensor(tensor)
    norm = _norms.norm(x, ord=ord, axis=axis, keepdims=True)
    return x / norm, norm


def tensor_diag(diagonal, name=None):
    """`tf.linalg.tensor_diag`: a rank-2k tensor with `diagonal` (rank k) on its diagonal."""
    d = as_tensor(diagonal)
    shape = d.shape.as_list()
    if None in shape:
        raise NotImplementedError("tf.linalg.tensor_diag needs a fully known shape")
    size = int(np.prod(shape))
    flat = _parts.diag(_array.reshape(d, [size]))
    return _array.reshape(flat, shape + shape)


def tensor_diag_part(input, name=None):  # noqa: A002
    """`tf.linalg.tensor_diag_part`: the diagonal of a rank-2k tensor of shape s + s."""
    x = as_tensor(input)
    shape = x.shape.as_list()
    k = len(shape) // 2
    if None in shape or len(shape) % 2 or shape[:k] != shape[k:]:
        raise ValueError(f"tensor_diag_part needs a fully known shape of the form s + s, got {shape}")
    size = int(np.prod(shape[:k]))
    return _array.reshape(_parts.diag_part(_array.reshape(x, [size, size])), shape[:k])


from ..array import basic as _array  # noqa: E402
from . import decompositions as _decompositions  # noqa: E402
from ..math import elementwise as _math  # noqa: E402
from . import matmul as _matmul  # noqa: E402
from . import matrix_parts as _parts  # noqa: E402
from . import norms as _norms  # noqa: E402
from ..math import reduce as _reduce  # noqa: E402

# --- JAX lowering (jit_compile=True, codegen/xla.py) ---
from ..lazy_jax import jnp  # noqa: E402 - callables that import JAX on first use only

Cross.jax = lambda a, b: jnp.cross(a, b)
