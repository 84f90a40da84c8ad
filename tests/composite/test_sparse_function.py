"""A SparseTensor through tf.function: made inside, passed in (keyed by its SparseTensorSpec), returned
(repacked); input_signature; ConcreteFunction binding; memory and threads. TensorFlow 2.21's texts."""
import gc
import threading
import weakref

import numpy as np
import pytest

import eagerflow as tf

S = tf.sparse.SparseTensor


def _sp(dense_shape=(3, 4), values=(1.0, 2.0), indices=((0, 0), (1, 2))):
    return S([list(i) for i in indices], list(values), list(dense_shape))


def test_argument_parts_are_placeholders_named_after_the_parameter():
    seen = []

    @tf.function
    def f(x):
        seen.append((str(x), x.shape))
        return tf.sparse.to_dense(x)

    out = f(_sp())
    np.testing.assert_array_equal(out.numpy(), tf.sparse.to_dense(_sp()).numpy())
    assert seen == [('SparseTensor(indices=Tensor("x:0", shape=(None, 2), dtype=int64), values=Tensor("x_1:0", '
                     'shape=(None,), dtype=float32), dense_shape=Tensor("x_2:0", shape=(2,), dtype=int64))',
                     tf.TensorShape([3, 4]))]


def test_retrace_follows_the_spec_not_the_number_of_values():
    traces = []

    @tf.function
    def f(x):
        traces.append(x.shape)
        return x.values * 2.0

    f(_sp())
    np.testing.assert_array_equal(f(_sp(values=[7.0], indices=[[0, 1]])).numpy(), np.array([14.0], np.float32))
    assert len(traces) == 1  # other values, same SparseTensorSpec: no retrace (as TensorFlow)
    f(_sp(dense_shape=(5, 4)))
    assert traces == [tf.TensorShape([3, 4]), tf.TensorShape([5, 4])]
    assert f.experimental_trace_history()[-1].reason == "x: shape (3, 4) -> (5, 4)"
    f(S([[0, 0]], np.array([1.0]), [3, 4]))  # another dtype (float64)
    assert len(traces) == 3


def test_reduce_retracing_relaxes_the_dense_shape():
    traces = []

    @tf.function(reduce_retracing=True)
    def r(x):
        traces.append(x.shape)
        return x.values

    for rows in (5, 6, 7):
        r(_sp(dense_shape=(rows, 4)))
    assert len(traces) == 2 and traces[-1].as_list() == [None, 4]  # TensorFlow 2.21: 2 traces


def test_get_concrete_function_from_a_spec_and_its_binding():
    @tf.function
    def f(x):
        return tf.sparse.to_dense(x)

    cf = f.get_concrete_function(tf.SparseTensorSpec([None, 4], tf.float32))
    assert [repr(t) for t in cf.inputs] == ["<tf.Tensor 'x:0' shape=(None, 2) dtype=int64>",
                                             "<tf.Tensor 'x_1:0' shape=(None,) dtype=float32>",
                                             "<tf.Tensor 'x_2:0' shape=(2,) dtype=int64>"]
    assert cf.structured_input_signature == ((tf.SparseTensorSpec([None, 4], tf.float32),), {})
    assert cf.pretty_printed_signature().startswith(
        "Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): SparseTensorSpec(TensorShape([None, 4]), tf.float32)\n")
    np.testing.assert_array_equal(cf(_sp()).numpy(), tf.sparse.to_dense(_sp()).numpy())
    with pytest.raises(TypeError) as info:
        cf(S([[0, 1]], [7], [5, 4]))
    assert ("Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.int32, "
            "name=None) to TensorSpec(shape=(None,), dtype=tf.float32, name=None)`") in str(info.value)
    assert "Fallback to flat signature also failed due to: f(x, x_1, x_2) missing required arguments: x_1, x_2." \
        in str(info.value)
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(1, 1\), dtype=tf.int64, name=None\) to "
                                        r"TensorSpec\(shape=\(None, 2\), dtype=tf.int64, name=None\)"):
        cf(S([[0]], [7.0], [5]))
    with pytest.raises(TypeError, match="'EagerTensor' object has no attribute 'indices'"):
        cf(tf.constant([[1.0]]))


