"""tf.Variable: state across calls, reads as tensors, assign semantics and errors as in TensorFlow."""
import copy

import numpy as np
import pytest

import eagerflow as tf


def test_construction_and_repr():
    v = tf.Variable([1.0, 2.0])
    assert repr(v) == "<tf.Variable 'Variable:0' shape=(2,) dtype=float32, numpy=array([1., 2.], dtype=float32)>"
    assert v.name == "Variable:0" and tf.Variable(1.0, name="w").name == "w:0"
    assert v.dtype is tf.float32 and v.shape == tf.TensorShape([2]) and v.trainable
    assert not isinstance(v, tf.Tensor)
    assert tf.Variable(lambda: tf.zeros([3])).shape == [3]
    assert tf.Variable(1, dtype=tf.float64).dtype is tf.float64
    assert tf.Variable(np.arange(3)).dtype is tf.int64


def test_initial_value_is_required():
    with pytest.raises(ValueError, match="initial_value"):
        tf.Variable()


def test_reads_are_snapshots_and_assign_changes_state():
    v = tf.Variable(1.0)
    before = v.read_value()
    v.assign(5.0)
    assert before.numpy() == 1.0 and v.numpy() == 5.0
    v.assign_add(2.0)
    v.assign_sub(0.5)
    assert v.numpy() == 6.5
    assert v.assign(1.0) is v


def test_variables_work_in_every_op_and_operator():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose((v + 1).numpy(), [[2, 3], [4, 5]])
    np.testing.assert_allclose((2 * v).numpy(), [[2, 4], [6, 8]])
    np.testing.assert_allclose(tf.matmul(v, v).numpy(), np.array([[7, 10], [15, 22]]))
    np.testing.assert_allclose((v @ v).numpy(), np.array([[7, 10], [15, 22]]))
    np.testing.assert_allclose(tf.reduce_sum(v).numpy(), 10.0)
    np.testing.assert_allclose(np.asarray(v), [[1, 2], [3, 4]])
    assert float(tf.Variable(2.5)) == 2.5 and f"{tf.Variable(0.25):.2f}" == "0.25"


def test_assign_shape_mismatch_raises_like_tensorflow():
    v = tf.Variable([1.0, 2.0])
    with pytest.raises(ValueError, match="Shape mismatch"):
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot update variable with shape \\[2\\] using a "
                                                             "Tensor with shape \\[3\\]"):
        v.assign_add([1.0, 2.0, 3.0])


def test_assign_dtype_rules():
    v = tf.Variable([1.0, 2.0])
    v.assign([3, 4])  # Python ints convert to the variable's dtype
    np.testing.assert_array_equal(v.numpy(), [3.0, 4.0])
    with pytest.raises((TypeError, ValueError)):
        v.assign(tf.constant([1, 2]))


def test_unhashable_but_ref_works():
    v = tf.Variable(1.0)
    with pytest.raises(TypeError, match="Variable is unhashable"):
        hash(v)
    assert {v.ref(): 1}[v.ref()] == 1


def test_deepcopy_is_independent():
    v = tf.Variable([1.0])
    w = copy.deepcopy(v)
    w.assign([5.0])
    assert v.numpy()[0] == 1.0 and w.numpy()[0] == 5.0


def test_gradient_descent_on_variables_converges():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(64, 3)).astype(np.float32)
    true_w = np.array([[1.5], [-2.0], [0.5]], np.float32)
    y = x @ true_w + 0.3
    w = tf.Variable(tf.zeros([3, 1]))
    b = tf.Variable(0.0)
    for _ in range(300):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
    np.testing.assert_allclose(w.numpy(), true_w, atol=1e-3)
    np.testing.assert_allclose(b.numpy(), 0.3, atol=1e-3)
