"""tf.while_loop, tf.cond and TensorArray where programs written for TensorFlow met differences:
answers recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import eagerflow as tf


def test_maximum_iterations_may_be_a_symbolic_tensor():
    # TF 2.21: the loop stops at whichever comes first: [3] for a bound of 3, [10] for 30
    @tf.function
    def bounded(t):
        return tf.while_loop(lambda i: i < 10, lambda i: i + 1, [tf.constant(0)], maximum_iterations=t)

    assert [int(v) for v in bounded(tf.constant(3))] == [3]
    assert [int(v) for v in bounded(tf.constant(30))] == [10]
    assert [int(v) for v in bounded(tf.constant(0))] == [0]

    @tf.function
    def two_vars(t):
        return tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 2.0), (0, tf.constant(1.0)),
                             maximum_iterations=t)

    i, s = two_vars(tf.constant(2))
    assert int(i) == 2 and float(s) == 4.0


def test_a_loop_variable_changing_dtype_is_refused_in_tensorflow_words():
    @tf.function
    def widen(t):
        return tf.while_loop(lambda i: i < 10, lambda i: tf.cast(i, tf.float16), [tf.constant(0.)])

    with pytest.raises(TypeError, match=r"^Loop var Const:0 enters the loop with type <dtype: 'float32'> but has type "
                                        r"<dtype: 'float16'> after 1 iteration. Const:0 type should remain "
                                        r"constant.$"):
        widen(tf.constant(3))


def test_while_ops_are_named_as_tensorflow_names_them():
    def two_loops(x):
        a = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [x])
        b = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [x])
        return a, b

    graph = tf.function(two_loops).get_concrete_function(tf.TensorSpec([], tf.int32)).graph
    loops = [op.name for op in graph.get_operations() if op.type in ("While", "StatelessWhile")]
    assert loops == ["while", "while_1"]  # TF 2.21
    assert graph.get_operation_by_name("while_1").type == "StatelessWhile"


def test_tensor_array_stack_has_the_static_size_tensorflow_infers():
    shapes = {}

    @tf.function
    def arrays():
        fixed = tf.TensorArray(tf.float32, size=3)
        for i in tf.range(3):
            fixed = fixed.write(i, tf.ones([3]))
        shapes["loop"] = fixed.stack().shape.as_list()
        shapes["declared"] = tf.TensorArray(tf.float32, size=3, element_shape=[2]).stack().shape.as_list()
        growing = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for i in tf.range(3):
            growing = growing.write(i, tf.ones([3]))
        shapes["dynamic"] = growing.stack().shape.as_list()
        one = tf.TensorArray(tf.float32, size=3).write(0, tf.ones([2, 2]))
        shapes["one write"] = one.stack().shape.as_list()
        return fixed.stack()

    np.testing.assert_array_equal(arrays().numpy(), np.ones([3, 3], np.float32))
    # TF 2.21: (3, 3), (3, 2), (None, 3), (3, 2, 2)
    assert shapes == {"loop": [3, 3], "declared": [3, 2], "dynamic": [None, 3], "one write": [3, 2, 2]}


def test_tensor_array_gradient_when_the_array_grew():
    x = tf.Variable([1., 2., 3.])

    @tf.function
    def grown_in_a_loop(n):
        with tf.GradientTape() as tape:
            arr = tf.TensorArray(tf.float32, size=1, dynamic_size=True)

            def body(i, a):
                return i + 1, a.write(i, x * tf.cast(i, tf.float32))
            _, arr = tf.while_loop(lambda i, a: i < n, body, [0, arr])
            y = tf.reduce_sum(arr.stack())
        return tape.gradient(y, x)

    @tf.function
    def grown_past_its_size():
        with tf.GradientTape() as tape:
            arr = tf.TensorArray(tf.float32, size=3, dynamic_size=True)
            for i in tf.range(4):
                arr = arr.write(i, x * tf.cast(i, tf.float32))
            y = tf.reduce_sum(arr.stack() * tf.constant([[1.], [2.], [3.], [4.]]))
        return tape.gradient(y, x)

    # TF 2.21: [6, 6, 6] (0 + 1 + 2 + 3) and [20, 20, 20] (0*1 + 1*2 + 2*3 + 3*4)
    np.testing.assert_array_equal(grown_in_a_loop(tf.constant(4)).numpy(), [6., 6., 6.])
    np.testing.assert_array_equal(grown_past_its_size().numpy(), [20., 20., 20.])
