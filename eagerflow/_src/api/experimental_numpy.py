"""`tf.experimental.numpy`: NumPy's API whose arrays are tensors (`tnp.ndarray is tf.Tensor`).

Why it differs from the tf.* ops it calls: NumPy's dtype rules. Python floats and ints become
float64 and int64 (as np.array makes them), a function's default dtype is float (float64), mixed
operands promote as NumPy promotes them (int + float is float64; a Python scalar beside a tensor
takes the tensor's kind), and means and float functions of integers are float64. The dtypes are
NumPy's own types (tnp.float32 is np.float32), as in TensorFlow. `experimental_enable_numpy_behavior`
gives tensors the ndarray methods TensorFlow adds (T, astype, ravel, reshape, transpose, mean, clip, ...).
"""
from __future__ import annotations

import numpy as _np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor as _convert
from ..core.tensor import Tensor as ndarray
from ..ops.array import basic as _array
from ..ops.array import joining as _joining
from ..ops.linalg import matmul as _products
from ..ops.math import elementwise as _math
from ..ops.math import reduce as _reduce

bool_, int8, int16, int32, int64 = _np.bool_, _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64, complex64, complex128 = _np.float16, _np.float32, _np.float64, _np.complex64, _np.complex128
pi, e, inf, nan, newaxis = _np.pi, _np.e, _np.inf, _np.nan, None


def _np_dtype(dtype):
    return None if dtype is None else _np.dtype(_dt.as_dtype(dtype).np_dtype if isinstance(dtype, _dt.DType) else dtype)


def _tf_dtype(np_dtype):
    return _dt.from_numpy(_np.dtype(np_dtype))


def asarray(a, dtype=None):
    """A tensor of `a` (a tensor is kept, cast when `dtype` differs); Python values as NumPy types them."""
    if isinstance(a, ndarray) or hasattr(type(a), "_as_tensor"):
        t = _convert(a)
        return t if dtype is None or t.dtype is _tf_dtype(_np_dtype(dtype)) else _math.cast(t, _tf_dtype(_np_dtype(dtype)))
    if isinstance(a, (list, tuple)) and any(isinstance(v, ndarray) for v in _np.ravel(_np.array(a, dtype=object))):
        return asarray(_joining.stack([asarray(v) for v in a]), dtype)
    value = _np.asarray(a, dtype=_np_dtype(dtype))
    if dtype is None and value.dtype == _np.float64 and not isinstance(a, (_np.ndarray, _np.generic)) \
            and _prefers_float32():  # Python floats, as TensorFlow types them under prefer_float32=True
        value = value.astype(_np.float32)
    return _convert(value)


def _prefers_float32():
    from .numpy_promotion import mode
    return mode is not None and mode[1]


def array(val, dtype=None, copy=True, ndmin=0):
    t = asarray(val, dtype)
    if copy and isinstance(val, ndarray):
        t = _array.identity(t)
    while t.shape.rank is not None and t.shape.rank < ndmin:
        t = _array.expand_dims(t, 0)
    return t


def _weak(x):
    """What NumPy promotes `x` as: a tensor's dtype, a Python scalar as itself (a weak type)."""
    if isinstance(x, ndarray) or hasattr(type(x), "_as_tensor"):
        return _np.dtype(_convert(x).dtype.np_dtype)
    if isinstance(x, (bool, int, float, complex)):
        return x
    return _np.asarray(x).dtype


def result_type(*arrays_and_dtypes):
    return _np.result_type(*[_weak(a) for a in arrays_and_dtypes])


def _promoted(*xs, floating=False):
    kind = result_type(*xs)
    if floating and not (_np.issubdtype(kind, _np.floating) or _np.issubdtype(kind, _np.complexfloating)):
        kind = _np.dtype(_np.float64)
    return [asarray(x, kind) for x in xs]


def _shape(shape):
    return [shape] if isinstance(shape, int) else shape


def zeros(shape, dtype=float):
    return _array.zeros(_shape(shape), _tf_dtype(_np_dtype(dtype)))


def ones(shape, dtype=float):
    return _array.ones(_shape(shape), _tf_dtype(_np_dtype(dtype)))


def full(shape, fill_value, dtype=None):
    shape = _shape(shape)
    value = asarray(fill_value, dtype)
    return _array.fill(shape, value) if value.shape.rank == 0 else _array.broadcast_to(value, shape)


def eye(N, M=None, k=0, dtype=float):
    return _convert(_np.eye(N, M, k, dtype=_np_dtype(dtype)))


def arange(start, stop=None, step=1, dtype=None):
    if all(isinstance(v, (int, float)) for v in (start, stop, step) if v is not None):
        return _convert(_np.arange(start, stop, step, dtype=_np_dtype(dtype)))
    from ..ops.array.sequences import range as _range
    start, stop = (0, start) if stop is None else (start, stop)
    kind = _np_dtype(dtype) or result_type(start, stop, step)
    return _range(*_promoted(start, stop, step), dtype=_tf_dtype(kind))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=float, axis=0):
    if isinstance(start, (int, float)) and isinstance(stop, (int, float)):
        values = _np.linspace(start, stop, num, endpoint=endpoint, retstep=retstep, dtype=_np_dtype(dtype), axis=axis)
        return (_convert(values[0]), values[1]) if retstep else _convert(values)
    raise NotImplementedError("tnp.linspace of tensors is not supported in this version")


