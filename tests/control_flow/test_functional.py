"""tf.map_fn, tf.scan, tf.foldl, tf.foldr, tf.vectorized_map: values (TF 2.21's output for the same
calls), structures, errors, tracing into one While op, gradients."""
import numpy as np
import pytest

import eagerflow as tf

X = tf.constant([[1., 2.], [3., 4.], [5., 6.]])


def _both(fn):
    """fn() eagerly and inside tf.function."""
    return [fn(), tf.function(fn)()]


def _eq(t, values):
    np.testing.assert_array_equal(np.asarray(t.numpy()), values)


def test_map_fn():
    for out in _both(lambda: tf.map_fn(lambda r: r * 2, X)):
        _eq(out, [[2., 4.], [6., 8.], [10., 12.]])
    for out in _both(lambda: tf.map_fn(lambda r: tf.reduce_sum(r), X, fn_output_signature=tf.float32)):
        _eq(out, [3., 7., 11.])
    for out in _both(lambda: tf.map_fn(lambda r: tf.cast(tf.reduce_sum(r), tf.int32), X,
                                       fn_output_signature=tf.int32)):
        assert out.dtype == tf.int32
        _eq(out, [3, 7, 11])
    _eq(tf.map_fn(lambda r: tf.reduce_sum(r), X, dtype=tf.float32), [3., 7., 11.])
    _eq(tf.map_fn(lambda r: r[:1], X, fn_output_signature=tf.TensorSpec([1], tf.float32)), [[1.], [3.], [5.]])
    for a, b in _both(lambda: tf.map_fn(lambda t: (t, t * 2), tf.constant([1, 2]),
                                        fn_output_signature=(tf.int32, tf.int32))):
        _eq(a, [1, 2])
        _eq(b, [2, 4])
    pair = (tf.constant([1, 2]), tf.constant([10, 20]))
    out = tf.map_fn(lambda t: (t[0] + t[1], t[1]), pair)
    _eq(out[0], [11, 22])
    _eq(out[1], [10, 20])


@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.map_fn(lambda r: tf.cast(tf.reduce_sum(r), tf.int32), X), tf.errors.InvalidArgumentError,
     "TensorArray dtype is float32 but Op is trying to write dtype int32"),
    (lambda: tf.map_fn(lambda t: (t, t * 2), tf.constant([1, 2])), ValueError,
     "The two structures don't have the same nested structure."),
    (lambda: tf.map_fn(lambda t: t[0], (tf.constant([1, 2]), tf.constant([10, 20, 30]))), ValueError,
     "Dimensions 2 and 3 are not compatible"),
    (lambda: tf.map_fn(lambda t: t, tf.constant(1.0)), ValueError,
     "Elements in elems must be 1+ dimensional Tensors, not scalars"),
])
def test_map_fn_errors(call, error, message):  # TF's classes and messages
    with pytest.raises(error) as info:
        call()
    assert message in str(info.value)


def test_scan():
    for out in _both(lambda: tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4, 5, 6]))):
        _eq(out, [1, 3, 6, 10, 15, 21])
    for out in _both(lambda: tf.scan(lambda a, x: a * x, tf.constant([1, 2, 3]), initializer=tf.constant(2))):
        _eq(out, [2, 4, 12])
    for out in _both(lambda: tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3]), reverse=True)):
        _eq(out, [6, 5, 3])
    for a, b in _both(lambda: tf.scan(lambda a, _: (a[1], a[0] + a[1]), tf.constant([1, 2, 3, 4, 5]),
                                      initializer=(tf.constant(0), tf.constant(1)))):
        _eq(a, [1, 1, 2, 3, 5])
        _eq(b, [1, 2, 3, 5, 8])
    out = tf.scan(lambda a, x: a + x[0] * x[1], (tf.constant([1, 2, 3]), tf.constant([4, 5, 6])),
                  initializer=tf.constant(0))
    _eq(out, [4, 14, 32])


def test_folds():
    for out in _both(lambda: tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3, 4, 5, 6]))):
        _eq(out, 21)
    for out in _both(lambda: tf.foldl(lambda a, x: a - x, tf.constant([1, 2, 3]), initializer=tf.constant(10))):
        _eq(out, 4)
    for out in _both(lambda: tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3]), initializer=tf.constant(10))):
        _eq(out, 4)
    for out in _both(lambda: tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]))):
        _eq(out, 321)
    a, b = tf.foldl(lambda a, x: (a[0] + x[0], a[1] + x[1]), (tf.constant([1, 2]), tf.constant([3., 4.])))
    assert (a.dtype, b.dtype) == (tf.int32, tf.float32)
    _eq(a, 3)
    _eq(b, 7.0)


