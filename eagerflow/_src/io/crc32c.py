"""CRC-32C (Castagnoli, the checksum of TFRecord files), fast in NumPy.

A byte-at-a-time table loop in Python costs about 100 ns a byte (a second per 10 MB). NumPy is
fast only when each Python step touches many bytes, so the work is cut into *lanes* that advance
together, four bytes of every lane per step (two 65536-entry tables):
  - one long buffer is split into K equal lanes (zero bytes in front make the length divisible:
    leading zeros do not change a CRC register that starts at 0), each lane's register is computed
    from 0, and the lane registers are merged pairwise in a tree: reg(A + B) = Z_len(B)(reg(A)) ^
    reg(B), where Z_n is "feed n zero bytes", a linear map on the 32-bit register applied with four
    256-entry tables (built by squaring Z_1, and cached);
  - many short buffers (the records of a file) are the lanes themselves, padded in front to the
    longest of a group of similar lengths.
CRC-32C starts its register at 0xFFFFFFFF; feeding a register that starts at 0 with the first four
bytes XOR-ed with 0xFF is the same thing, which lets every lane start at 0. Buffers too short for
lanes to pay off take the plain table loop (`crc32c_python`, also the reference the tests hold the
fast path to).
"""
from __future__ import annotations

import functools

import numpy as np

_POLY = 0x82F63B78  # CRC-32C, reflected
_SMALL = 2048  # bytes: below this one buffer goes through the Python loop
_LARGE = 1 << 16  # bytes: a record this long is split into lanes of its own


def _byte_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ _POLY if c & 1 else c >> 1
        table.append(c)
    return table


TABLE = _byte_table()
_NP_TABLE = np.array(TABLE, np.uint32)


def crc32c_python(data, crc=0) -> int:
    """CRC-32C of `data`, continuing from the CRC `crc` of what came before (0 for a start)."""
    crc ^= 0xFFFFFFFF
    table = TABLE
    for byte in bytes(data):
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


# --- Z_n, "feed n zero bytes" to a register, as a 32x32 matrix over GF(2) (its 32 column images) ---

def _apply(columns, value):
    out = 0
    bit = 0
    while value:
        if value & 1:
            out ^= columns[bit]
        value >>= 1
        bit += 1
    return out


@functools.lru_cache(maxsize=64)
def _zeros_columns(nbytes):
    if nbytes == 1:
        return tuple(TABLE[(1 << i) & 0xFF] ^ ((1 << i) >> 8) for i in range(32))
    half = _zeros_columns(nbytes // 2)
    square = tuple(_apply(half, c) for c in half)
    return square if nbytes % 2 == 0 else tuple(_apply(_zeros_columns(1), c) for c in square)


@functools.lru_cache(maxsize=64)
def _zeros_tables(nbytes):
    """Four 256-entry tables: Z_n(x) = T0[x & 255] ^ T1[x >> 8 & 255] ^ T2[x >> 16 & 255] ^ T3[x >> 24]."""
    columns = np.array(_zeros_columns(nbytes), np.uint32)
    values = np.arange(256, dtype=np.uint32)
    tables = np.zeros((4, 256), np.uint32)
    for j in range(4):
        for bit in range(8):
            tables[j] ^= np.where(values >> bit & 1, columns[8 * j + bit], np.uint32(0))
    return tables


def _feed_zeros(registers, nbytes):
    t = _zeros_tables(nbytes)
    return (t[0][registers & 0xFF] ^ t[1][(registers >> 8) & 0xFF] ^ t[2][(registers >> 16) & 0xFF]
            ^ t[3][registers >> 24])


@functools.lru_cache(maxsize=1)
def _word_tables():
    """Two 65536-entry tables for a 4-byte step: feeding four zero bytes to a register whose only
    set bits are its low half (LOW) or its high half (HIGH); the step is LOW[r & 0xFFFF] ^ HIGH[r >> 16]
    on r = register ^ next 4 bytes (little-endian)."""
    tables = []
    for shift in (0, 16):
        c = np.arange(1 << 16, dtype=np.uint32) << np.uint32(shift)
        for _ in range(4):
            c = _NP_TABLE[c & 0xFF] ^ (c >> 8)
        tables.append(c)
    return tables


def _lane_registers(lanes):
    """Registers (started at 0) of each row of a uint8 [lanes, steps] array (steps a multiple of 4),
    four bytes of every lane per Python step."""
    low, high = _word_tables()
    words = np.ascontiguousarray(lanes.view("<u4").T)
    registers = np.zeros(lanes.shape[0], np.uint32)
    for word in words:
        registers ^= word
        registers = low[registers & 0xFFFF] ^ high[registers >> 16]
    return registers


def _crc_of_long(data) -> int:
    n = len(data)
    lanes = 1 << max(0, min(16, (n // 256).bit_length() - 1))  # about 256 steps of up to 65536 lanes
    steps = -(-n // (4 * lanes)) * 4
    buf = np.zeros(lanes * steps, np.uint8)
    start = lanes * steps - n
    buf[start:] = np.frombuffer(data, np.uint8)
    buf[start:start + 4] ^= 0xFF  # the register's 0xFFFFFFFF start, moved into the data
    registers = _lane_registers(buf.reshape(lanes, steps))
    while len(registers) > 1:  # merge neighbours: reg(A + B) = Z_len(B)(reg(A)) ^ reg(B)
        registers = _feed_zeros(registers[0::2], steps) ^ registers[1::2]
        steps *= 2
    return int(registers[0]) ^ 0xFFFFFFFF


def crc32c(data) -> int:
    """CRC-32C of one buffer (bytes-like)."""
    if len(data) < _SMALL:
        return crc32c_python(data)
    return _crc_of_long(memoryview(data).cast("B") if not isinstance(data, bytes) else data)


def _crc_of_group(buffers, width):
    """CRC-32C of buffers of at least 4 bytes and at most `width`, each a lane padded in front."""
    width = -(-width // 4) * 4
    joined = b"".join(b"\0" * (width - len(b)) + b for b in buffers)
    lanes = np.frombuffer(joined, np.uint8).reshape(len(buffers), width).copy()
    starts = width - np.fromiter((len(b) for b in buffers), np.int64, len(buffers))
    rows = np.arange(len(buffers))
    for k in range(4):
        lanes[rows, starts + k] ^= 0xFF
    return (_lane_registers(lanes) ^ np.uint32(0xFFFFFFFF)).tolist()


def crc32c_many(buffers) -> list:
    """CRC-32C of each buffer: long ones split into lanes, short ones grouped by length into lanes."""
    buffers = [bytes(b) for b in buffers]
    out = [0] * len(buffers)
    pending = []
    for i, b in enumerate(buffers):
        if len(b) >= _LARGE:
            out[i] = _crc_of_long(b)
        elif len(b) < 4 or len(buffers) == 1:
            out[i] = crc32c(b)
        else:
            pending.append(i)
    pending.sort(key=lambda i: len(buffers[i]))
    while pending:  # groups of similar lengths, so padding at most doubles the work
        shortest = len(buffers[pending[0]])
        end = 1
        while end < len(pending) and end < 65536 and len(buffers[pending[end]]) <= 2 * shortest:
            end += 1
        group, pending = pending[:end], pending[end:]
        if len(group) < 8:
            for i in group:
                out[i] = crc32c(buffers[i])
            continue
        for i, value in zip(group, _crc_of_group([buffers[i] for i in group], len(buffers[group[-1]]))):
            out[i] = value
    return out