def reshape(a, newshape, order="C"):
    if order != "C":
        raise ValueError("tnp.reshape supports only order='C'")
    return _array.reshape(asarray(a), [newshape] if isinstance(newshape, int) else newshape)


def transpose(a, axes=None):
    return _array.transpose(asarray(a), axes)


def ravel(a):
    return _array.reshape(asarray(a), [-1])


def matmul(x1, x2):
    a, b = _promoted(x1, x2)
    return _products.matmul(a, b)


def dot(a, b):
    """NumPy's dot: a product with a scalar, the inner product of vectors, else the last axis of `a`
    against the second-to-last of `b` (the only one of a vector)."""
    a, b = _promoted(a, b)
    if a.shape.rank == 0 or b.shape.rank == 0:
        return _math.multiply(a, b)
    return _products.tensordot(a, b, [[a.shape.rank - 1], [b.shape.rank - 2 if b.shape.rank > 1 else 0]])


def _reduction(fn, integer_to_float=False):
    def reduce(a, axis=None, dtype=None, keepdims=False):
        t = asarray(a)
        if dtype is not None:
            t = asarray(t, dtype)
        elif integer_to_float and not (t.dtype.is_floating or t.dtype.is_complex):
            t = _math.cast(t, _dt.float64)
        return fn(t, axis, keepdims=keepdims)
    return reduce


sum = _reduction(_reduce.reduce_sum)  # noqa: A001 - NumPy's names
mean = _reduction(_reduce.reduce_mean, integer_to_float=True)
prod = _reduction(_reduce.reduce_prod)


def max(a, axis=None, keepdims=False):  # noqa: A001
    return _reduce.reduce_max(asarray(a), axis, keepdims=keepdims)


def min(a, axis=None, keepdims=False):  # noqa: A001
    return _reduce.reduce_min(asarray(a), axis, keepdims=keepdims)


amax, amin = max, min


def concatenate(arys, axis=0):
    return _joining.concat(_promoted(*arys), axis)


def stack(arrays, axis=0):
    return _joining.stack(_promoted(*arrays), axis)


def where(condition, x=None, y=None):
    condition = asarray(condition, _np.bool_)
    if x is None and y is None:
        return tuple(_array.where(condition)[:, i] for i in range(condition.shape.rank))
    x, y = _promoted(x, y)
    return _array.where(condition, x, y)


def _unary(fn, floating=False):
    def unary(x):
        (t,) = _promoted(x, floating=floating)
        return fn(t)
    unary.__name__ = fn.__name__
    return unary


exp, log, sqrt, log1p, expm1 = (_unary(f, True) for f in (_math.exp, _math.log, _math.sqrt, _math.log1p, _math.expm1))
sin, cos, tan, tanh = (_unary(f, True) for f in (_math.sin, _math.cos, _math.tan, _math.tanh))
abs, absolute, square, negative, sign = (_unary(f) for f in (_math.abs, _math.abs, _math.square,  # noqa: A001
                                                              _math.negative, _math.sign))
floor, ceil = _unary(_math.floor, True), _unary(_math.ceil, True)


def _binary(fn, floating=False):
    def binary(x1, x2):
        return fn(*_promoted(x1, x2, floating=floating))
    binary.__name__ = fn.__name__
    return binary


add, subtract, multiply = _binary(_math.add), _binary(_math.subtract), _binary(_math.multiply)
maximum, minimum, power = _binary(_math.maximum), _binary(_math.minimum), _binary(_math.pow)
divide = true_divide = _binary(_math.truediv, floating=True)


def _methods():
    """The ndarray methods TensorFlow gives tensors once NumPy behaviour is on."""
    return {
        "T": property(lambda self: transpose(self)),
        "astype": lambda self, dtype: asarray(self, dtype),
        "ravel": lambda self: ravel(self),
        "reshape": lambda self, *shape, **kw: reshape(self, shape[0] if len(shape) == 1 else shape, **kw),
        "transpose": lambda self, *axes: transpose(self, (axes[0] if len(axes) == 1 else axes) or None),
        "mean": lambda self, axis=None, dtype=None, keepdims=False: mean(self, axis, dtype, keepdims),
        "clip": lambda self, a_min, a_max: _math.clip_by_value(*_promoted(self, a_min, a_max)),
        "tolist": lambda self: self.numpy().tolist(),
        "max": lambda self, axis=None, keepdims=False: max(self, axis, keepdims),
        "flatten": lambda self: ravel(self),
        "ndim": property(lambda self: self.shape.rank),
        "size": property(lambda self: self.shape.num_elements()),
    }


def experimental_enable_numpy_behavior(prefer_float32=False, dtype_conversion_mode="legacy"):
    """Gives every tensor the ndarray methods above, and its operators NumPy's dtype promotion
    (int32 + float32 -> float64; api/numpy_promotion.py), as TensorFlow does."""
    from . import numpy_promotion
    numpy_promotion.enable(dtype_conversion_mode, prefer_float32)
    for name, method in _methods().items():
        if name not in vars(ndarray):
            setattr(ndarray, name, method)
