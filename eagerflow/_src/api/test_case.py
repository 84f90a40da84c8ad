"""`tf.test`: `TestCase` (a `unittest.TestCase` with TensorFlow's array assertions and `evaluate`)
and `main`, so test files written against TensorFlow run unchanged.

The assertions accept tensors, Variables, NumPy arrays, Python values and nested structures of them
(dicts, lists, tuples), compare them as TensorFlow's do (same tolerances, shape check first, NaN equal
to NaN) and fail with TensorFlow's words. `setUp` seeds Python, NumPy and `tf.random` with
TensorFlow's test seed, so random values repeat from run to run.

It lives under api/ (the top floor: it uses ops) rather than as a top-level module, so that no
`tf.testing` attribute appears beside TensorFlow's names.
"""
from __future__ import annotations

import collections.abc
import contextlib
import math
import random
import tempfile
import unittest

import numpy as np

from ..core import nest
from ..core.errors import OpError

_TEST_SEED = 87654321  # TensorFlow's DEFAULT_GRAPH_SEED, which its TestCase.setUp sets
_TOLERANCE = {np.dtype(np.float16): 1e-3, np.dtype(np.complex64): 1e-6}


def _numpy(value):
    """A tensor, Variable or array-like as an ndarray."""
    if hasattr(value, "numpy"):
        return np.asarray(value.numpy())
    if hasattr(type(value), "_as_tensor"):
        return np.asarray(value._as_tensor().numpy())
    return np.asarray(value)


class _Session:
    """What `with self.session() as sess: sess.run(x)` needs in eager TensorFlow 2 tests."""

    def __init__(self, case):
        self._case = case

    def run(self, fetches, feed_dict=None):
        return self._case.evaluate(fetches)


