"""HashedCrossStep: one step of TensorFlow's hashed feature cross (tf.sparse.cross_hashed, which Keras'
HashedCrossing layer runs), on dense features of equal shape.

The cross of features f1..fk is FingerprintCat64(...FingerprintCat64(key, h(f1))..., h(fk)) modulo the
bucket count, where h is FarmHash Fingerprint64 for strings and the value itself (as 64 unsigned bits)
for integers, and key is TensorFlow's default 0xDECAFCAFFE. Each step combines the running hashes with
one feature; the last step (num_buckets > 0) also takes the bucket."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..strings.farmhash import fingerprint64

DEFAULT_HASH_KEY = 0xDECAFCAFFE
_MUL = np.uint64(0xC6A4A7935BD1E995)
_SHIFT = np.uint64(47)


def _shift_mix(v):
    return v ^ (v >> _SHIFT)


def _feature_hashes(feature):
    arr = np.asarray(feature)
    if arr.dtype == object or arr.dtype.kind in "SU":
        flat = [fingerprint64(s.encode("utf-8") if isinstance(s, str) else bytes(s)) for s in arr.reshape(-1)]
        return np.array(flat, dtype=np.uint64).reshape(arr.shape)
    return arr.astype(np.int64).view(np.uint64)


def _kernel(hashes, feature, num_buckets=0):
    with np.errstate(over="ignore"):  # the arithmetic is modulo 2 ** 64 by design
        combined = np.asarray(hashes, dtype=np.uint64) ^ _MUL
        combined = combined ^ (_shift_mix(_feature_hashes(feature) * _MUL) * _MUL)
        combined = combined * _MUL
        combined = _shift_mix(_shift_mix(combined) * _MUL)
    if num_buckets > 0:
        return (combined % np.uint64(num_buckets)).astype(np.int64)
    return combined


def _infer(inputs, attrs):
    R.check_input_dtype("HashedCrossStep", inputs, 0, _dt.uint64)
    dtype = inputs[1].dtype
    if not (dtype == _dt.string or dtype.is_integer):
        raise TypeError(f"HashedCrossStep: features must be strings or integers, got {dtype.name}")
    out = _dt.int64 if attrs.get("num_buckets", 0) > 0 else _dt.uint64
    return [Spec(inputs[1].shape, out)]


HashedCrossStep = defop("HashedCrossStep", inputs=("hashes", "feature"), kernel=_kernel, infer=_infer,
                        grad=NO_GRADIENT, doc="One FingerprintCat64 step of a hashed feature cross.")


def hashed_cross(features, num_buckets, hash_key=DEFAULT_HASH_KEY):
    """The bucket (int64) in [0, num_buckets) of the cross of equal-shaped string/integer `features`."""
    from ..array import basic as _array
    features = [as_tensor(f) for f in features]
    hashes = _array.fill(_array.shape(features[0]), _array.constant(np.uint64(hash_key), dtype=_dt.uint64))
    for i, feature in enumerate(features):
        last = i == len(features) - 1
        hashes = bind(HashedCrossStep, (hashes, feature), {"num_buckets": int(num_buckets) if last else 0})
    return hashes
