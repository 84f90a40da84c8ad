"""tf.py_function / tf.numpy_function: eager and inside tf.function and tf.data, gradients, errors
and graph op types, as TensorFlow 2.21 gives them (its outputs on the same calls written in)."""
import tempfile

import numpy as np
import pytest

import eagerflow as tf

X = tf.constant([1., 2., 3.])


def test_results_follow_tout_as_tensorflow():
    assert tf.py_function(lambda a: a * 2, [X], tf.float32).numpy().tolist() == [2, 4, 6]
    doubled, ints = tf.py_function(lambda a: [a * 2, tf.cast(a, tf.int32)], [X], [tf.float32, tf.int32])
    assert (doubled.numpy().tolist(), ints.dtype, ints.numpy().tolist()) == ([2, 4, 6], tf.int32, [1, 2, 3])
    single_list = tf.py_function(lambda a: a * 2, [X], [tf.float32])
    assert isinstance(single_list, list) and single_list[0].numpy().tolist() == [2, 4, 6]
    assert tf.py_function(func=lambda a, b: a + b, inp=[X, 1.0], Tout=tf.float32).numpy().tolist() == [2, 3, 4]
    assert tf.py_function(lambda a: None, [X], []) == []
    seen = []
    assert tf.numpy_function(lambda a: (seen.append(type(a)), a * 2)[1], [X], tf.float32).numpy().tolist() == [2, 4, 6]
    assert seen == [np.ndarray]


def test_runs_each_call_inside_tf_function_with_unknown_static_shape():
    calls = []

    @tf.function
    def f(x):
        y = tf.py_function(lambda a: (calls.append(1), a * 2)[1], [x], tf.float32)
        assert y.shape.rank is None  # TF 2.21 prints "<unknown>"
        return y + 1
    assert f(X).numpy().tolist() == [3, 5, 7]
    assert f(tf.constant([0., 1., 2.])).numpy().tolist() == [1, 3, 5]
    assert len(calls) == 2
    ops = [op.type for op in f.get_concrete_function(X).graph.get_operations()]
    assert "EagerPyFunc" in ops  # TF 2.21: ['Placeholder', 'EagerPyFunc', 'Identity', 'NoOp']
    g = tf.function(lambda x: tf.numpy_function(lambda a: a + 1, [x], tf.float32))
    assert "PyFunc" in [op.type for op in g.get_concrete_function(X).graph.get_operations()]
    stateless = tf.function(lambda x: tf.numpy_function(lambda a: a + 1, [x], tf.float32, stateful=False))
    assert "PyFuncStateless" in [op.type for op in stateless.get_concrete_function(X).graph.get_operations()]


def test_dataset_map_calls_it_per_element():
    ds = tf.data.Dataset.from_tensor_slices([1., 2.]).map(lambda v: tf.py_function(lambda a: a * 10, [v], tf.float32))
    assert [float(v) for v in ds.as_numpy_iterator()] == [10.0, 20.0]  # TF 2.21


def test_gradients_as_tensorflow():
    with tf.GradientTape() as t:
        t.watch(X)
        y = tf.py_function(lambda a: a * a * 3.0, [X], tf.float32)
    assert t.gradient(y, X).numpy().tolist() == [6, 12, 18]  # TF 2.21
    with tf.GradientTape() as t:
        t.watch(X)
        y = tf.numpy_function(lambda a: a * a, [X], tf.float32)
    assert t.gradient(y, X) is None  # TF 2.21: numpy_function has no gradient

    @tf.function
    def g(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.py_function(lambda a: tf.sin(a), [x], tf.float32)
        return t.gradient(y, x)
    np.testing.assert_allclose(g(X).numpy(), np.cos([1., 2., 3.]), rtol=1e-6)  # TF 2.21: [0.5403, -0.41615, -0.98999]


def test_errors_inside_the_function_become_tensorflow_errors():
    with pytest.raises(tf.errors.UnknownError, match="ZeroDivisionError: division by zero") as info:
        tf.py_function(lambda a: 1 / 0, [X], tf.float32)
    assert "Traceback (most recent call last):" in str(info.value) and __file__ in str(info.value)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: Tensor conversion requested dtype float32 "
                                                             "for Tensor with dtype int32"):
        tf.py_function(lambda a: tf.cast(a, tf.int32), [X], tf.float32)

    @tf.function
    def h(x):
        return tf.numpy_function(lambda a: a.astype(np.float64), [x], tf.float32)
    # TF 2.21 (graph): "0-th value returned by pyfunc_1 is double, but expects float"; eagerly TF returns the
    # float64 array as is, eagerflow refuses it the same way in both modes
    for call in (h, lambda x: tf.numpy_function(lambda a: a.astype(np.float64), [x], tf.float32)):
        with pytest.raises(tf.errors.InvalidArgumentError, match="0-th value returned by pyfunc is double, but "
                                                                 "expects float"):
            call(X)

    @tf.function
    def gr(x):
        return tf.py_function(lambda a: 1 / 0, [x], tf.float32)
    with pytest.raises(tf.errors.UnknownError, match="Detected at node EagerPyFunc"):
        gr(X)


def test_a_function_holding_one_saves_as_tensorflow_does_but_never_loads():
    # TensorFlow 2.21 saves it silently (the node and a callback token, not the Python function);
    # eagerflow's loader refuses to run Python from a file.
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def f(self, x):
            return tf.py_function(lambda a: a * 2, [x], tf.float32)
    export = tempfile.mkdtemp()
    tf.saved_model.save(M(), export)
    with pytest.raises(tf.errors.PermissionDeniedError, match="node 'EagerPyFunc' .* runs Python code"):
        tf.saved_model.load(export)
