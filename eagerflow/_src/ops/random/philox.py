"""Philox-4x32-10, the counter-based generator behind TensorFlow's stateless random ops, and the
conversions TensorFlow applies to its output, so `tf.random.stateless_*` give TensorFlow's numbers.

A seed pair is turned into a key (2 x uint32) and a starting counter (4 x uint32) by one Philox
call on the seed words under a fixed key (`key_counter`). Output group g (4 uint32 per call) comes
from counter + g; a distribution that may reject samples (truncated normal) reserves 256 draws
per output group. Uniform floats put 23 (or 52) random bits under the exponent of 1.0 and subtract
1; normals are Box-Muller pairs. Pure NumPy on uint64 words holding 32-bit values.
"""
from __future__ import annotations

import numpy as np

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_LOW = np.uint64(0xFFFFFFFF)
_32 = np.uint64(32)
_SEED_KEY = (0x3EC8F720, 0x02461E29)


def philox(counter, key):
    """Ten Philox rounds on counter words (4 arrays of uint64 holding uint32) under `key` (2 ints)."""
    c0, c1, c2, c3 = counter
    k0, k1 = key
    for _ in range(10):
        p0, p1 = _M0 * c0, _M1 * c2
        c0, c1, c2, c3 = (p1 >> _32) ^ c1 ^ np.uint64(k0), p1 & _LOW, (p0 >> _32) ^ c3 ^ np.uint64(k1), p0 & _LOW
        k0, k1 = (k0 + _W0) & 0xFFFFFFFF, (k1 + _W1) & 0xFFFFFFFF
    return c0, c1, c2, c3


def key_counter(seed0, seed1):
    """TensorFlow's key and counter for a seed pair (both taken as 64-bit words)."""
    s0, s1 = int(seed0) & (2 ** 64 - 1), int(seed1) & (2 ** 64 - 1)
    words = [np.uint64(v) for v in (s0 & 0xFFFFFFFF, s0 >> 32, s1 & 0xFFFFFFFF, s1 >> 32)]
    mix = [int(v) for v in philox(words, _SEED_KEY)]
    return (mix[0], mix[1]), (0, 0, mix[2], mix[3])


def pack_key_counter(key, counter):
    """As StatelessRandomGetKeyCounter returns them: key [1] and counter [2] of uint64."""
    return (np.array([key[0] | key[1] << 32], np.uint64),
            np.array([counter[0] | counter[1] << 32, counter[2] | counter[3] << 32], np.uint64))


def unpack_key_counter(key, counter):
    k, c = int(np.ravel(key)[0]), [int(v) for v in np.ravel(counter)[:2]]
    return (k & 0xFFFFFFFF, k >> 32), (c[0] & 0xFFFFFFFF, c[0] >> 32, c[1] & 0xFFFFFFFF, c[1] >> 32)


def blocks(key, counter, groups, stride=1, offset=0):
    """[len(groups), 4] uint32: the Philox output at counter + group * stride + offset (128-bit add)."""
    g = np.asarray(groups, np.uint64) * np.uint64(stride) + np.uint64(offset)
    lo = np.uint64(counter[0] | counter[1] << 32) + g  # wraps mod 2**64 like the C++ counter
    carry = (lo < g).astype(np.uint64)
    hi = np.uint64(counter[2] | counter[3] << 32) + carry
    words = (lo & _LOW, lo >> _32, hi & _LOW, hi >> _32)
    with np.errstate(over="ignore"):
        return np.stack(philox(words, key), axis=-1).astype(np.uint32)


