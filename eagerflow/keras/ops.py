"""`keras.ops`: Keras 3's backend-agnostic, NumPy-like functions, over eagerflow's ops.

What differs from the tf.* functions they wrap, as Keras 3.15 defines it:
- Mixed dtypes are promoted, not refused: `ops.add(int32_tensor, float32_tensor)` is float32, a
  Python float beside an integer tensor gives floatx ('float32'), a Python number beside a float
  tensor keeps the tensor's type (Python scalars are "weak", as in JAX).
- NumPy conventions: `axis=None` means the flattened array (argmax, cumsum, take, repeat, roll,
  flip reverses every axis); `split` takes a section count or split indices; `mean`/`divide`/
  `sqrt` of integers are floats; `shape` is a tuple.
A subset of the ~340 functions is provided (the elementwise math, reductions, creation, shape
and indexing functions, activations, losses and control flow the Keras guides use).
"""
from __future__ import annotations

import builtins

import numpy as np

_FLOATX = "float32"
_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _tf():
    import eagerflow as tf
    return tf


def _is_python_scalar(v):
    return isinstance(v, (bool, int, float, complex)) and not isinstance(v, np.generic)


def _np_name(dtype):
    return dtype.name if hasattr(dtype, "name") and not isinstance(dtype, np.dtype) else np.dtype(dtype).name


def result_type(*values):
    """Keras' promotion of the operands' dtypes (Python scalars are weak)."""
    strong = [_np_name(v.dtype) for v in values if not _is_python_scalar(v) and hasattr(v, "dtype")]
    strong += [np.asarray(v).dtype.name for v in values
               if not _is_python_scalar(v) and not hasattr(v, "dtype")]
    weak = [type(v) for v in values if _is_python_scalar(v)]
    if not strong:
        if complex in weak:
            return "complex64"
        if float in weak:
            return _FLOATX
        return "int32" if int in weak else "bool"
    kinds = [np.dtype(n).kind for n in strong if n != "bfloat16"] + (["f"] if "bfloat16" in strong else [])
    top = builtins.max(kinds, key=_KIND_RANK.get)
    weak_rank = builtins.max((_KIND_RANK["c"] if t is complex else _KIND_RANK["f"] if t is float else
                              _KIND_RANK["i"] if t is int else 0 for t in weak), default=0)
    if weak_rank > _KIND_RANK[top]:  # a Python float beside integers: floatx; a Python int beside bools: int32
        return {3: "complex64", 2: _FLOATX, 1: "int32"}[weak_rank]
    same = [n for n in strong if (np.dtype(n).kind if n != "bfloat16" else "f") in
            (("u", "i") if top in "ui" else (top,))]
    if "bfloat16" in same:
        return "bfloat16" if builtins.all(n == "bfloat16" for n in same) else "float32"
    return np.result_type(*[np.dtype(n) for n in same]).name


def _as(x, dtype):
    tf = _tf()
    if _is_python_scalar(x) or not hasattr(x, "dtype"):
        return tf.constant(np.asarray(x, dtype=dtype) if dtype != "bfloat16" else x, dtype=dtype)
    return x if _np_name(x.dtype) == dtype else tf.cast(x, dtype)


def _promoted(*values):
    dtype = result_type(*values)
    return [_as(v, dtype) for v in values]


def _float_result(*values):
    dtype = result_type(*values)
    if np.dtype(dtype if dtype != "bfloat16" else "float32").kind not in "fc":
        dtype = _FLOATX
    return [_as(v, dtype) for v in values]


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    tf = _tf()
    return tf.convert_to_tensor(x, dtype=dtype)


