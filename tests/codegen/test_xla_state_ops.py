"""jit_compile=True on the variable updates beyond assign (scatter_*, scatter_nd_*, slice assign,
initialize-once), CheckNumerics, and the ops TensorFlow's XLA refuses too (needs JAX).

References: TensorFlow 2.21 under jit_compile=True, its results and messages quoted where asserted."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

_START = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
_UPDATES = [[9.0, 9.0], [8.0, 8.0], [7.0, 7.0]]


def test_scatter_update_keeps_the_last_of_repeated_rows_and_drops_out_of_range_ones():
    w = tf.Variable(_START)

    @tf.function(jit_compile=True)
    def f(i):
        w.assign(_START)
        w.scatter_update(tf.IndexedSlices(tf.constant(_UPDATES), i))
        return w.read_value()
    # TF 2.21, the same function: [[8, 8], [3, 4], [7, 7]] for indices [2, 0, 2] (the last update of
    # row 2 wins), and [[8, 8], [3, 4], [5, 6]] for [-1, 0, 5] (XLA drops out-of-range updates; the
    # NumPy kernels raise instead, as TensorFlow's CPU kernels do).
    np.testing.assert_array_equal(f(tf.constant([2, 0, 2])).numpy(), [[8, 8], [3, 4], [7, 7]])
    np.testing.assert_array_equal(f(tf.constant([-1, 0, 5])).numpy(), [[8, 8], [3, 4], [5, 6]])
    np.testing.assert_array_equal(w.numpy(), [[8, 8], [3, 4], [5, 6]])  # written back


def test_scatter_ops_accumulate_repeated_rows_as_the_kernels_do():
    for method, expect in [("scatter_add", lambda s, u: s + u), ("scatter_sub", lambda s, u: s - u),
                           ("scatter_mul", lambda s, u: s * u), ("scatter_div", lambda s, u: s / u),
                           ("scatter_max", np.maximum), ("scatter_min", np.minimum)]:
        w = tf.Variable(_START)

        @tf.function(jit_compile=True)
        def f(u):
            w.assign(_START)
            getattr(w, method)(tf.IndexedSlices(u, tf.constant([2, 0, 2])))
            return w.read_value()
        u = np.array([[0.5, 4.0], [2.0, 3.0], [6.0, 0.25]], np.float32)
        want = np.array(_START, np.float32)
        for row, upd in zip([2, 0, 2], u):  # one update after another, by hand
            want[row] = expect(want[row], upd)
        np.testing.assert_allclose(f(tf.constant(u)).numpy(), want, rtol=1e-6, err_msg=method)


def test_scatter_div_by_zero_gives_inf_under_xla():
    w = tf.Variable(_START)

    @tf.function(jit_compile=True)
    def f(u):
        w.assign(_START)
        w.scatter_div(tf.IndexedSlices(u, tf.constant([2, 0, 1])))
        return w.read_value()
    # TF 2.21 under jit_compile=True: [[0.5, 1], [1.5, 2], [inf, 3]] (no "updates must not contain 0")
    got = f(tf.constant([[0.0, 2.0], [2.0, 2.0], [2.0, 2.0]])).numpy()
    np.testing.assert_array_equal(got, [[0.5, 1.0], [1.5, 2.0], [np.inf, 3.0]])


def test_scatter_nd_ops_on_elements_and_rows():
    w = tf.Variable(np.zeros((3, 2), np.float32))

    @tf.function(jit_compile=True)
    def f(u):
        w.assign(_START)
        w.scatter_nd_add([[0, 1], [2, 0], [0, 1]], u)
        w.scatter_nd_update([[1]], [[7.0, 7.0]])
        return w.read_value()
    got = f(tf.constant([1.0, 10.0, 100.0])).numpy()
    np.testing.assert_array_equal(got, [[1.0, 103.0], [7.0, 7.0], [15.0, 6.0]])


def test_slice_assign_writes_into_the_variable():
    v = tf.Variable(np.zeros((2, 3), np.float32))

    @tf.function(jit_compile=True)
    def f(x):
        v[0].assign(x)
        v[1, ::2].assign(x[1:] * 2.0)
        return v.read_value()
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0, 3.0])).numpy(), [[1, 2, 3], [4, 0, 6]])
    np.testing.assert_array_equal(v.numpy(), [[1, 2, 3], [4, 0, 6]])


def test_a_variable_created_from_the_arguments_is_set_by_the_first_call_only():
    state = {}

    @tf.function(jit_compile=True)
    def f(x):
        if "v" not in state:
            state["v"] = tf.Variable(x * 2.0)  # initial value from an argument: set on the first call
        state["v"].assign_add(x)
        return state["v"].read_value()
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0])).numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0])).numpy(), [4.0, 8.0])  # not set again


def test_check_numerics_passes_values_through_as_tensorflows_xla_does():
    f = tf.function(lambda x: tf.debugging.check_numerics(tf.math.log(x), "bad"), jit_compile=True)
    # TF 2.21 under jit_compile=True: [0, nan, -inf], no error (its XLA bridge compiles no check);
    # the plain function raises "bad : Tensor had Inf and NaN values" as TensorFlow's graph does.
    got = f(tf.constant([1.0, -1.0, 0.0])).numpy()
    np.testing.assert_array_equal(got, [0.0, np.nan, -np.inf])
    with pytest.raises(tf.errors.InvalidArgumentError, match="bad : Tensor had Inf and NaN values"):
        tf.function(lambda x: tf.debugging.check_numerics(tf.math.log(x), "bad"))(tf.constant([1.0, -1.0, 0.0]))


def _refused(fn, *args):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(fn, jit_compile=True)(*args)
    return str(info.value)


def _names(op):
    return (f"on XLA_CPU_JIT: {op} (No registered '{op}' OpKernel for XLA_CPU_JIT devices compatible with node "
            f"{{{{node {op}}}}}){{{{node {op}}}}}")


def test_count_up_to_is_refused_as_tensorflows_xla_refuses_it():
    v = tf.Variable(0)
    # TF 2.21: "Detected unsupported operations when trying to compile graph __inference_cnt_43[...] on
    # XLA_CPU_JIT: ResourceCountUpTo (No registered 'ResourceCountUpTo' OpKernel for XLA_CPU_JIT devices
    # compatible with node {{node ResourceCountUpTo}}){{node ResourceCountUpTo}}"
    message = _refused(lambda: v.count_up_to(2))
    assert message.startswith("Detected unsupported operations when trying to compile graph __inference_")
    assert _names("ResourceCountUpTo") in message
    assert v.numpy() == 0


def test_segment_ops_with_data_dependent_sizes_are_refused_as_in_tensorflow():
    # TF 2.21 refuses tf.math.segment_sum under jit_compile=True with exactly this kind of message:
    # "... on XLA_CPU_JIT: SegmentSum (No registered 'SegmentSum' OpKernel for XLA_CPU_JIT devices
    # compatible with node {{node SegmentSum}}){{node SegmentSum}}"
    message = _refused(tf.math.segment_sum, tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 0, 1]))
    assert _names("SegmentSum") in message


def test_iterator_and_summary_ops_are_refused_as_tensorflows_xla_refuses_them(tmp_path):
    # TF 2.21 under jit_compile=True: "Detected unsupported operations when trying to compile graph
    # __inference_it2_32[...] on XLA_CPU_JIT: IteratorGetNext (No registered 'IteratorGetNext' OpKernel
    # for XLA_CPU_JIT devices compatible with node {{node IteratorGetNext}}){{node IteratorGetNext}}",
    # and the same for WriteSummary (tf.summary.scalar under a default writer).
    iterator = iter(tf.data.Dataset.range(5))
    assert _names("IteratorGetNext") in _refused(lambda it: next(it), iterator)
    writer = tf.summary.create_file_writer(str(tmp_path))

    def log(x):
        with writer.as_default():
            tf.summary.scalar("x", x, step=1)
        return x
    assert _names("WriteSummary") in _refused(log, tf.constant(1.0))
    # TF 2.21: "... on XLA_CPU_JIT: EagerPyFunc (No registered 'EagerPyFunc' OpKernel for XLA_CPU_JIT ..."
    assert _names("EagerPyFunc") in _refused(lambda x: tf.py_function(lambda a: a * 2, [x], tf.float32),
                                             tf.constant([1.0]))


def test_slice_assign_at_a_loop_counter_is_one_dynamic_update():
    v = tf.Variable(np.zeros((4, 2), np.float32))
    w = tf.Variable(np.zeros((3, 4, 2), np.float32))

    @tf.function(jit_compile=True)
    def f(x):
        for t in tf.range(4):  # a lax.scan: t is known only at run time
            v[t].assign(x * tf.cast(t, tf.float32))
            w[1, t].assign(x + tf.cast(t, tf.float32))
            w[2, t, :].assign(x - 1.0)
            v[-1].assign(x * 10.0)  # negative indices count from the end
        return v.read_value(), w.read_value()
    got_v, got_w = (r.numpy() for r in f(tf.constant([1.0, 2.0])))
    want_w = np.zeros((3, 4, 2), np.float32)
    want_w[1] = [[1, 2], [2, 3], [3, 4], [4, 5]]
    want_w[2] = [0, 1]
    np.testing.assert_array_equal(got_v, [[0, 0], [1, 2], [2, 4], [10, 20]])
    np.testing.assert_array_equal(got_w, want_w)


def test_slice_assign_of_a_run_time_range_is_refused_clearly():
    v = tf.Variable(np.zeros((4, 2), np.float32))

    @tf.function(jit_compile=True)
    def f(x):
        for t in tf.range(2):
            v[t:t + 2].assign(x)
        return v.read_value()
    with pytest.raises(tf.errors.InvalidArgumentError, match="supports single indices and whole dims"):
        f(tf.ones([2, 2]))