def random_bits(key, counter, count):
    """`count` uint32 in TensorFlow's order: group after group of four."""
    groups = -(-count // 4)
    return blocks(key, counter, np.arange(groups)).reshape(-1)[:count]


def to_float32(bits):
    """[0, 1): 23 random mantissa bits under 1.0's exponent, minus 1."""
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def to_float64(hi_bits, lo_bits):
    """[0, 1) from two uint32: 20 bits of the first and all of the second form the mantissa."""
    man = (hi_bits.astype(np.uint64) & np.uint64(0xFFFFF)) << _32 | lo_bits.astype(np.uint64)
    return (man | np.uint64(0x3FF0000000000000)).view(np.float64) - 1.0


def box_muller32(x0, x1):
    """Two float32 normals per pair of uint32, computed in float32 as TensorFlow's kernel does (to
    within one float32 ulp: NumPy's and Eigen's float sin/cos/log round differently now and then)."""
    u1 = np.maximum(to_float32(x0), np.float32(1e-7))
    v1 = (2.0 * np.pi * to_float32(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * np.log(u1))
    # sin/cos rounded from float64: closest to TensorFlow's float kernel (which can differ by one ulp)
    return np.sin(v1.astype(np.float64)).astype(np.float32) * u2, np.cos(v1.astype(np.float64)).astype(np.float32) * u2


def box_muller64(x0, x1, x2, x3):
    u1 = np.maximum(to_float64(x0, x1), 1e-7)
    v1 = 2.0 * np.pi * to_float64(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def uniform(key, counter, count, np_dtype):
    if np_dtype == np.float64:
        bits = random_bits(key, counter, 2 * count).reshape(-1, 2)
        return to_float64(bits[:, 0], bits[:, 1])
    bits = random_bits(key, counter, count)
    if np_dtype == np.float16:  # 10 random mantissa bits under half's 1.0
        return ((bits & np.uint32(0x3FF)) | np.uint32(0x3C00)).astype(np.uint16).view(np.float16) - np.float16(1)
    if np.dtype(np_dtype).name == "bfloat16":  # 7 random mantissa bits under bfloat16's 1.0 (ml_dtypes' type)
        one = ((bits & np.uint32(0x7F)) | np.uint32(0x3F80)).astype(np.uint16).view(np_dtype)
        return one - np.ones((), np_dtype)
    return to_float32(bits).astype(np_dtype, copy=False)


def normal(key, counter, count, np_dtype):
    if np_dtype == np.float64:
        bits = random_bits(key, counter, 4 * -(-count // 2)).reshape(-1, 4)
        pair = box_muller64(bits[:, 0], bits[:, 1], bits[:, 2], bits[:, 3])
        return np.stack(pair, axis=-1).reshape(-1)[:count]
    bits = random_bits(key, counter, 2 * -(-count // 2)).reshape(-1, 2)
    pair = box_muller32(bits[:, 0], bits[:, 1])
    return np.stack(pair, axis=-1).reshape(-1)[:count].astype(np_dtype)


def truncated_normal(key, counter, count, np_dtype):
    """Normals with |x| < 2: each output group (4 float32, or 2 float64) reads its own 256-draw
    stretch of the stream and keeps, in order, the Box-Muller values that fall inside."""
    wide = np_dtype == np.float64
    per_group = 2 if wide else 4
    groups = -(-count // per_group)
    stride = 128 if wide else 256  # Philox calls reserved per group: 256 draws * group size / 4
    kept = [[] for _ in range(groups)]
    step = 0
    while any(len(k) < per_group for k in kept) and step < stride:
        todo = [g for g in range(groups) if len(kept[g]) < per_group]
        words = blocks(key, counter, todo, stride, step)
        if wide:
            pairs = [box_muller64(words[:, 0], words[:, 1], words[:, 2], words[:, 3])]
        else:
            pairs = [box_muller32(words[:, 0], words[:, 1]), box_muller32(words[:, 2], words[:, 3])]
        for i, g in enumerate(todo):
            for f0, f1 in pairs:
                for v in (f0[i], f1[i]):
                    if abs(v) < 2.0 and len(kept[g]) < per_group:
                        kept[g].append(v)
        step += 1
    flat = np.array([v for k in kept for v in k], np.float64 if wide else np.float32)
    return flat[:count].astype(np_dtype)


def uniform_full_int(key, counter, count, np_dtype):
    """Every bit random: int32/uint32 from one word, int64/uint64 from two (low word first)."""
    if np.dtype(np_dtype).itemsize == 8:
        bits = random_bits(key, counter, 2 * count).reshape(-1, 2).astype(np.uint64)
        return (bits[:, 0] | bits[:, 1] << _32).view(np.dtype(np_dtype).newbyteorder("="))
    return random_bits(key, counter, count).view(np.dtype(np_dtype).newbyteorder("="))


def uniform_int(key, counter, count, lo, hi, np_dtype):
    """lo + bits mod (hi - lo), the range taken as unsigned and the sum wrapping, as in C++."""
    span = np.uint64((int(hi) - int(lo)) & (2 ** 64 - 1))
    if np.dtype(np_dtype).itemsize == 8:
        bits = random_bits(key, counter, 2 * count).reshape(-1, 2).astype(np.uint64)
        words = bits[:, 0] | bits[:, 1] << _32
    else:
        words = random_bits(key, counter, count).astype(np.uint64)
    with np.errstate(over="ignore"):
        return (words % span + np.uint64(int(lo) & (2 ** 64 - 1))).view(np.int64).astype(np_dtype)