def convert_to_numpy(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def is_tensor(x):
    return _tf().is_tensor(x)


def dtype(x):
    return _np_name(convert_to_tensor(x).dtype)


def cast(x, dtype):
    return _tf().cast(x, dtype)


def shape(x):
    """The static shape as a tuple (None for unknown dimensions)."""
    s = convert_to_tensor(x).shape
    return tuple(s.as_list()) if s.rank is not None else None


def ndim(x):
    return convert_to_tensor(x).shape.rank


def size(x):
    return _tf().size(x)


# --- element-wise -------------------------------------------------------------------------------------

def _binary(fn_name, float_result=False, module="math"):
    def fn(x1, x2):
        tf = _tf()
        a, b = (_float_result if float_result else _promoted)(x1, x2)
        return getattr(getattr(tf, module) if module else tf, fn_name)(a, b)
    fn.__name__ = fn_name
    return fn


add, subtract, multiply = _binary("add"), _binary("subtract"), _binary("multiply")
maximum, minimum, power = _binary("maximum"), _binary("minimum"), _binary("pow")
divide = true_divide = _binary("truediv", float_result=True)
floor_divide, mod = _binary("floordiv"), _binary("floormod")
arctan2 = _binary("atan2", float_result=True)
equal, not_equal = _binary("equal"), _binary("not_equal")
greater, greater_equal, less, less_equal = (_binary(n) for n in ("greater", "greater_equal", "less", "less_equal"))
divide_no_nan = _binary("divide_no_nan", float_result=True)


def _logical(name):
    def fn(x1, x2):
        tf = _tf()
        return getattr(tf.math, name)(tf.cast(x1, tf.bool), tf.cast(x2, tf.bool))
    fn.__name__ = name
    return fn


logical_and, logical_or, logical_xor = _logical("logical_and"), _logical("logical_or"), _logical("logical_xor")


def logical_not(x):
    tf = _tf()
    return tf.math.logical_not(tf.cast(x, tf.bool))


def _unary(name, float_result=False):
    def fn(x):
        tf = _tf()
        (x,) = _float_result(x) if float_result else (convert_to_tensor(x),)
        return getattr(tf.math, name)(x)
    fn.__name__ = name
    return fn


abs = absolute = _unary("abs")  # noqa: A001
negative, sign, square, floor, ceil = (_unary(n) for n in ("negative", "sign", "square", "floor", "ceil"))
sqrt, exp, log, log1p, expm1, reciprocal = (
    _unary(n, True) for n in ("sqrt", "exp", "log", "log1p", "expm1", "reciprocal"))
rsqrt = _unary("rsqrt")  # integers refused, as Keras' (TensorFlow's Rsqrt)
sin, cos, tan, sinh, cosh, tanh, erf, erfc = (
    _unary(n, True) for n in ("sin", "cos", "tan", "sinh", "cosh", "tanh", "erf", "erfc"))
arcsin, arccos, arctan = _unary("asin", True), _unary("acos", True), _unary("atan", True)
arcsinh, arccosh, arctanh = _unary("asinh", True), _unary("acosh", True), _unary("atanh", True)
isnan, isinf, isfinite = _unary("is_nan"), _unary("is_inf"), _unary("is_finite")


def log2(x):
    (x,) = _float_result(x)
    return _tf().math.log(x) / np.log(2.0).astype(dtype(x))


def log10(x):
    (x,) = _float_result(x)
    return _tf().math.log(x) / np.log(10.0).astype(dtype(x))


def round(x, decimals=0):  # noqa: A001
    tf = _tf()
    x = convert_to_tensor(x)
    if decimals == 0:
        return tf.math.round(x)
    scale = np.asarray(10.0 ** decimals, dtype=dtype(x) if x.dtype.is_floating else _FLOATX)
    return tf.math.round(tf.cast(x, scale.dtype.name) * scale) / scale


def clip(x, x_min, x_max):
    tf = _tf()
    x = convert_to_tensor(x)
    if x.dtype == tf.bool:
        x = tf.cast(x, "int32")
    return tf.clip_by_value(x, tf.cast(x_min, x.dtype), tf.cast(x_max, x.dtype))


def where(condition, x1=None, x2=None):
    tf = _tf()
    if x1 is None and x2 is None:
        raise NotImplementedError("keras.ops.where(condition) (the indices form) is not supported yet.")
    a, b = _promoted(x1, x2)
    return tf.where(tf.cast(condition, tf.bool), a, b)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    tf = _tf()
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        return x
    info = np.finfo(dtype(x))
    x = tf.where(tf.math.is_nan(x), tf.cast(nan, x.dtype), x)
    x = tf.where(x == np.inf, tf.cast(info.max if posinf is None else posinf, x.dtype), x)
    return tf.where(x == -np.inf, tf.cast(info.min if neginf is None else neginf, x.dtype), x)


# --- reductions -------------------------------------------------------------------------------------

def _reduce(name, float_ints=False, bool_input=False):
    def fn(x, axis=None, keepdims=False):
        tf = _tf()
        x = convert_to_tensor(x)
        if bool_input:
            x = tf.cast(x, tf.bool)
        elif float_ints and not (x.dtype.is_floating or x.dtype.is_complex):
            x = tf.cast(x, _FLOATX)
        elif x.dtype == tf.bool:
            x = tf.cast(x, "int32")
        return getattr(tf.math, name)(x, axis=axis, keepdims=keepdims)
    fn.__name__ = name
    return fn


sum = _reduce("reduce_sum")  # noqa: A001
prod = _reduce("reduce_prod")
mean, std, var = (_reduce(n, float_ints=True) for n in ("reduce_mean", "reduce_std", "reduce_variance"))
max = amax = _reduce("reduce_max")  # noqa: A001
min = amin = _reduce("reduce_min")  # noqa: A001
all, any = _reduce("reduce_all", bool_input=True), _reduce("reduce_any", bool_input=True)  # noqa: A001
logsumexp = _reduce("reduce_logsumexp", float_ints=True)


def _flat_if_none(x, axis):
    tf = _tf()
    x = convert_to_tensor(x)
    return (tf.reshape(x, [-1]), 0) if axis is None else (x, axis)


def _arg(name):
    def fn(x, axis=None, keepdims=False):
        tf = _tf()
        source = convert_to_tensor(x)
        flat, ax = _flat_if_none(source, axis)
        out = tf.cast(getattr(tf.math, name)(flat, axis=ax), "int32")
        if keepdims:
            out = tf.reshape(out, [1] * source.shape.rank) if axis is None else tf.expand_dims(out, axis)
        return out
    fn.__name__ = name
    return fn


argmax, argmin = _arg("argmax"), _arg("argmin")


def cumsum(x, axis=None, dtype=None):
    tf = _tf()
    x, axis = _flat_if_none(x if dtype is None else cast(x, dtype), axis)
    return tf.math.cumsum(tf.cast(x, "int32") if x.dtype == tf.bool else x, axis=axis)


def cumprod(x, axis=None, dtype=None):
    tf = _tf()
    x, axis = _flat_if_none(x if dtype is None else cast(x, dtype), axis)
    return tf.math.cumprod(tf.cast(x, "int32") if x.dtype == tf.bool else x, axis=axis)


def count_nonzero(x, axis=None):
    tf = _tf()
    return tf.cast(tf.math.count_nonzero(x, axis=axis), "int32")


def moments(x, axes, keepdims=False, synchronized=False):
    tf = _tf()
    (x,) = _float_result(x)
    return tf.nn.moments(x, axes, keepdims=keepdims)


def top_k(x, k, sorted=True):  # noqa: A002
    return tuple(_tf().math.top_k(x, k, sorted=sorted))


def sort(x, axis=-1):
    return _tf().sort(x, axis=axis)


def argsort(x, axis=-1):
    return _tf().argsort(x, axis=axis, stable=True)


# --- creation ---------------------------------------------------------------------------------------

def arange(start, stop=None, step=None, dtype=None):
    tf = _tf()
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    dtype = dtype or result_type(start, stop, step)
    return tf.range(start, stop, step, dtype=dtype)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    values = np.linspace(convert_to_numpy(start), convert_to_numpy(stop), num, endpoint=endpoint, retstep=retstep,
                         axis=axis)
    if retstep:
        values, step = values
    out = _tf().constant(np.asarray(values, dtype=dtype or _FLOATX))
    return (out, step) if retstep else out


def eye(N, M=None, k=0, dtype=None):  # noqa: N803 - NumPy's names
    return _tf().constant(np.eye(N, M, k, dtype=dtype or _FLOATX))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def zeros(shape, dtype=None):
    return _tf().zeros(shape, dtype or _FLOATX)


def ones(shape, dtype=None):
    return _tf().ones(shape, dtype or _FLOATX)


def full(shape, fill_value, dtype=None):
    tf = _tf()
    return tf.fill(shape, tf.cast(fill_value, dtype or _FLOATX))


def zeros_like(x, dtype=None):
    return _tf().zeros_like(x, dtype=dtype)


def ones_like(x, dtype=None):
    return _tf().ones_like(x, dtype=dtype)


def full_like(x, fill_value, dtype=None):
    tf = _tf()
    x = convert_to_tensor(x)
    return tf.fill(tf.shape(x), tf.cast(fill_value, dtype or x.dtype))


def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    return _tf().one_hot(x, num_classes, axis=axis, dtype=dtype or _FLOATX)


# --- shape and indexing -----------------------------------------------------------------------------

def reshape(x, newshape):
    return _tf().reshape(x, newshape)


def transpose(x, axes=None):
    return _tf().transpose(x, perm=axes)


def expand_dims(x, axis):
    return _tf().expand_dims(x, axis)


def squeeze(x, axis=None):
    return _tf().squeeze(x, axis)


def ravel(x):
    return _tf().reshape(x, [-1])


def concatenate(xs, axis=0):
    return _tf().concat(_promoted(*xs), axis=axis)


def stack(x, axis=0):
    return _tf().stack(_promoted(*x), axis=axis)


def unstack(x, num=None, axis=0):
    return _tf().unstack(x, num=num, axis=axis)


def split(x, indices_or_sections, axis=0):
    """NumPy's split: a number of equal sections, or the indices where the pieces start."""
    tf = _tf()
    x = convert_to_tensor(x)
    if isinstance(indices_or_sections, int):
        return tf.split(x, indices_or_sections, axis=axis)
    length = x.shape[axis]
    bounds = [0] + list(indices_or_sections) + [length]
    return tf.split(x, [b - a for a, b in zip(bounds[:-1], bounds[1:])], axis=axis)


def tile(x, repeats):
    tf = _tf()
    x = convert_to_tensor(x)
    repeats = [repeats] if isinstance(repeats, int) else list(repeats)
    if len(repeats) < x.shape.rank:
        repeats = [1] * (x.shape.rank - len(repeats)) + repeats
    elif len(repeats) > x.shape.rank:
        x = tf.reshape(x, [1] * (len(repeats) - x.shape.rank) + x.shape.as_list())
    return tf.tile(x, repeats)


def repeat(x, repeats, axis=None):
    x, axis = _flat_if_none(x, axis)
    return _tf().repeat(x, repeats, axis=axis)


def broadcast_to(x, shape):
    return _tf().broadcast_to(x, shape)


def flip(x, axis=None):
    tf = _tf()
    x = convert_to_tensor(x)
    axes = list(range(x.shape.rank)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    return tf.reverse(x, axes)


def roll(x, shift, axis=None):
    tf = _tf()
    x = convert_to_tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, 0), tf.shape(x))
    return tf.roll(x, shift, axis)


