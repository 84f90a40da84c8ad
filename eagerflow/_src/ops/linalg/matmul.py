"""Matrix products: MatMul (matrices), BatchMatMulV2 (batch dimensions broadcast), tensordot, and the
cross product of 3-element vectors (Cross).

Split from ops/math/elementwise.py (elementwise ops) by job. As everywhere in ops/, each op is one `defop`
block whose gradient is written with ops, so products differentiate to any order.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import FailedPreconditionError, InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import EagerTensor, Tensor
from .. import shape_rules as R
from ..math.elementwise import sum_to
from ..operands import binary_operands
from ..registry import Spec, bind, defop
from ..validation import check_rule
from ..array import basic as _array  # (tensordot reshapes and transposes)
from ..array import joining as _joining
from ..math import reduce as _reduce
from ..array import slicing as _slicing
from ..lazy_jax import jnp  # callables that import JAX on first use only

# Element types (TensorFlow's op definitions, minus bfloat16 and quantized types).
_MATMUL_TYPES = R.FLOAT_COMPLEX + (_dt.int32, _dt.int64, _dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64)
_BATCH_MATMUL_TYPES = _MATMUL_TYPES + (_dt.int16,)


def _mt(x, flag):
    """BatchMatMulV2's adj_x/adj_y: the adjoint, so complex matrices are conjugated too."""
    if not flag:
        return x
    x = np.swapaxes(x, -1, -2)
    return np.conj(x) if x.dtype.kind == "c" else x


def _matmul_kernel(a, b, transpose_a=False, transpose_b=False):
    if a.ndim != 2 or b.ndim != 2:
        raise InvalidArgumentError(None, None, "In[0] and In[1] must be matrices (rank 2)")
    return np.matmul(a.T if transpose_a else a, b.T if transpose_b else b)


def _matmul_infer(inputs, attrs, ta_key="transpose_a", tb_key="transpose_b", batch=False):
    a, b = inputs
    R.check_same_dtype("BatchMatMulV2" if batch else "MatMul", inputs)
    R.check_dtype_in("BatchMatMulV2" if batch else "MatMul", a.dtype, _BATCH_MATMUL_TYPES if batch else _MATMUL_TYPES)
    sa, sb = a.shape, b.shape
    if sa.rank is None or sb.rank is None:
        return [Spec(TensorShape(None), a.dtype)]
    if not batch and (sa.rank != 2 or sb.rank != 2):
        raise InvalidArgumentError(None, None, f"In[0] and In[1] must be matrices, got shapes {R.fmt_dims(sa)} and "
                                               f"{R.fmt_dims(sb)}")
    if sa.rank < 2 or sb.rank < 2:
        raise InvalidArgumentError(None, None, f"In[0] and In[1] must have rank >= 2, got {R.fmt_dims(sa)} "
                                               f"and {R.fmt_dims(sb)}")
    m, ka = (sa[-1], sa[-2]) if attrs.get(ta_key) else (sa[-2], sa[-1])
    kb, n = (sb[-1], sb[-2]) if attrs.get(tb_key) else (sb[-2], sb[-1])
    if ka is not None and kb is not None and ka != kb:
        if R.graph_shape_check(inputs):  # the graph's shape function's words
            raise InvalidArgumentError(None, None, f"Dimensions must be equal, but are {ka} and {kb}")
        raise InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: {R.fmt_dims(sa)}, "
                                               f"In[1]: {R.fmt_dims(sb)}")
    try:
        prefix = R.broadcast_shape(sa[:-2], sb[:-2]) if batch else TensorShape([])
    except InvalidArgumentError:
        raise InvalidArgumentError(None, None, f"In[0] and In[1] must have compatible batch dimensions: "
                                               f"{R.fmt_dims(sa)} vs. {R.fmt_dims(sb)}") from None
    return [Spec(prefix.concatenate([m, n]), a.dtype)]


def _matmul_grad(op, g):
    from ..math.elementwise import conj  # complex: TensorFlow's g * conj(derivative); a no-op for real inputs
    a, b = conj(op.inputs[0]), conj(op.inputs[1])
    ta, tb = op.attrs.get("transpose_a", False), op.attrs.get("transpose_b", False)
    if not ta and not tb:
        return matmul(g, b, transpose_b=True), matmul(a, g, transpose_a=True)
    if not ta and tb:
        return matmul(g, b), matmul(g, a, transpose_a=True)
    if ta and not tb:
        return matmul(b, g, transpose_b=True), matmul(a, g)
    return matmul(b, g, transpose_a=True, transpose_b=True), matmul(g, a, transpose_a=True, transpose_b=True)


def _batch_matmul_grad(op, g):
    a, b = op.inputs
    ax, ay = op.attrs.get("adj_x", False), op.attrs.get("adj_y", False)
    if not ax and not ay:
        ga, gb = matmul(g, b, adjoint_b=True), matmul(a, g, adjoint_a=True)
    elif not ax and ay:
        ga, gb = matmul(g, b), matmul(g, a, adjoint_a=True)
    elif ax and not ay:
        ga, gb = matmul(b, g, adjoint_b=True), matmul(a, g)
    else:
        ga, gb = matmul(b, g, adjoint_a=True, adjoint_b=True), matmul(g, a, adjoint_a=True, adjoint_b=True)
    return sum_to(ga, a), sum_to(gb, b)


