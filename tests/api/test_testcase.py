"""tf.test.TestCase: a user's TensorFlow test class runs unchanged; assertions pass and fail as
TensorFlow 2.21's do (messages checked for TensorFlow's key words)."""
import re
import unittest

import numpy as np
import pytest

import eagerflow as tf


class _Case(tf.test.TestCase):
    def runTest(self):
        pass


@pytest.fixture
def case():
    c = _Case()
    c.setUp()
    return c


def test_a_tensorflow_style_test_module_runs():
    class SquareTest(tf.test.TestCase):
        def testSquare(self):
            x = tf.square([2, 3])
            self.assertAllEqual(x, [4, 9])
            self.assertAllClose(self.evaluate(tf.sqrt(tf.constant([4.0, 9.0]))), [2.0, 3.0])

        def testFails(self):
            self.assertAllEqual(tf.constant([1, 2]), [1, 3])

        def testRaises(self):
            with self.assertRaisesRegex(tf.errors.InvalidArgumentError, "Input is not invertible"):
                tf.linalg.inv(tf.zeros([2, 2]))
    assert issubclass(SquareTest, unittest.TestCase)
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(SquareTest).run(result)
    assert result.testsRun == 3 and len(result.failures) == 1 and not result.errors
    assert "testFails" in str(result.failures[0][0])
    assert tf.test.main is not None and not tf.test.is_gpu_available() and tf.test.gpu_device_name() == ""


def test_evaluate(case):
    out = case.evaluate({"a": tf.constant(1), "b": [tf.constant(2.0)], "v": tf.Variable(3.0), "n": None})
    assert out["a"] == 1 and out["b"][0] == 2.0 and out["v"] == 3.0 and out["n"] is None  # TF
    np.testing.assert_array_equal(case.evaluate(tf.constant([1, 2])), [1, 2])
    with case.cached_session() as sess:
        assert sess.run(tf.constant(5)) == 5


def test_all_close(case):
    case.assertAllClose(tf.constant([1.0, 2.0]), np.array([1.0, 2.0 + 1e-7]))  # TF: passes
    case.assertAllClose({"a": tf.constant(1.0), "b": [tf.constant(2.0), 3.0]}, {"a": 1.0, "b": [2.0, 3.0]})
    case.assertAllClose([1.0], [1.0 + 2e-6])  # TF: passes (atol + rtol * |b|)
    case.assertAllClose(np.float16([1.0]), np.float16([1.0005]))  # half: TF's 1e-3 tolerance
    case.assertAllClose([np.nan], [np.nan])
    with pytest.raises(AssertionError, match="Not equal to tolerance rtol=1e-06, atol=1e-06") as info:
        case.assertAllClose([1.0, 2.0], [1.0, 2.1])
    assert "Mismatched value: a is different from b." in str(info.value)  # TF's words
    with pytest.raises(AssertionError, match=r"Shape mismatch: expected \(2,\), got \(3,\) with contents"):
        case.assertAllClose([1.0, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(AssertionError):
        case.assertAllClose([[1.0], [2.0, 3.0]], [[1.0], [2.0, 4.0]])  # ragged: compared item by item
    case.assertAllCloseAccordingToType(np.float32(1.0), np.float32(1.0 + 1e-7))
    case.assertNotAllClose([1.0], [2.0])
    with pytest.raises(AssertionError, match="The two values are close at all elements."):
        case.assertNotAllClose([1.0], [1.0])


def test_all_equal(case):
    case.assertAllEqual(tf.constant([[1, 2]]), np.array([[1, 2]]))
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        case.assertAllEqual([1, 2], [1, 3])
    with pytest.raises(AssertionError, match=r"Shape mismatch: expected \(2,\), got \(3,\). Contents"):
        case.assertAllEqual([1, 2], [1, 2, 3])
    case.assertNotAllEqual([1], [2])
    with pytest.raises(AssertionError, match="The two values are equal at all elements."):
        case.assertNotAllEqual([1.0], [1.0])


def test_orderings_and_ranges(case):
    case.assertAllGreater(tf.constant([2, 3]), 1)
    case.assertAllLess([1, 2], 3)
    case.assertAllGreaterEqual([1, 2], 1)
    # TF: "np.int64(1) not greater than 1" (the NumPy scalar's repr: NumPy 1.26 writes it "1")
    with pytest.raises(AssertionError, match=re.escape(f"{np.int64(1)!r} not greater than 1")):
        case.assertAllGreater([1, 2], 1)
    with pytest.raises(AssertionError, match=re.escape(f"{np.int64(2)!r} not less than or equal to 1")):
        case.assertAllLessEqual([1, 2], 1)
    with pytest.raises(AssertionError) as info:
        case.assertAllInRange([1, 5], 0, 4)
    assert str(info.value) == ("1 of the 2 element(s) are outside the range [0, 4]. Subscript(s) and value(s) of "
                               "the offending elements:\n  [1] : 5")  # TF
    case.assertAllInRange([0, 4], 0, 4)
    case.assertAllInSet([1, 2, 1], {1, 2})
    with pytest.raises(AssertionError):
        case.assertAllInSet([1, 3], {1, 2})


def test_shapes_dtypes_and_scalars(case):
    case.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3]))
    case.assertDTypeEqual(np.zeros([2], np.float32), np.float32)
    case.assertDTypeEqual(tf.constant([1.0]), tf.float32)
    with pytest.raises(AssertionError, match=r"1.000000 != 1.050000 \+/- 0.010000"):  # TF
        case.assertNear(1.0, 1.05, 0.01)
    with pytest.raises(AssertionError, match=r"2.000000 != 2.500000 \+/- 0.100000"):  # TF
        case.assertArrayNear([1.0, 2.0], [1.0, 2.5], 0.1)
    case.assertItemsEqual([1, 2], [2, 1])
    case.assertLen([1, 2], 2)
    with case.assertRaisesOpError("not invertible"):
        tf.linalg.inv(tf.zeros([2, 2]))


def test_set_up_seeds_random_ops_reproducibly():
    a, b = _Case(), _Case()
    a.setUp()
    first = tf.random.uniform([3]).numpy()
    b.setUp()
    np.testing.assert_array_equal(tf.random.uniform([3]).numpy(), first)


def test_importing_eagerflow_does_not_load_unittest():
    import subprocess
    import sys
    code = "import sys, eagerflow; print('eagerflow._src.api.test_case' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