def swapaxes(x, axis1, axis2):
    x = convert_to_tensor(x)
    perm = list(range(x.shape.rank))
    perm[axis1], perm[axis2] = perm[axis2], perm[axis1]
    return _tf().transpose(x, perm)


def moveaxis(x, source, destination):
    x = convert_to_tensor(x)
    rank = x.shape.rank
    perm = [a for a in range(rank) if a != source % rank]
    perm.insert(destination % rank, source % rank)
    return _tf().transpose(x, perm)


def take(x, indices, axis=None):
    tf = _tf()
    x, axis = _flat_if_none(x, axis)
    indices = convert_to_tensor(indices)
    size_along = tf.shape(x)[axis]
    indices = tf.where(indices < 0, indices + tf.cast(size_along, indices.dtype), indices)  # NumPy's negatives
    return tf.gather(x, indices, axis=axis)


def take_along_axis(x, indices, axis=None):
    tf = _tf()
    x, axis = _flat_if_none(x, axis)
    xn = convert_to_tensor(x)
    rank = xn.shape.rank
    axis %= rank
    moved_x = moveaxis(xn, axis, -1)
    moved_i = moveaxis(convert_to_tensor(indices), axis, -1)
    return moveaxis(tf.gather(moved_x, moved_i, batch_dims=rank - 1), -1, axis)