MatMul = defop("MatMul", inputs=("a", "b"), kernel=_matmul_kernel, infer=_matmul_infer, grad=_matmul_grad)
BatchMatMulV2 = defop(
    "BatchMatMulV2", inputs=("x", "y"),
    kernel=lambda x, y, adj_x=False, adj_y=False: np.matmul(_mt(x, adj_x), _mt(y, adj_y)),
    infer=lambda inputs, attrs: _matmul_infer(inputs, attrs, "adj_x", "adj_y", batch=True),
    grad=_batch_matmul_grad)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False, name=None):
    """`tf.linalg.matmul`: MatMul for matrices, BatchMatMulV2 (broadcasting batch dims) above."""
    if type(a) is EagerTensor and type(b) is EagerTensor and a._dtype is b._dtype \
            and a._value.ndim == 2 and b._value.ndim == 2 \
            and not (transpose_a or transpose_b or adjoint_a or adjoint_b):  # NOTE: the eager hot path
        return bind(MatMul, (a, b), name=name)
    a, b = binary_operands(a, b, "MatMul", loose_right=True)
    if transpose_a and adjoint_a or transpose_b and adjoint_b:
        side = "a" if transpose_a and adjoint_a else "b"
        raise ValueError(f"Only one of `transpose_{side}` and `adjoint_{side}` can be True. Received "
                         f"`transpose_{side}`=True, `adjoint_{side}`=True.")
    ra, rb = _rank(a), _rank(b)
    if a.dtype.is_complex and (adjoint_a or adjoint_b) and ra == 2 and rb == 2:
        # MatMul only transposes: the adjoint of a complex matrix is its conjugate, transposed
        # (TensorFlow builds the same Conj + MatMul for rank 2; BatchMatMulV2 conjugates itself).
        from ..math.elementwise import conj
        a, b = (conj(a) if adjoint_a else a), (conj(b) if adjoint_b else b)
    ta = bool(transpose_a or adjoint_a)
    tb = bool(transpose_b or adjoint_b)
    if ra == 2 and rb == 2:
        attrs = {"transpose_a": ta, "transpose_b": tb} if (ta or tb) else _NO_ATTRS
        return bind(MatMul, (a, b), attrs, name=name)
    if ra is not None and rb is not None and (ra < 2 or rb < 2):
        if ra == rb:  # TensorFlow builds MatMul: its shape function, or its kernel, refuses the vectors
            if state.graph is not None:
                raise ValueError(f"Shape must be rank 2 but is rank {ra}")
            raise InvalidArgumentError(None, None, "In[0] ndims must be >= 2 [Op:MatMul]")
        raise InvalidArgumentError(
            None, None, f"In[0] and In[1] has different ndims: {R.fmt_dims(a.shape)} vs. {R.fmt_dims(b.shape)} "
                        f"[Op:MatMul]" if ra != rb else
            f"In[0] and In[1] must have rank >= 2: {R.fmt_dims(a.shape)} vs. {R.fmt_dims(b.shape)} [Op:MatMul]")
    attrs = {"adj_x": ta, "adj_y": tb} if (ta or tb) else _NO_ATTRS
    return bind(BatchMatMulV2, (a, b), attrs, name=name)


_NO_ATTRS: dict = {}


def _rank(t):
    """Static rank without building a TensorShape for eager tensors (hot path)."""
    if type(t) is EagerTensor:
        return t._value.ndim
    return t.shape.rank


