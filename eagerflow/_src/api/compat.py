"""`tf.compat`: TensorFlow's string and shape helpers for code that straddles versions."""
import contextlib as _contextlib
import datetime as _datetime
import os as _os

import numpy as _np

from ..core import dtypes as _dt

bytes_or_text_types = (bytes, str)
integral_types = (int, _np.integer)
real_types = (int, float, _np.integer, _np.floating)
complex_types = (int, float, complex, _np.number)

_HORIZON = _datetime.date(2025, 11, 1)  # this package's "forward compatibility" date (TF moves it daily)


def as_bytes(bytes_or_text, encoding="utf-8"):
    """str -> bytes in `encoding`; bytes/bytearray as bytes; anything else TensorFlow's TypeError."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8"):
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding="utf-8"):
    return as_str(value, encoding) if isinstance(value, bytes) else str(value)


def path_to_str(path):
    return _os.fspath(path) if isinstance(path, _os.PathLike) else path


def dimension_value(dimension):
    """An int or None, from a TensorShape entry (or an int)."""
    return getattr(dimension, "value", dimension)


def dimension_at_index(shape, index):
    from ..core.shape import TensorShape
    shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
    return None if shape.rank is None else shape[index]


def forward_compatible(year, month, day):
    """Whether this package is at least as new as the date (it is pinned to a fixed horizon)."""
    return _HORIZON > _datetime.date(year, month, day)


@_contextlib.contextmanager
def forward_compatibility_horizon(year, month, day):
    global _HORIZON
    saved, _HORIZON = _HORIZON, _datetime.date(year, month, day)
    try:
        yield
    finally:
        _HORIZON = saved


del _dt
