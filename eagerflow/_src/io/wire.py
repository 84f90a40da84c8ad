"""Reading the protobuf wire format safely: the fields of a message's bytes, bounds checked.

Parsing never executes anything: it walks bytes, reading varints (at most 10 bytes), fixed-size
numbers and length-prefixed slices, and any field that runs past the end, an unknown wire type
(groups included) or an over-long varint is a DecodeError. Unknown fields are skipped.
"""
from __future__ import annotations

import struct


class DecodeError(ValueError):
    """Bytes that are not a valid message (protobuf's `message.DecodeError`)."""

    def __init__(self, message="Error parsing message"):
        super().__init__(message)


def read_varint(data: bytes, i: int):
    value, shift = 0, 0
    while True:
        if i >= len(data) or shift >= 70:
            raise DecodeError("Error parsing message: truncated varint")
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value & ((1 << 64) - 1), i
        shift += 7


def fields(data: bytes):
    """(field number, wire type, value) for each field; value is an int (varint, fixed64 and
    fixed32 as raw bytes) or bytes (length-delimited)."""
    i, n = 0, len(data)
    while i < n:
        key, i = read_varint(data, i)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise DecodeError("Error parsing message: field number 0")
        if wire == 0:
            value, i = read_varint(data, i)
        elif wire == 1 or wire == 5:
            size = 8 if wire == 1 else 4
            if i + size > n:
                raise DecodeError("Error parsing message: truncated fixed-size field")
            value, i = data[i:i + size], i + size
        elif wire == 2:
            size, i = read_varint(data, i)
            if i + size > n:
                raise DecodeError("Error parsing message: truncated length-delimited field")
            value, i = data[i:i + size], i + size
        else:
            raise DecodeError(f"Error parsing message: unsupported wire type {wire}")
        yield number, wire, value


def signed64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def packed_varints(data: bytes):
    out, i = [], 0
    while i < len(data):
        value, i = read_varint(data, i)
        out.append(signed64(value))
    return out


def packed_floats(data: bytes):
    if len(data) % 4:
        raise DecodeError("Error parsing message: packed floats of a length not divisible by 4")
    return list(struct.unpack(f"<{len(data) // 4}f", data))


def varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64s are written as their two's complement, in 10 bytes
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def length_delimited(number: int, data: bytes) -> bytes:
    return varint(number << 3 | 2) + varint(len(data)) + data
