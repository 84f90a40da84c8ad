"""HashedCrossStep: one step of TensorFlow's hashed feature cross (`tf.sparse.cross_hashed` on dense
features, what keras.layers.HashedCrossing and FeatureSpace's crosses compute), element by element.

What TensorFlow does, restated: a cross of features f1..fn starts from the 64-bit key 0xDECAFCAFFE and
folds in each feature's hash with FingerprintCat64 (a multiply-and-shift-mix combine); a string's hash is
its FarmHash Fingerprint64, an integer's hash is the integer itself (as 64 unsigned bits). The crossed id
is the final value modulo `num_buckets` (as an unsigned number), or modulo 2**63 - 1 without buckets.

Here one op folds one feature into the running value (an int64 holding the 64 bits): `num_buckets`
< 0 means "not the last feature", so an n-way cross is n steps from `initial_cross_value()`. No
gradient; not compiled under jit_compile (strings).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..math.elementwise import cast
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from .farmhash import fingerprint64

_MASK = (1 << 64) - 1
_MUL = 0xC6A4A7935BD1E995
CROSS_KEY = 0xDECAFCAFFE
_MAX_INT64 = (1 << 63) - 1


def _shift_mix(v):
    return v ^ (v >> 47)


def _combine(fp1, fp2):
    """FingerprintCat64: the fingerprint of the pair (fp1, fp2), all values 64 unsigned bits."""
    result = fp1 ^ _MUL
    result ^= (_shift_mix((fp2 * _MUL) & _MASK) * _MUL) & _MASK
    result = (result * _MUL) & _MASK
    result = (_shift_mix(result) * _MUL) & _MASK
    return _shift_mix(result)


def _feature_hash(value):
    if isinstance(value, (bytes, str)):
        return fingerprint64(value.encode("utf-8") if isinstance(value, str) else value)
    return int(value) & _MASK


def _kernel(accumulated, feature, num_buckets=-1):
    acc = np.asarray(accumulated, np.int64)
    feat = np.asarray(feature, dtype=object if np.asarray(feature).dtype == object else np.int64)
    acc, feat = np.broadcast_arrays(acc, feat)
    out = np.empty(acc.shape, np.int64)
    flat_acc, flat_feat, flat_out = acc.reshape(-1), feat.reshape(-1), out.reshape(-1)
    for i in range(flat_out.size):
        value = _combine(int(flat_acc[i]) & _MASK, _feature_hash(flat_feat[i]))
        if num_buckets > 0:
            value %= num_buckets
        elif num_buckets == 0:
            value %= _MAX_INT64
        flat_out[i] = value - (1 << 64) if value > _MAX_INT64 else value
    return out


def _infer(inputs, attrs):
    R.check_input_dtype("HashedCrossStep", inputs, 0, _dt.int64)
    return [Spec(R.broadcast_shape(inputs[0].shape, inputs[1].shape), _dt.int64)]


HashedCrossStep = defop("HashedCrossStep", inputs=("accumulated", "feature"), kernel=_kernel, infer=_infer,
                        grad=NO_GRADIENT, doc="Folds one feature (string or integer) into a hashed cross.")


def initial_cross_value():
    return as_tensor(np.int64(CROSS_KEY))


def hashed_cross(features, num_buckets):
    """The int64 crossed ids of same-shaped string or integer `features`, in [0, num_buckets)."""
    acc = initial_cross_value()
    for i, feature in enumerate(features):
        feature = as_tensor(feature)
        if feature.dtype.is_integer and feature.dtype is not _dt.int64:
            feature = cast(feature, _dt.int64)
        last = i == len(features) - 1
        acc = bind(HashedCrossStep, (acc, feature), {"num_buckets": int(num_buckets) if last else -1})
    return acc
