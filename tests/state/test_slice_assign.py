"""`v[...].assign(x)`: slice assignment of variables, eager and traced; results from TF 2.21 runs."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf


def test_slice_assignment_eagerly():
    w = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert w[0].assign([7.0, 8.0, 9.0]) is w
    w[1, 1:3].assign([0.0, 0.0])
    w[:, 0].assign([10.0, 11.0])
    np.testing.assert_array_equal(w.numpy(), [[10, 8, 9], [11, 0, 0]])  # TF 2.21
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    np.testing.assert_array_equal(v[1:3].assign([9.0, 9.0]).numpy(), [1, 9, 9, 4])
    np.testing.assert_array_equal(v[::2].assign([0.0, 0.0]).numpy(), [0, 9, 0, 4])
    np.testing.assert_array_equal(v[-1].assign(5.0).numpy(), [0, 9, 0, 5])
    np.testing.assert_array_equal(v[1:3].assign(5.0).numpy(), [0, 5, 5, 5])  # broadcast


def test_tensor_indices_ellipsis_and_newaxis():
    w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    w[tf.constant(1), :].assign([0.0, 0.0])
    w[..., 0].assign([5.0, 5.0])
    w[:, tf.newaxis, 1].assign([[7.0], [7.0]])
    np.testing.assert_array_equal(w.numpy(), [[5, 7], [5, 7]])  # TF 2.21


def test_a_slice_is_a_snapshot_that_writes_to_the_current_value():
    w = tf.Variable([1.0, 2.0, 3.0])
    s = w[1:3]
    assert isinstance(s, tf.Tensor)
    w.assign([7.0, 7.0, 7.0])
    np.testing.assert_array_equal(s.numpy(), [2, 3])
    np.testing.assert_array_equal(s.assign([0.0, 0.0]).numpy(), [7, 0, 0])  # TF 2.21


def test_errors_as_tensorflow():
    w = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Cannot broadcast input shape \[3\] into final shape "
                                                             r"\[2\]"):
        w[1:3].assign([9.0, 9.0, 9.0])
    with pytest.raises(ValueError, match="Tensor conversion requested dtype float32 for Tensor with dtype int32"):
        w[1:3].assign(tf.constant([1, 2]))
    with pytest.raises(AttributeError, match="assign_add"):
        w[1:3].assign_add([1.0, 1.0])  # TF attaches only `assign`
    with pytest.raises(TypeError, match="read_value"):
        w[1:3].assign([1.0, 2.0], read_value=False)
    assert not hasattr(w[1:3] + 0.0, "assign") and not hasattr(tf.constant([1.0])[0:], "assign")
    assert not hasattr(w[tf.constant([True, False, True, False])], "assign")  # a boolean mask: TF too


def test_slice_assignment_traced():
    @tf.function
    def f(w, x):
        w[1:3].assign(x)
        w[0].assign(x[0] * 2)
        return w.read_value()

    np.testing.assert_array_equal(f(tf.Variable([1.0, 2.0, 3.0, 4.0]), tf.constant([7.0, 8.0])).numpy(),
                                  [14, 7, 8, 4])  # TF 2.21
    captured = tf.Variable([1.0, 2.0, 3.0])
    g = tf.function(lambda i: captured[i].assign(0.0).read_value())
    np.testing.assert_array_equal(g(tf.constant(1)).numpy(), [1, 0, 3])
    np.testing.assert_array_equal(g(tf.constant(2)).numpy(), [1, 0, 0])


def test_reads_after_a_slice_assignment_keep_their_gradient():
    def step(w):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(w * w)
            w[0].assign(10.0)
            z = y + tf.reduce_sum(w)
        return tape.gradient(z, w), w.read_value()

    for run in (step, tf.function(step)):
        g, value = run(tf.Variable([1.0, 2.0, 3.0, 4.0]))
        np.testing.assert_array_equal(g.numpy(), [3, 5, 7, 9])  # TF 2.21, eager and traced
        np.testing.assert_array_equal(value.numpy(), [10, 2, 3, 4])
    w = tf.Variable([1.0, 2.0, 3.0, 4.0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(w[1:3] * w[1:3])
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [0, 4, 6, 0])


def test_slices_do_not_outlive_their_tensors():
    from eagerflow._src.state import slice_assign
    before = len(slice_assign._ORIGINS)
    refs = []
    for _ in range(2000):
        v = tf.Variable([1.0, 2.0, 3.0])
        s = v[1:]
        s.assign([0.0, 0.0])
        refs.append(weakref.ref(v))
        del v, s
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert len(slice_assign._ORIGINS) == before


def test_slice_and_scatter_updates_inside_tensor_control_flow():
    v = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def f(x):
        if x > 0:
            v[0].assign(x)
            v.scatter_nd_add([[2]], [x])
        else:
            v[1:].assign([0.0, 0.0])
        return v.read_value()

    np.testing.assert_array_equal(f(tf.constant(5.0)).numpy(), [5, 2, 8])
    np.testing.assert_array_equal(f(tf.constant(-1.0)).numpy(), [5, 0, 0])

    @tf.function
    def g(n):
        i = tf.constant(0)
        while i < n:
            v[i].assign(tf.cast(i, tf.float32) * 10.0)
            i += 1
        return v.read_value()

    np.testing.assert_array_equal(g(tf.constant(3)).numpy(), [0, 10, 20])
