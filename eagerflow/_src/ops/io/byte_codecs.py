"""Strings as bytes: DecodeRaw / DecodePaddedRaw (`tf.io.decode_raw`) and DecodeBase64 / EncodeBase64
(`tf.io.decode_base64`, `tf.io.encode_base64`).

What TensorFlow does, restated:
- decode_raw reinterprets each string's bytes as numbers of `out_type` (little-endian unless told
  otherwise): the output is the input's shape plus one dimension, so every string must have the same
  length, a multiple of the type's size. With `fixed_length`, each string is cut or zero-padded to
  that many bytes first (the op DecodePaddedRaw).
- Base64 is the web-safe alphabet (`-` and `_` for `+` and `/`); decoding takes the text with or
  without its `=` padding, and encoding adds it only when `pad=True`.
None of these ops has a gradient (their inputs are strings).
"""
from __future__ import annotations

import base64
import re

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value

# What decode_raw produces, in the order TensorFlow lists them
_RAW_TYPES = (_dt.float16, _dt.float32, _dt.float64, _dt.int32, _dt.uint16, _dt.uint8, _dt.int16, _dt.int8,
              _dt.int64, _dt.complex64, _dt.complex128, _dt.bool_)


def _bytes_of(value) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def _numbers(data: bytes, out_type, little_endian):
    np_type = np.dtype(out_type.np_dtype).newbyteorder("<" if little_endian else ">")
    return np.frombuffer(data, dtype=np_type).astype(out_type.np_dtype)


def _decode_raw_kernel(input_bytes, out_type=_dt.uint8, little_endian=True):
    strings = np.asarray(input_bytes, dtype=object)
    flat = [_bytes_of(s) for s in strings.reshape(-1)]
    size = np.dtype(out_type.np_dtype).itemsize
    width = len(flat[0]) if flat else 0
    for i, data in enumerate(flat):
        if len(data) % size:
            raise InvalidArgumentError(None, None, f"Input to DecodeRaw has length {len(data)} that is not a "
                                                   f"multiple of {size}, the size of {out_type.name}")
        if len(data) != width:
            raise InvalidArgumentError(None, None, f"DecodeRaw requires input strings to all be the same size, but "
                                                   f"element {i} has size {width} != {len(data)}")
    out = np.empty((len(flat), width // size), out_type.np_dtype)
    for i, data in enumerate(flat):
        out[i] = _numbers(data, out_type, little_endian)
    return out.reshape(strings.shape + (width // size,))


def _decode_padded_kernel(input_bytes, fixed_length, out_type=_dt.uint8, little_endian=True):
    length = int(fixed_length)
    size = np.dtype(out_type.np_dtype).itemsize
    if length % size:
        raise InvalidArgumentError(None, None, f"fixed_length ({length}) must be a multiple of the size of out_type "
                                               f"({size})")
    strings = np.asarray(input_bytes, dtype=object)
    flat = [_bytes_of(s)[:length].ljust(length, b"\0") for s in strings.reshape(-1)]
    out = np.empty((len(flat), length // size), out_type.np_dtype)
    for i, data in enumerate(flat):
        out[i] = _numbers(data, out_type, little_endian)
    return out.reshape(strings.shape + (length // size,))


def _raw_infer(op_name):
    def infer(inputs, attrs):
        R.check_input_dtype(op_name, inputs, 0, _dt.string)
        out_type = attrs.get("out_type", _dt.uint8)
        R.check_dtype_in(op_name, out_type, _RAW_TYPES, arg="out_type", attr="out_type")
        shape = inputs[0].shape
        if shape.rank is None:
            return [Spec(TensorShape(None), out_type)]
        last = None
        if op_name == "DecodePaddedRaw":
            fixed = static_value(inputs[1])
            if fixed is not None:
                last = int(fixed) // np.dtype(out_type.np_dtype).itemsize
        return [Spec(TensorShape(list(shape) + [last]), out_type)]
    return infer


DecodeRaw = defop("DecodeRaw", inputs=("bytes",), kernel=_decode_raw_kernel, infer=_raw_infer("DecodeRaw"),
                  grad=NO_GRADIENT, doc="Each string's bytes as numbers of out_type.")
DecodePaddedRaw = defop("DecodePaddedRaw", inputs=("input_bytes", "fixed_length"), kernel=_decode_padded_kernel,
                        infer=_raw_infer("DecodePaddedRaw"), grad=NO_GRADIENT,
                        doc="Each string cut or zero-padded to fixed_length bytes, as numbers of out_type.")


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    """`tf.io.decode_raw`: the bytes of each string as numbers; shape: the input's plus one dimension."""
    out_type = _dt.as_dtype(out_type)
    strings = as_tensor(input_bytes)
    attrs = {"out_type": out_type, "little_endian": bool(little_endian)}
    if fixed_length is None:
        return bind(DecodeRaw, (strings,), attrs, name)
    return bind(DecodePaddedRaw, (strings, as_tensor(fixed_length, _dt.int32)), attrs, name)


# --- Base64, web-safe ------------------------------------------------------------------------------

_WEB_SAFE = re.compile(rb"[A-Za-z0-9_-]*")


def _decode_one(text: bytes) -> bytes:
    body = text
    if len(text) % 4 == 0:  # a padded text: at most two '=' at its end
        stripped = text.rstrip(b"=")
        if len(text) - len(stripped) <= 2:
            body = stripped
    if not _WEB_SAFE.fullmatch(body):
        raise InvalidArgumentError(None, None, "Invalid character found in base64.")
    if len(body) % 4 == 1:
        raise InvalidArgumentError(None, None, "Base64 string length cannot be 1 modulo 4.")
    return base64.urlsafe_b64decode(body + b"=" * (-len(body) % 4))


def _map_strings(fn):
    def kernel(input, **attrs):  # noqa: A002 - TensorFlow's name
        strings = np.asarray(input, dtype=object)
        out = np.empty(strings.shape, dtype=object)
        flat_in, flat_out = strings.reshape(-1), out.reshape(-1)
        for i, s in enumerate(flat_in):
            flat_out[i] = fn(_bytes_of(s), **attrs)
        return out
    return kernel


def _encode_one(data: bytes, pad=False) -> bytes:
    text = base64.urlsafe_b64encode(data)
    return text if pad else text.rstrip(b"=")


def _string_to_string(op_name):
    def infer(inputs, attrs):
        R.check_input_dtype(op_name, inputs, 0, _dt.string)
        return [Spec(inputs[0].shape, _dt.string)]
    return infer


DecodeBase64 = defop("DecodeBase64", inputs=("input",), kernel=_map_strings(_decode_one),
                     infer=_string_to_string("DecodeBase64"), grad=NO_GRADIENT,
                     doc="Web-safe base64 text (padded or not) to its bytes.")
EncodeBase64 = defop("EncodeBase64", inputs=("input",), kernel=_map_strings(_encode_one),
                     infer=_string_to_string("EncodeBase64"), grad=NO_GRADIENT,
                     doc="Bytes to web-safe base64 text, '=' padded only when pad is set.")


def decode_base64(input, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.io.decode_base64`: web-safe base64 (with or without '=' padding) to bytes, element-wise."""
    return bind(DecodeBase64, (as_tensor(input),), name=name)


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.io.encode_base64`: bytes to web-safe base64, element-wise; '=' padding only with `pad=True`."""
    return bind(EncodeBase64, (as_tensor(input),), {"pad": bool(pad)}, name)
