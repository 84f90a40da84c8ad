"""A tiny protobuf wire-format reader for the tests: decodes what summary/protobuf.py encodes, written
from the wire format's definition (varint / 64-bit / length-delimited / 32-bit), sharing no code
with the writer. `fields(data)` maps field number -> list of raw values (ints, or bytes for
length-delimited fields, which the caller decodes further when they are messages)."""
import glob
import os
import struct

import numpy as np

from eagerflow.summary.records import read_records


def _varint(data, i):
    shift = value = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, i


def fields(data: bytes) -> dict:
    out, i = {}, 0
    while i < len(data):
        key, i = _varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = _varint(data, i)
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        elif wire == 2:
            length, i = _varint(data, i)
            value, i = data[i:i + length], i + length
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        else:
            raise ValueError(f"wire type {wire}")
        out.setdefault(number, []).append(value)
    return out


def signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


_NP = {1: np.float32, 2: np.float64, 3: np.int32, 9: np.int64, 10: np.bool_}


def shape(data: bytes):
    f = fields(data)
    if f.get(3):
        return None
    return [signed(fields(d).get(1, [0])[0]) for d in f.get(2, [])]


def tensor(data: bytes) -> np.ndarray:
    f = fields(data)
    dims = shape(f[2][0])
    if f[1][0] == 7:  # DT_STRING
        return np.array(f.get(8, []), dtype=object).reshape(dims)
    content = f.get(4, [b""])[0]  # proto3 leaves an empty tensor_content out
    return np.frombuffer(content, dtype=np.dtype(_NP[f[1][0]]).newbyteorder("<")).reshape(dims)


def events(logdir):
    """[(wall_time, step, kind, payload)] of every event file in logdir, in order: kind 'version'
    (payload the file version), 'summary' (tag, array, plugin name, description), 'graph' (bytes)."""
    paths = sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*")))
    out = []
    for path in paths:
        for record in read_records(path):
            f = fields(record)
            wall = struct.unpack("<d", f[1][0])[0]
            step = signed(f.get(2, [0])[0])
            if 3 in f:
                out.append((wall, step, "version", f[3][0].decode()))
            if 4 in f:
                out.append((wall, step, "graph", f[4][0]))
            for summary in f.get(5, []):
                for value in fields(summary).get(1, []):
                    v = fields(value)
                    meta = fields(v[9][0])
                    plugin = fields(meta[1][0])[1][0].decode()
                    description = meta.get(3, [b""])[0].decode()
                    out.append((wall, step, "summary", (v[1][0].decode(), tensor(v[8][0]), plugin, description)))
    return out


def summaries(logdir):
    """[(step, tag, array, plugin)] of the summary events."""
    return [(step, p[0], p[1], p[2]) for _, step, kind, p in events(logdir) if kind == "summary"]