def pad(x, pad_width, mode="constant", constant_values=None):
    tf = _tf()
    x = convert_to_tensor(x)
    width = np.broadcast_to(np.asarray(pad_width), (x.shape.rank, 2)).tolist()
    if mode == "constant":
        return tf.pad(x, width, constant_values=0 if constant_values is None else constant_values)
    if constant_values is not None:
        raise ValueError(f"Argument `constant_values` can only be provided when `mode == 'constant'`. Received: "
                         f"mode={mode}")
    return tf.pad(x, width, mode=mode.upper())


def slice(inputs, start_indices, shape):  # noqa: A001
    return _tf().slice(inputs, start_indices, shape)


def meshgrid(*x, indexing="xy"):
    return _tf().meshgrid(*x, indexing=indexing)


def matmul(x1, x2):
    return _tf().matmul(*_promoted(x1, x2))


def dot(x1, x2):
    tf = _tf()
    a, b = _promoted(x1, x2)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return a * b
    if b.shape.rank == 1:
        return tf.tensordot(a, b, axes=[[a.shape.rank - 1], [0]])
    return tf.tensordot(a, b, axes=[[a.shape.rank - 1], [b.shape.rank - 2]])


def tensordot(x1, x2, axes=2):
    return _tf().tensordot(*_promoted(x1, x2), axes=axes)