def test_input_signature_with_a_sparse_spec_and_a_sparse_output():
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 10], tf.float32)])
    def g(x):
        return x.with_values(x.values * 2.0)

    out = g(S([[0, 1]], [7.0], [5, 10]))
    assert isinstance(out, S) and out.shape == tf.TensorShape([5, 10])
    np.testing.assert_array_equal(out.values.numpy(), np.array([14.0], np.float32))
    np.testing.assert_array_equal(out.dense_shape.numpy(), [5, 10])
    # TensorFlow checks the parts' specs only: a [5, 9] dense_shape still binds.
    np.testing.assert_array_equal(g(S([[0, 1]], [7.0], [5, 9])).dense_shape.numpy(), [5, 9])
    with pytest.raises(TypeError, match="'EagerTensor' object has no attribute 'indices'"):
        g(tf.zeros([5, 10]))
    assert "Output Type:\n  SparseTensorSpec(" in g.get_concrete_function().pretty_printed_signature()


def test_made_inside_and_returned():
    @tf.function
    def h(x):
        s = tf.sparse.from_dense(x)
        assert s.op.type == "GatherNd" and s.graph is not None
        return s, tf.sparse.to_dense(s) * 2

    sp, dense = h(tf.constant([[1, 0], [0, 2]]))
    assert isinstance(sp, S) and sp.shape == tf.TensorShape([2, 2])
    np.testing.assert_array_equal(sp.indices.numpy(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(sp.values.numpy(), [1, 2])
    np.testing.assert_array_equal(dense.numpy(), [[2, 0], [0, 4]])
    text = h.get_concrete_function(tf.TensorSpec([2, 2], tf.int32)).pretty_printed_signature()
    assert "SparseTensorSpec(TensorShape([2, 2]), tf.int32)" in text


def test_nested_in_structures_and_with_other_arguments():
    @tf.function
    def f(pair, scale):
        return {"a": pair[0].with_values(pair[0].values * scale), "n": pair[1]}

    out = f((_sp(), 3), tf.constant(2.0))
    np.testing.assert_array_equal(out["a"].values.numpy(), np.array([2, 4], np.float32))
    assert int(out["n"]) == 3


def test_thousands_of_sparse_tensors_through_a_function_leave_nothing_alive():
    @tf.function
    def f(x):
        return x.with_values(x.values + 1.0)

    refs = []
    for i in range(2000):
        sp = _sp(values=(float(i), 1.0))
        out = f(sp)
        refs += [weakref.ref(sp), weakref.ref(out)]
        del sp, out
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert f.experimental_get_tracing_count() == 1


def test_many_threads_share_one_trace():
    traces = []

    @tf.function
    def f(x):
        traces.append(1)
        return tf.sparse.to_dense(x)

    results, errors = {}, []
    barrier = threading.Barrier(8)

    def work(k):
        try:
            barrier.wait()
            for _ in range(20):
                out = f(_sp(values=(float(k), 2.0)))
            results[k] = out.numpy()
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(traces) == 1
    for k, value in results.items():
        assert value[0, 0] == k and value[1, 2] == 2.0


def test_through_tf_cond():
    f = tf.function(lambda sp, p: tf.cond(p, lambda: sp, lambda: sp.with_values(-sp.values)))
    out = f(_sp(), tf.constant(False))
    assert isinstance(out, S)
    np.testing.assert_array_equal(out.values.numpy(), np.array([-1, -2], np.float32))  # TensorFlow: the same
    np.testing.assert_array_equal(f(_sp(), tf.constant(True)).values.numpy(), np.array([1, 2], np.float32))
