"""Hashing of strings and tensors: `tf.strings.to_hash_bucket_fast`, `tf.strings.to_hash_bucket_strong`
and `tf.fingerprint` (ops StringToHashBucketFast, StringToHashBucketStrong, Fingerprint).

What TensorFlow does, restated:
- to_hash_bucket_fast: FarmHash Fingerprint64 of each string's bytes, modulo `num_buckets` (int64).
- to_hash_bucket_strong: SipHash-2-4 under the two-word `key`, modulo `num_buckets`.
- fingerprint (method "farmhash64"): one 8-byte uint8 row per row of `data` (its first axis), the
  Fingerprint64 in little-endian bytes. A numeric row is hashed as its raw little-endian bytes; a
  string row of one string as that string; a string row of several strings as the concatenation of
  their own 8-byte fingerprints. (An empty string row, where TensorFlow leaves the bytes unset, is
  the fingerprint of no bytes here, as an empty numeric row is.)
None has a gradient, and none compiles under jit_compile (XLA has no string type).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from .farmhash import fingerprint64
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .siphash import siphash24

_S = _dt.string


def _err(message):
    return InvalidArgumentError(None, None, message)


def _as_bytes(s):
    return s.encode("utf-8") if isinstance(s, str) else bytes(s)


def _bucket_kernel(hash_fn):
    def kernel(x, num_buckets=1, **attrs):
        arr = np.asarray(x, dtype=object)
        out = np.empty(arr.shape, dtype=np.int64)
        flat_in, flat_out = arr.reshape(-1), out.reshape(-1)
        for i, s in enumerate(flat_in):
            flat_out[i] = hash_fn(_as_bytes(s), attrs) % num_buckets
        return out
    return kernel


def _bucket_infer(op_name):
    def infer(inputs, attrs):
        R.check_input_dtype(op_name, inputs, 0, _S)
        return [Spec(inputs[0].shape, _dt.int64)]
    return infer


StringToHashBucketFast = defop(
    "StringToHashBucketFast", inputs=("input",), kernel=_bucket_kernel(lambda s, attrs: fingerprint64(s)),
    infer=_bucket_infer("StringToHashBucketFast"), grad=NO_GRADIENT,
    doc="FarmHash Fingerprint64 of each string, modulo num_buckets.")
StringToHashBucketStrong = defop(
    "StringToHashBucketStrong", inputs=("input",),
    kernel=_bucket_kernel(lambda s, attrs: siphash24(attrs["key"][0], attrs["key"][1], s)),
    infer=_bucket_infer("StringToHashBucketStrong"), grad=NO_GRADIENT,
    doc="SipHash-2-4 of each string under `key`, modulo num_buckets.")


def _check_num_buckets(op_name, num_buckets):
    """num_buckets >= 1, TensorFlow's attr minimum: its eager InvalidArgumentError, or its graph-building
    ValueError."""
    if num_buckets >= 1:
        return
    if state.graph is not None:
        raise ValueError(f"Attr 'num_buckets' of '{op_name}' Op passed {num_buckets} less than minimum 1.")
    raise _err(f"Value for attr 'num_buckets' of {num_buckets} must be at least minimum 1")


def to_hash_bucket_fast(input, num_buckets, name=None):
    """`tf.strings.to_hash_bucket_fast`: int64 bucket ids in [0, num_buckets) from FarmHash Fingerprint64."""
    _check_num_buckets("StringToHashBucketFast", int(num_buckets))
    return bind(StringToHashBucketFast, (as_tensor(input),), {"num_buckets": int(num_buckets)}, name=name)


def to_hash_bucket_strong(input, num_buckets, key, name=None):
    """`tf.strings.to_hash_bucket_strong`: int64 bucket ids from SipHash-2-4 keyed by two integers."""
    _check_num_buckets("StringToHashBucketStrong", int(num_buckets))
    key = [int(k) for k in key]
    if len(key) != 2:
        raise _err(f"Key must have 2 elements, got {len(key)}")
    key = tuple(k & 0xFFFFFFFFFFFFFFFF for k in key)
    return bind(StringToHashBucketStrong, (as_tensor(input),), {"num_buckets": int(num_buckets), "key": key},
                name=name)


# --- Fingerprint -----------------------------------------------------------------------------

def _row_bytes_numeric(arr):
    rows = np.ascontiguousarray(arr.reshape(arr.shape[0], int(np.prod(arr.shape[1:]))))
    if rows.dtype.byteorder == ">":
        rows = rows.astype(rows.dtype.newbyteorder("<"))
    return [row.tobytes() for row in rows]


def _fingerprint_kernel(data, method="farmhash64"):
    arr = np.asarray(data)
    out = np.empty((arr.shape[0], 8), np.uint8)
    if arr.dtype == object:
        rows = arr.reshape(arr.shape[0], int(np.prod(arr.shape[1:])))
        if rows.shape[1] == 1:
            digests = [fingerprint64(_as_bytes(row[0])) for row in rows]
        else:
            digests = [fingerprint64(b"".join(fingerprint64(_as_bytes(s)).to_bytes(8, "little") for s in row))
                       for row in rows]
    else:
        digests = [fingerprint64(row) for row in _row_bytes_numeric(arr)]
    for i, digest in enumerate(digests):
        out[i] = np.frombuffer(digest.to_bytes(8, "little"), np.uint8)
    return out


def _fingerprint_infer(inputs, attrs):
    data = inputs[0]
    if data.shape.rank == 0:
        raise _err(R.rank_message(0, "`data` should have at least one dimension: []").replace(
            "must be rank 4", "must be at least rank 1"))
    first = None if data.shape.rank is None else data.shape[0]
    return [Spec(TensorShape([first, 8]), _dt.uint8)]


Fingerprint = defop("Fingerprint", inputs=("data",), kernel=_fingerprint_kernel, infer=_fingerprint_infer,
                    grad=NO_GRADIENT, doc="An 8-byte FarmHash fingerprint of each row of `data`.")


def fingerprint(data, method="farmhash64", name=None):
    """`tf.fingerprint`: uint8 [rows, 8], the Fingerprint64 of each row of `data` (its first axis)."""
    if method != "farmhash64":
        if state.graph is not None:
            raise ValueError(f"Unsupported method: {method} for '{{{{node Fingerprint}}}}'")
        raise _err(f"Unsupported fingerprint method: {method}")
    return bind(Fingerprint, (as_tensor(data),), {"method": method}, name=name)