def einsum(subscripts, *operands, **kwargs):
    return _tf().einsum(subscripts, *_promoted(*operands))


def stop_gradient(variable):
    return _tf().stop_gradient(variable)


# --- activations and losses (keras.ops.nn, also at the top of keras.ops) -----------------------------

def relu(x):
    return _tf().nn.relu(x)


def relu6(x):
    return _tf().nn.relu6(x)


def sigmoid(x):
    return _tf().math.sigmoid(x)


def softplus(x):
    return _tf().math.softplus(x)


def softsign(x):
    (x,) = _float_result(x)
    return x / (1.0 + _tf().math.abs(x))


def silu(x):
    (x,) = _float_result(x)
    return x * _tf().math.sigmoid(x)


swish = silu


def log_sigmoid(x):
    (x,) = _float_result(x)
    return -_tf().math.softplus(-x)


def leaky_relu(x, negative_slope=0.2):
    return _tf().nn.leaky_relu(x, alpha=negative_slope)


def elu(x, alpha=1.0):
    tf = _tf()
    (x,) = _float_result(x)
    return tf.where(x > 0, x, alpha * (tf.exp(x) - 1.0))


def selu(x):
    return _tf().nn.selu(x)


def gelu(x, approximate=True):
    return _tf().nn.gelu(x, approximate=approximate)


def hard_sigmoid(x):
    """relu6(x + 3) / 6, Keras 3's definition."""
    (x,) = _float_result(x)
    return _tf().nn.relu6(x + 3.0) / 6.0


def hard_silu(x):
    (x,) = _float_result(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def softmax(x, axis=-1):
    return _tf().nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return _tf().nn.log_softmax(x, axis=axis)


def normalize(x, axis=-1, order=2, epsilon=None):
    tf = _tf()
    (x,) = _float_result(x)
    if order != 2:
        norm = tf.norm(x, ord=order, axis=axis, keepdims=True)
        return x / tf.maximum(norm, 1e-12 if epsilon is None else epsilon)
    squares = tf.reduce_sum(tf.square(x), axis=axis, keepdims=True)
    return x * tf.math.rsqrt(tf.maximum(squares, (1e-12 if epsilon is None else epsilon) ** 2))


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise (no mean over the last axis, unlike keras.losses')."""
    from .backend import binary_crossentropy as loss
    return loss(target, output, from_logits=from_logits)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .losses import categorical_crossentropy as loss
    return loss(target, output, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    from .losses import sparse_categorical_crossentropy as loss
    return loss(target, output, from_logits=from_logits, axis=axis)


# --- control flow -----------------------------------------------------------------------------------

def cond(pred, true_fn, false_fn):
    return _tf().cond(pred, true_fn, false_fn)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    tf = _tf()
    is_tuple = isinstance(loop_vars, (tuple, list))
    loop_vars = tuple(loop_vars) if is_tuple else (loop_vars,)

    def body_fn(*args):
        out = body(*args) if is_tuple else body(args[0])
        return tuple(out) if is_tuple else (out,)
    result = tf.while_loop(lambda *args: cond(*args), body_fn, loop_vars, maximum_iterations=maximum_iterations)
    return tuple(result) if is_tuple else result[0]


def fori_loop(lower, upper, body_fun, init_val):
    tf = _tf()
    _, value = tf.while_loop(lambda i, v: i < upper, lambda i, v: (i + 1, body_fun(i, v)),
                             (tf.constant(lower), init_val))
    return value


def vectorized_map(function, elements):
    return _tf().vectorized_map(function, elements)


from .ctc import ctc_loss  # noqa: E402,F401 - keras.ops.ctc_loss (built on this module's neighbours)