def tensordot(a, b, axes, name=None):
    """`tf.tensordot`, built from transpose, reshape and matmul (so its gradient comes for free).
    Dimensions unknown while tracing (a None in an input_signature, or after reduce_retracing
    generalised a shape) are read from the inputs' run-time shapes; the ranks must be known."""
    a, b = binary_operands(a, b, "MatMul")
    ra, rb = a.shape.rank, b.shape.rank
    int_axes = isinstance(axes, (int, np.integer)) or (isinstance(axes, Tensor) and axes.shape.rank == 0)
    if ra is None or rb is None:
        if not int_axes:
            raise ValueError("tensordot with lists of axes needs inputs of known rank (None dimensions are "
                             "fine); pass an int `axes` for an input of unknown rank")
        return _tensordot_last_first(a, b, int(axes))
    if int_axes:
        n = int(axes)
        if n < 0 or n > ra or n > rb:
            raise ValueError(f"'axes' must be at most the rank of both inputs, got {n}")
        a_axes, b_axes = list(range(ra - n, ra)), list(range(n))
    else:
        a_axes, b_axes = axes
        a_axes = [a_axes] if isinstance(a_axes, (int, np.integer)) else [int(x) for x in a_axes]
        b_axes = [b_axes] if isinstance(b_axes, (int, np.integer)) else [int(x) for x in b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError(f"Different number of contraction axes 'a' and 'b', {len(a_axes)} != {len(b_axes)}.")
    a_axes = [x % ra for x in a_axes]
    b_axes = [x % rb for x in b_axes]
    a_free = [i for i in range(ra) if i not in a_axes]
    b_free = [i for i in range(rb) if i not in b_axes]
    sa, sb = a.shape.as_list(), b.shape.as_list()
    k, kb = _static_product(sa, a_axes), _static_product(sb, b_axes)
    if k is not None and kb is not None and k != kb:  # TensorFlow reports the reshaped matrices' shapes
        if R.building_graph():  # MatMul's shape function, when the graph is built
            raise ValueError(f"Dimensions must be equal, but are {k} and {kb}")
        m, n = _static_product(sa, a_free), _static_product(sb, b_free)
        raise InvalidArgumentError(None, None, f"Matrix size-incompatible: In[0]: [{_dim_text(m)},{k}], "
                                               f"In[1]: [{kb},{_dim_text(n)}] [Op:MatMul]")
    # Contracted sizes known only at run time are read from each input's own shape, so a mismatch
    # surfaces in MatMul ("Matrix size-incompatible"), as in TensorFlow, not in a reshape.
    if k is None:
        k = _reduce.reduce_prod(_slicing.gather(_array.shape(a), a_axes)) if kb is None else kb
    if kb is None:
        kb = _reduce.reduce_prod(_slicing.gather(_array.shape(b), b_axes))
    a2 = _array.reshape(_array.transpose(a, a_free + a_axes), _matrix_shape(-1, k))
    b2 = _array.reshape(_array.transpose(b, b_axes + b_free), _matrix_shape(kb, -1))
    out = matmul(a2, b2)
    out_dims = [sa[i] for i in a_free] + [sb[i] for i in b_free]
    if all(d is not None for d in out_dims):
        return _array.reshape(out, out_dims)
    a_shape, b_shape = _array.shape(a), _array.shape(b)
    runtime = [_slicing.gather(a_shape, a_free), _slicing.gather(b_shape, b_free)]
    result = _array.reshape(out, _joining.concat(runtime, 0))
    if hasattr(result, "set_shape"):  # keep what is known statically (TF: (None, None, 4))
        result.set_shape(TensorShape(out_dims))
    return result


def _tensordot_last_first(a, b, n):
    """tensordot over a's last n and b's first n dims, every shape read at run time (an input of
    unknown rank). Those dims are already where the matrix product wants them: no transposes."""
    if n < 0:
        raise ValueError(f"'axes' must be at least 0, got {n}")
    sa, sb = _array.shape(a), _array.shape(b)
    k = _reduce.reduce_prod(sa[-n:]) if n else _as_int32(1)
    kb = _reduce.reduce_prod(sb[:n]) if n else _as_int32(1)
    out = matmul(_array.reshape(a, _matrix_shape(-1, k)), _array.reshape(b, _matrix_shape(kb, -1)))
    return _array.reshape(out, _joining.concat([sa[:-n] if n else sa, sb[n:]], 0))


def _static_product(dims, axes):
    """The product of the dims at `axes` when all are known, else None (1 for no axes)."""
    total = 1
    for i in axes:
        if dims[i] is None:
            return None
        total *= dims[i]
    return total


def _dim_text(d):
    return "?" if d is None else str(d)


def _matrix_shape(rows, cols):
    """[rows, cols] for Reshape, where either may be a run-time scalar tensor (then a packed vector)."""
    if isinstance(rows, Tensor) or isinstance(cols, Tensor):
        return _joining.stack([_as_int32(rows), _as_int32(cols)])
    return [rows, cols]


def _as_int32(v):
    return v if isinstance(v, Tensor) else _array.constant(v, _dt.int32)


# --- Cross: the cross product of 3-element vectors (tf.linalg.cross) ----------------------------

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
              grad=lambda op, g: (sum_to(cross(op.inputs[1], g), op.inputs[0]),
                                  sum_to(cross(g, op.inputs[0]), op.inputs[1])))


def cross(a, b, name=None):
    """`tf.linalg.cross`: the cross product of 3-element vectors (batched over leading axes)."""
    x, y = binary_operands(a, b, "Cross")
    check_rule(Cross, (x, y), {})
    return bind(Cross, (x, y))


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_adjoint(x, flag):
    if not flag:
        return x
    x = jnp.swapaxes(x, -1, -2)
    return jnp.conj(x) if x.dtype.kind == "c" else x


def _jax_matmul(a, b, transpose_a=False, transpose_b=False):
    """One dot_general contracting the right axes: XLA then picks its dot kernel for the layout as
    it does for JAX's own gradients, instead of materialising a transposed copy first (a constant
    input's transpose was folded into a second constant and sent down a slower fused path)."""
    from jax import lax
    dims = (((0 if transpose_a else 1,), (1 if transpose_b else 0,)), ((), ()))
    return lax.dot_general(a, b, dims)


MatMul.jax = _jax_matmul
BatchMatMulV2.jax = lambda x, y, adj_x=False, adj_y=False: jnp.matmul(_jax_adjoint(x, adj_x), _jax_adjoint(y, adj_y))
Cross.jax = lambda a, b: jnp.cross(a, b)
