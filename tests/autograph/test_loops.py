"""`while`/`for` over tensors become tf.while_loop; over Python values they stay Python (unrolled)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import autograph

from .helpers import both


def countdown(n):
    s = 0
    while n > 0:
        s += n
        n -= 1
    return s


def sum_range(n):
    s = 0
    for i in tf.range(n):
        s += i * i
    return s


def sum_python_range(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def rows(t):
    s = 0.0
    for row in t:
        s += tf.reduce_sum(row)
    return s


def test_while_on_tensor_is_one_while_op():
    assert int(both(countdown, tf.constant(5))) == 15
    cf = tf.function(countdown).get_concrete_function(tf.TensorSpec([], tf.int32))
    assert {"While", "StatelessWhile"} & {op.type for op in cf.graph.get_operations()}


def test_for_over_tf_range_and_range_of_tensor():
    assert int(both(sum_range, tf.constant(4))) == 14
    assert int(both(sum_python_range, tf.constant(4))) == 14
    f = tf.function(sum_python_range)
    assert int(f(tf.constant(6))) == sum(i * i for i in range(6))
    assert f.experimental_get_tracing_count() == 1  # one loop op serves every n


def test_for_over_first_dimension_of_tensor():
    t = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2))
    assert float(both(rows, t)) == 15.0
    spec = [tf.TensorSpec([None, 2], tf.float32)]
    assert float(tf.function(rows, input_signature=spec)(t)) == 15.0


def test_python_loops_are_unrolled():
    @tf.function
    def unrolled(x):
        for _ in range(3):
            x = x * 2
        return x
    cf = unrolled.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert not {"While", "StatelessWhile"} & {op.type for op in cf.graph.get_operations()}
    assert float(unrolled(tf.constant(1.0))) == 8.0


def test_seed_000_dynamic_gather_with_unknown_length():
    def dynamic_gather(data, indices):
        result = []
        for i in range(len(indices)):
            result.append(data[indices[i]])
        return tf.stack(result)
    data = tf.constant([10.0, 20.0, 30.0])
    spec = [tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.int32)]
    f = tf.function(dynamic_gather, input_signature=spec)
    for idx in ([2, 0], [1, 1, 2, 0, 2]):
        expected = dynamic_gather(data, tf.constant(idx))  # eager: a Python loop and list
        np.testing.assert_allclose(f(data, tf.constant(idx)).numpy(), expected.numpy())
    assert f.experimental_get_tracing_count() == 1


def test_loop_variable_dtype_and_shape_errors_name_it():
    @tf.function
    def dtype_change(n):
        s = tf.constant(0)
        i = 0
        while i < n:
            s = tf.cast(s, tf.float32)
            i += 1
        return s
    with pytest.raises(TypeError, match="'s' has dtype int32 before the loop, but dtype float32 after one"):
        dtype_change(tf.constant(3))

    @tf.function
    def shape_change(n):
        s = tf.zeros([1])
        i = 0
        while i < n:
            s = tf.concat([s, [1.0]], 0)
            i += 1
        return s
    with pytest.raises(ValueError, match=r"'s' has shape \(1,\) before the loop, but shape \(2,\) after one "
                                         r"iteration. Use tf.autograph.experimental.set_loop_options"):
        shape_change(tf.constant(3))


def test_set_loop_options_shape_invariants():
    def grow(n):
        s = tf.zeros([1])
        i = 0
        while i < n:
            autograph.experimental.set_loop_options(shape_invariants=[(s, tf.TensorShape([None]))])
            s = tf.concat([s, [1.0]], 0)
            i += 1
        return s
    out = both(grow, tf.constant(3))
    np.testing.assert_allclose(out.numpy(), [0.0, 1.0, 1.0, 1.0])


def test_maximum_iterations_option():
    def capped(n):
        i = 0
        while i < n:
            autograph.experimental.set_loop_options(maximum_iterations=3)
            i += 1
        return i
    assert int(tf.function(capped)(tf.constant(10))) == 3


def test_undefined_before_loop():
    def defined_inside(n):
        i = 0
        while i < n:
            z = i * 2
            i += 1
        return z
    assert int(both(defined_inside, tf.constant(3))) == 4  # TensorFlow defines it from the first iteration

    @tf.function
    def sometimes(n):
        i = 0
        while i < n:
            if i > 1:
                z = i
            i += 1
        return z
    with pytest.raises(ValueError, match="'z' must be defined before the loop"):
        sometimes(tf.constant(3))

    @tf.function
    def becomes_none(n):
        s = 1.0
        i = 0
        while i < n:
            s = None
            i += 1
        return s
    with pytest.raises(ValueError, match="'s' is None at the end of the iteration"):
        becomes_none(tf.constant(3))


def test_gradient_through_converted_loop():
    @tf.function
    def power(x, n):
        y = tf.ones_like(x)
        for _ in tf.range(n):
            y = y * x
        return y
    x = tf.constant(1.5)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = power(x, tf.constant(3))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 3 * 1.5 ** 2, rtol=1e-6)


def test_break_as_the_last_statement_of_a_for_body_stops_the_loop():
    def first_square_over(limit, n):
        found = tf.constant(-1)
        for v in tf.range(n):
            if v * v > limit:
                found = v
                break
        return found

    assert first_square_over(tf.constant(10), tf.constant(10)).numpy() == 4  # eager: Python's own break
    assert tf.function(first_square_over)(tf.constant(10), tf.constant(10)).numpy() == 4


def test_gradient_tape_inside_a_converted_loop():
    def train(w, xs):
        total = tf.constant(0.0)
        for x in xs:
            with tf.GradientTape() as tape:
                loss = (w * x - 1.0) ** 2
            g = tape.gradient(loss, w)
            w.assign_sub(0.01 * g)
            total += loss
        return total

    w_eager, w_graph = tf.Variable(2.0), tf.Variable(2.0)
    xs = tf.constant([1.0, 2.0, 3.0])
    eager = train(w_eager, xs)
    graph = tf.function(train)(w_graph, xs)
    np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-6)
    np.testing.assert_allclose(w_graph.numpy(), w_eager.numpy(), rtol=1e-6)


def test_a_for_over_a_scalar_tensor_is_tensorflows_value_error():
    """TF 2.21: ValueError 'len requires a non-scalar tensor, got one of shape Tensor("Shape:0", shape=(0,),
    dtype=int32)' (its message, after the "in user code:" frame)."""
    @tf.function
    def f(x):
        for _ in x:
            pass
        return x

    with pytest.raises(ValueError, match=r'len requires a non-scalar tensor, got one of shape Tensor\("Shape:0", '
                                          r'shape=\(0,\), dtype=int32\)'):
        f(tf.constant(1.0))