def test_vectorized_map():
    for out in _both(lambda: tf.vectorized_map(lambda r: r * 2, X)):
        _eq(out, [[2., 4.], [6., 8.], [10., 12.]])
    for out in _both(lambda: tf.vectorized_map(lambda t: t[0] + t[1], (tf.constant([1, 2]), tf.constant([10, 20])))):
        _eq(out, [11, 22])


def test_map_fn_traces_to_tensorflows_ops_and_takes_unknown_lengths():
    f = tf.function(lambda x: tf.map_fn(lambda r: r * 2, x))
    cf = f.get_concrete_function(tf.TensorSpec([None, 2]))
    types = {op.type for op in cf.graph.get_operations()}
    # TF 2.21's graph for the same function has these op types:
    assert types == {"Const", "Identity", "Placeholder", "Shape", "StatelessWhile", "StridedSlice",
                     "TensorListFromTensor", "TensorListReserve", "TensorListStack"}
    _eq(cf(X), [[2., 4.], [6., 8.], [10., 12.]])
    _eq(cf(tf.ones([1, 2])), [[2., 2.]])


def test_gradients_through_map_fn_and_scan():
    v = tf.constant([1., 2., 3.])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        mapped = tf.reduce_sum(tf.map_fn(lambda e: e * e, v))
        scanned = tf.scan(lambda a, e: a * e, v)
        folded = tf.foldl(lambda a, e: a * e, v, initializer=tf.constant(1.0))
    _eq(tape.gradient(mapped, v), [2., 4., 6.])  # TF
    _eq(tape.gradient(scanned, v), [9., 4., 2.])  # TF
    _eq(tape.gradient(folded, v), [6., 3., 2.])


def test_gradients_inside_tf_function():
    """Traced, the loop's gradient reaches the TensorList of elements the body reads (it failed with
    "'numpy.ndarray' object has no attribute 'payload'" before while_loop kept that gradient a list)."""
    @tf.function
    def grads(v):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(v)
            mapped = tf.reduce_sum(tf.map_fn(lambda e: e * e, v))
            scanned = tf.scan(lambda a, e: a * e, v)
            folded = tf.foldr(lambda a, e: a * e, v, initializer=tf.constant(1.0))
        return tape.gradient(mapped, v), tape.gradient(scanned, v), tape.gradient(folded, v)
    g_map, g_scan, g_fold = grads(tf.constant([1., 2., 3.]))
    _eq(g_map, [2., 4., 6.])  # TF
    _eq(g_scan, [9., 4., 2.])  # TF
    _eq(g_fold, [6., 3., 2.])


def test_gradient_of_a_traced_loop_reading_a_tensor_array():
    @tf.function(autograph=False)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=3).unstack(x)
            _, total = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + ta.read(i) * ta.read(i)),
                                     (0, tf.constant(0.0)))
        return tape.gradient(total, x)
    _eq(f(tf.constant([1., 2., 3.])), [2., 4., 6.])


def test_scan_and_fold_of_nothing_without_initializer():  # TF 2.21's class and message
    for fn in (tf.scan, tf.foldl, tf.foldr):
        with pytest.raises(tf.errors.OutOfRangeError, match="Tried to read from index 0 but array size is: 0"):
            fn(lambda a, x: a + x, tf.constant([], tf.int32))


def test_vectorized_map_runs_fn_once_per_element(capsys):
    """Finding the output signature does not run fn (a print inside it shows once per element)."""
    def fn(r):
        tf.print("row", r)
        return r * 2
    _eq(tf.vectorized_map(fn, tf.constant([1, 2])), [2, 4])
    _eq(tf.function(lambda x: tf.vectorized_map(fn, x))(tf.constant([1, 2])), [2, 4])
    printed = capsys.readouterr()
    assert (printed.out + printed.err).count("row") == 4


def test_map_fn_output_shape_may_differ_from_the_element_shape():
    # TensorFlow 2.21: the default fn_output_signature takes elems' dtypes, not their shapes, so a
    # reducing fn works: tf.map_fn(lambda r: tf.reduce_sum(r), x) -> [3. 7. 11.] eagerly and traced.
    x = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    np.testing.assert_array_equal(tf.map_fn(lambda r: tf.reduce_sum(r), x).numpy(), [3.0, 7.0, 11.0])
    traced = tf.function(lambda x: tf.map_fn(lambda r: tf.reduce_sum(r), x))
    np.testing.assert_array_equal(traced(x).numpy(), [3.0, 7.0, 11.0])
    widened = tf.map_fn(lambda r: tf.concat([r, r], 0), x)
    np.testing.assert_array_equal(widened.numpy(), np.concatenate([x.numpy(), x.numpy()], 1))
