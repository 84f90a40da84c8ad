"""The sorted key/value table of a checkpoint's `.index` file (LevelDB's table layout, as TensorFlow writes it).

Layout: data blocks of prefix-compressed entries, an empty meta-index block, an index block whose entries map
a key at or after each data block's last key to that block's (offset, size), and a 48-byte footer: the two
block handles, zero padding, and the magic number. Every block is followed by a type byte (0: stored as is)
and the masked CRC-32C of the block and that byte. TensorFlow writes bundles without compression; a
compressed block is refused as unsupported.

Why here and not in io/: it is part of one file format (tensor_bundle.py's), with no other user.
The reader never trusts a size or offset it reads: each is checked against the file's length before use, and
any inconsistency raises `DataLossError` naming the file.
"""
from __future__ import annotations

import struct

from ..core.errors import DataLossError
from ..io.records import masked_crc

MAGIC = 0xDB4775248B80FB57
FOOTER_SIZE = 48  # two block handles padded to 40 bytes, then the 8-byte magic number
BLOCK_TRAILER_SIZE = 5
RESTART_INTERVAL = 16
BLOCK_SIZE = 256 * 1024  # TensorFlow's default: a bundle's index of a few thousand keys is one or two blocks


def varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class Damaged(Exception):
    """Bytes that are not what the layout says (from read_varint and the table reader); the caller that knows
    the file turns it into DataLossError naming it."""


def read_varint(data, pos: int, end: int):
    result = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise Damaged("a varint runs past its block")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


class _BlockBuilder:
    def __init__(self):
        self.buffer = bytearray()
        self.restarts = [0]
        self.count = 0
        self.last_key = b""

    def add(self, key: bytes, value: bytes) -> None:
        shared = 0
        if self.count < RESTART_INTERVAL:
            limit = min(len(key), len(self.last_key))
            while shared < limit and key[shared] == self.last_key[shared]:
                shared += 1
        else:
            self.restarts.append(len(self.buffer))
            self.count = 0
        self.buffer += varint(shared) + varint(len(key) - shared) + varint(len(value))
        self.buffer += key[shared:] + value
        self.last_key = key
        self.count += 1

    def finish(self) -> bytes:
        tail = b"".join(struct.pack("<I", r) for r in self.restarts) + struct.pack("<I", len(self.restarts))
        return bytes(self.buffer) + tail

    def size(self) -> int:
        return len(self.buffer) + 4 * len(self.restarts) + 4


def build_table(items) -> bytes:
    """The table bytes for `items`: (key bytes, value bytes) pairs in strictly increasing key order."""
    out = bytearray()
    index = _BlockBuilder()

    def flush(block: _BlockBuilder) -> bytes:
        contents = block.finish()
        handle = varint(len(out)) + varint(len(contents))
        out.extend(contents + b"\x00" + struct.pack("<I", masked_crc(contents + b"\x00")))
        return handle

    block = _BlockBuilder()
    previous = None
    for key, value in items:
        if previous is not None and key <= previous:
            raise ValueError(f"table keys must increase: {key!r} after {previous!r}")
        previous = key
        block.add(key, value)
        if block.size() >= BLOCK_SIZE:
            index.add(block.last_key, flush(block))
            block = _BlockBuilder()
    if block.count or not index.count:
        index.add(block.last_key, flush(block))
    meta_handle = flush(_BlockBuilder())
    index_handle = flush(index)
    footer = (meta_handle + index_handle).ljust(FOOTER_SIZE - 8, b"\x00") + struct.pack("<Q", MAGIC)
    return bytes(out + footer)


def _block(data, handle_bytes, name: str):
    offset, pos = read_varint(handle_bytes, 0, len(handle_bytes))
    size, _ = read_varint(handle_bytes, pos, len(handle_bytes))
    end = offset + size
    if end + BLOCK_TRAILER_SIZE > len(data) - FOOTER_SIZE or size < 4:
        raise Damaged(f"the {name} block lies outside the file")
    contents = data[offset:end]
    kind = data[end]
    if kind != 0:
        raise Damaged(f"the {name} block is compressed (type {kind}), which eagerflow does not read")
    (stored,) = struct.unpack_from("<I", data, end + 1)
    if masked_crc(bytes(data[offset:end + 1])) != stored:
        raise Damaged(f"the {name} block's checksum does not match its bytes")
    return contents


def _entries(block):
    (restarts,) = struct.unpack_from("<I", block, len(block) - 4)
    limit = len(block) - 4 - 4 * restarts
    if restarts < 1 or limit < 0:
        raise Damaged("a block's restart array is damaged")
    pos, key = 0, b""
    while pos < limit:
        shared, pos = read_varint(block, pos, limit)
        unshared, pos = read_varint(block, pos, limit)
        value_len, pos = read_varint(block, pos, limit)
        if shared > len(key) or pos + unshared + value_len > limit:
            raise Damaged("an entry runs past its block")
        key = key[:shared] + bytes(block[pos:pos + unshared])
        pos += unshared
        yield key, bytes(block[pos:pos + value_len])
        pos += value_len


def read_table(data, filename: str) -> dict:
    """All key -> value pairs of a table held in `data` (bytes); DataLossError naming `filename` if damaged."""
    try:
        if len(data) < FOOTER_SIZE:
            raise Damaged("the file is shorter than a table's footer")
        (magic,) = struct.unpack_from("<Q", data, len(data) - 8)
        if magic != MAGIC:
            raise Damaged("the table's magic number is missing")
        footer = data[len(data) - FOOTER_SIZE:len(data) - 8]
        _, pos = read_varint(footer, 0, len(footer))
        _, pos = read_varint(footer, pos, len(footer))  # meta-index handle: nothing in it we use
        index = _block(data, footer[pos:], "index")
        table, previous = {}, None
        for _, handle in _entries(index):
            for key, value in _entries(_block(data, handle, "data")):
                if previous is not None and key <= previous:
                    raise Damaged("its keys are out of order")
                previous = key
                table[key] = value
        return table
    except (Damaged, struct.error) as err:
        raise DataLossError(None, None, f"{filename}: not a valid checkpoint index ({err})") from None
