"""Tensors stored in slices: how a tensor bundle keeps a partitioned variable, or a variable that a sharding
policy cut across several data files.

The tensor's own entry holds its full dtype and shape and, in `slices`, one `TensorSliceProto` per stored piece:
per dimension a start and a length (no length: the whole dimension). Each piece is an ordinary entry of its own
under a binary key that sorts before every plain name: the number 0, the tensor's name, the rank, then each
dimension's start and length, written in TensorFlow's order-preserving encoding ("ordered code": an unsigned
number as its byte count then its big-endian bytes; a string with 0x00 and 0xFF escaped and ended by 0x00 0x01;
a signed number in a self-delimiting big-endian form whose leading bits give its length). A whole dimension is
written as start 0, length -1.

`slice_key` builds a piece's key from its extents; `plan_pieces` cuts tensors for a writer with a shard size.
"""
from __future__ import annotations

import numpy as np

FULL = -1  # the length that stands for "the whole dimension" in a slice key


def _unsigned(value: int) -> bytes:
    body = value.to_bytes((value.bit_length() + 7) // 8, "big")
    return bytes([len(body)]) + body


def _string(text: bytes) -> bytes:
    return _escape(text) + b"\x00\x01"


def _escape(text: bytes) -> bytes:
    out = bytearray()
    for byte in text:
        out.append(byte)
        if byte == 0x00:
            out.append(0xFF)
        elif byte == 0xFF:
            out.append(0x00)
    return bytes(out)


# The leading bits that mark a signed number's length (1 to 10 bytes) in its first two bytes.
_SIGNED_HEADER = {1: (0x80, 0), 2: (0xC0, 0), 3: (0xE0, 0), 4: (0xF0, 0), 5: (0xF8, 0), 6: (0xFC, 0), 7: (0xFE, 0),
                  8: (0xFF, 0), 9: (0xFF, 0x80), 10: (0xFF, 0xC0)}


def _signed(value: int) -> bytes:
    magnitude = ~value if value < 0 else value
    length = magnitude.bit_length() // 7 + 1  # 7 bits a byte, less one for the sign
    body = bytearray((value & ((1 << (8 * length)) - 1)).to_bytes(length, "big"))
    first, second = _SIGNED_HEADER[length]
    body[0] ^= first
    if length > 1:
        body[1] ^= second
    return bytes(body)


def slice_key(name: str, extents) -> bytes:
    """The bundle key of the piece of `name` covering `extents`: [(start, length)], length FULL for a whole
    dimension."""
    key = _unsigned(0) + _string(name.encode()) + _unsigned(len(extents))
    for start, length in extents:
        key += _signed(start) + _signed(length)
    return key


def is_slice_key(key: bytes) -> bool:
    return key[:1] == b"\x00"


def extents(slice_proto, shape):
    """[(start, length, key length)] of a TensorSliceProto over a tensor of `shape`, or ValueError when it does
    not fit inside it."""
    if len(slice_proto.extent) != len(shape):
        raise ValueError(f"a slice of rank {len(slice_proto.extent)} of a tensor of rank {len(shape)}")
    out = []
    for extent, dim in zip(slice_proto.extent, shape):
        if extent.HasField("length"):
            start, length = extent.start, extent.length
            if start < 0 or length < 0 or start + length > dim:
                raise ValueError(f"a slice [{start}, {start + length}) outside a dimension of {dim}")
            out.append((start, length, length))
        else:
            if extent.start != 0:
                raise ValueError(f"a whole-dimension slice that starts at {extent.start}")
            out.append((0, dim, FULL))
    return out


def plan_pieces(array: np.ndarray, itemsize: int, max_bytes: int):
    """[(extents, piece)] that cut `array` along its first axis into pieces of at most `max_bytes` each (one row
    at least); [(None, array)] when it fits whole or has no axis to cut."""
    if array.ndim == 0 or array.nbytes <= max_bytes or array.shape[0] <= 1:
        return [(None, array)]
    row_bytes = max(1, int(np.prod(array.shape[1:], dtype=np.int64)) * itemsize)
    rows = max(1, max_bytes // row_bytes)
    pieces = []
    for start in range(0, array.shape[0], rows):
        piece = array[start:start + rows]
        pieces.append(([(start, piece.shape[0])] + [(0, dim) for dim in array.shape[1:]], piece))
    return pieces
