"""SipHash-2-4 with a 128-bit key (two unsigned 64-bit words): the keyed hash behind TensorFlow's
`tf.strings.to_hash_bucket_strong` (and so Keras' Hashing layer with a `salt`).

Written from the published SipHash specification: four 64-bit state words seeded from the key, two
compression rounds per 8-byte little-endian block, the length in the top byte of the last block,
four finalisation rounds. All arithmetic is modulo 2**64.
"""
from __future__ import annotations

_M = (1 << 64) - 1


def _rotl(x: int, b: int) -> int:
    return ((x << b) | (x >> (64 - b))) & _M


def siphash24(key0: int, key1: int, data: bytes) -> int:
    """SipHash-2-4 of `data` under the key (key0, key1), an unsigned 64-bit int."""
    v0, v1 = key0 ^ 0x736F6D6570736575, key1 ^ 0x646F72616E646F6D
    v2, v3 = key0 ^ 0x6C7967656E657261, key1 ^ 0x7465646279746573

    def rounds(count, v0, v1, v2, v3):
        for _ in range(count):
            v0 = (v0 + v1) & _M
            v1 = _rotl(v1, 13) ^ v0
            v0 = _rotl(v0, 32)
            v2 = (v2 + v3) & _M
            v3 = _rotl(v3, 16) ^ v2
            v0 = (v0 + v3) & _M
            v3 = _rotl(v3, 21) ^ v0
            v2 = (v2 + v1) & _M
            v1 = _rotl(v1, 17) ^ v2
            v2 = _rotl(v2, 32)
        return v0, v1, v2, v3

    n = len(data)
    end = n - n % 8
    for i in range(0, end, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v3 ^= m
        v0, v1, v2, v3 = rounds(2, v0, v1, v2, v3)
        v0 ^= m
    last = ((n & 0xFF) << 56) | int.from_bytes(data[end:], "little")
    v3 ^= last
    v0, v1, v2, v3 = rounds(2, v0, v1, v2, v3)
    v0 ^= last
    v2 ^= 0xFF
    v0, v1, v2, v3 = rounds(4, v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3