class TestCase(unittest.TestCase):
    """TensorFlow's `tf.test.TestCase`."""

    def setUp(self):
        super().setUp()
        random.seed(_TEST_SEED)
        np.random.seed(_TEST_SEED)
        from ..ops.random.draws import set_seed
        set_seed(_TEST_SEED)

    # --- running ---
    def evaluate(self, tensors):
        """The NumPy values of a (nested structure of) tensors and Variables."""
        def value(t):
            if hasattr(t, "numpy") or hasattr(type(t), "_as_tensor"):
                out = _numpy(t)
                return out[()] if out.ndim == 0 else out
            return t
        return nest.map_structure(value, tensors, expand_composites=True)

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        yield _Session(self)

    cached_session = session

    def get_temp_dir(self):
        if not hasattr(self, "_temp_dir"):
            self._temp_dir = tempfile.mkdtemp()
        return self._temp_dir

    # --- closeness and equality ---
    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        """Elementwise |a - b| <= atol + rtol * |b| over arrays or nested structures of them."""
        self._all_close_recursive(a, b, rtol, atol, [], msg)

    def _all_close_recursive(self, a, b, rtol, atol, path, msg):
        if isinstance(a, collections.abc.Mapping) or isinstance(b, collections.abc.Mapping):
            self.assertIsInstance(a, collections.abc.Mapping, f"Mismatched type at {path}: a is not a dict")
            self.assertIsInstance(b, collections.abc.Mapping, f"Mismatched type at {path}: b is not a dict")
            self.assertEqual(sorted(a), sorted(b), f"mismatched keys at {path}: {sorted(a)} vs {sorted(b)}")
            for k in a:
                self._all_close_recursive(a[k], b[k], rtol, atol, path + [k], msg)
            return
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            try:
                arrays = _numpy(a), _numpy(b)
            except (ValueError, TypeError):
                arrays = None
            if arrays is None or arrays[0].dtype == object or arrays[1].dtype == object:
                self.assertEqual(len(a), len(b), f"Length of {path} is {len(a)} vs {len(b)}")
                for i, (x, y) in enumerate(zip(a, b)):
                    self._all_close_recursive(x, y, rtol, atol, path + [i], msg)
                return
        self._arrays_close(_numpy(a), _numpy(b), rtol, atol, path, msg)

    def _arrays_close(self, a, b, rtol, atol, path, msg):
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}.")
        for x in (a, b):  # half precision gets TensorFlow's looser default tolerance
            if x.dtype in _TOLERANCE:
                rtol, atol = max(rtol, _TOLERANCE[x.dtype]), max(atol, _TOLERANCE[x.dtype])
        where = f" at path {path}" if path else ""
        text = [f"Mismatched value: a is different from b{where}. ", f"dtype = {a.dtype}, shape = {a.shape}"]
        if msg:
            text.insert(0, str(msg))
        np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(text), equal_nan=True)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,
                                      half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """assertAllClose with the tolerance of the least precise of the two dtypes."""
        a_np, b_np = _numpy(a), _numpy(b)
        dtypes = {a_np.dtype, b_np.dtype}
        if np.dtype(np.float16) in dtypes:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        elif dtypes & {np.dtype(np.float32), np.dtype(np.complex64)}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        self.assertAllClose(a_np, b_np, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError(f"The two values are close at all elements. {msg or ''}")

    def assertAllEqual(self, a, b, msg=None):
        a, b = _numpy(a), _numpy(b)
        self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. Contents: {b!r}. "
                                           f"\n{msg or ''}.")
        np.testing.assert_array_equal(a, b, err_msg=str(msg or ""))

    def assertNotAllEqual(self, a, b, msg=None):
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"The two values are equal at all elements. {msg or ''}")

    # --- ordering and ranges ---
    def assertAllGreater(self, a, comparison_target):
        self.assertGreater(np.min(_numpy(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):
        self.assertLess(np.max(_numpy(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):
        self.assertGreaterEqual(np.min(_numpy(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):
        self.assertLessEqual(np.max(_numpy(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False, open_upper_bound=False):
        t = _numpy(target)
        below = t <= lower_bound if open_lower_bound else t < lower_bound
        above = t >= upper_bound if open_upper_bound else t > upper_bound
        bad = np.argwhere(below | above)
        if bad.size:
            lo, hi = "(" if open_lower_bound else "[", ")" if open_upper_bound else "]"
            lines = [f"  {[int(k) for k in i]} : {t[tuple(i)]}" for i in bad]
            raise AssertionError(f"{len(bad)} of the {t.size} element(s) are outside the range "
                                 f"{lo}{lower_bound}, {upper_bound}{hi}. Subscript(s) and value(s) of the offending "
                                 f"elements:\n" + "\n".join(lines))

    def assertAllInSet(self, target, expected_set):
        t = _numpy(target)
        diff = set(t.ravel().tolist()) - set(np.asarray(list(expected_set)).ravel().tolist())
        if diff:
            raise AssertionError(f"{len(diff)} unique element(s) are not in the set {set(expected_set)}: {diff}")

    # --- shapes, dtypes, scalars ---
    def assertShapeEqual(self, input_a, input_b, msg=None):
        self.assertEqual(tuple(_numpy(input_a).shape), tuple(getattr(input_b, "shape", np.shape(input_b))),
                         msg=msg)

    def assertDTypeEqual(self, target, expected_dtype):
        expected = getattr(expected_dtype, "as_numpy_dtype", expected_dtype)
        self.assertEqual(_numpy(target).dtype, np.dtype(expected))

    def assertNear(self, f1, f2, err, msg=None):
        self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err,
                        f"{f1:f} != {f2:f} +/- {err:f}" + (f" ({msg})" if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertItemsEqual(self, first, second, msg=None):
        self.assertCountEqual(first, second, msg=msg)

    def assertLen(self, container, expected_len, msg=None):
        if len(container) != expected_len:
            self.fail(msg or f"{container!r} has length of {len(container)}, expected {expected_len}.")

    def assertRaisesOpError(self, expected_err_re_or_predicate):
        return self.assertRaisesRegex(OpError, expected_err_re_or_predicate)


def main(argv=None):
    """`tf.test.main`: runs the calling module's tests (unittest's runner)."""
    return unittest.main(argv=argv)


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    return False


def is_built_with_cuda():
    return False


def is_built_with_gpu_support():
    return False


def is_built_with_rocm():
    return False


def is_built_with_xla():
    return False


def gpu_device_name():
    return ""
