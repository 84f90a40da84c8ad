"""`tf.keras.backend`'s dtype, shape and value helpers: dtype names, `int_shape`, `get_value`/`set_value`,
variables, constants and the filled-tensor factories."""
from __future__ import annotations

import numpy as np

from .backend_settings import _tf, floatx


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
