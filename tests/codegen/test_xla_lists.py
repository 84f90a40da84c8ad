"""tf.TensorArray, tf.map_fn and tf.scan under jit_compile=True: TensorLists as dense buffers
(ops/control/lists_jax.py) carried through XLA's loops and branches (codegen/xla_lists.py). Needs JAX.

References: TensorFlow 2.21's values and messages for the same functions under jit_compile=True
(quoted where asserted), the same function as a plain tf.function (the NumPy kernels), and NumPy."""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

X = np.arange(12, dtype=np.float32).reshape(4, 3)
jit = tf.function(jit_compile=True)


def _plain_and_jit(fn, *args):
    """(plain tf.function result, jit_compile=True result), as lists of arrays."""
    def flat(r):
        return [np.asarray(t) for t in tf.nest.flatten(r)]
    return flat(tf.function(fn)(*args)), flat(tf.function(fn, jit_compile=True)(*args))


def test_element_shape_unknown_at_reserve_comes_from_the_loops_first_write():
    @jit
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4)  # element shape unknown: XLA learns it from the body
        for t in tf.range(4):
            ta = ta.write(t, x[t] * 2.0)
        return ta.stack()
    # TF 2.21: [[0, 2, 4], [6, 8, 10], [12, 14, 16], [18, 20, 22]]
    np.testing.assert_array_equal(f(tf.constant(X)).numpy(), X * 2.0)


def test_size_from_an_argument_is_compiled_in_as_a_constant():
    @jit
    def f(x, n):
        ta = tf.TensorArray(tf.float32, size=n)
        for t in tf.range(n):
            ta = ta.write(t, x[t])
        return ta.stack()
    np.testing.assert_array_equal(f(tf.constant(X), tf.constant(4)).numpy(), X)  # TF 2.21: x itself
    np.testing.assert_array_equal(f(tf.constant(X), tf.constant(2)).numpy(), X[:2])  # another value, another size


def test_unstack_read_in_loop_gather_size_concat():
    @jit
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4).unstack(x)
        s = tf.zeros([3])
        for t in tf.range(4):
            s += ta.read(t)
        return s, ta.gather([1, 3]), ta.size(), ta.concat()
    s, gathered, size, concat = f(tf.constant(X))
    # TF 2.21: [18, 22, 26], [[3, 4, 5], [9, 10, 11]], 4, [0, 1, ..., 11]
    np.testing.assert_array_equal(s.numpy(), [18.0, 22.0, 26.0])
    np.testing.assert_array_equal(gathered.numpy(), X[[1, 3]])
    assert size.numpy() == 4 and size.dtype == tf.int32
    np.testing.assert_array_equal(concat.numpy(), X.reshape(-1))


def _sin_squared_gradient(x):
    with tf.GradientTape() as g:
        g.watch(x)
        ta = tf.TensorArray(tf.float32, size=4)
        for t in tf.range(4):
            ta = ta.write(t, tf.sin(x[t]))
        y = tf.reduce_sum(ta.stack() ** 2)
    return g.gradient(y, x)


def test_gradient_through_a_tensor_array_written_in_a_loop():
    plain, got = _plain_and_jit(_sin_squared_gradient, tf.constant(X))
    # TF 2.21 row 0: [0.0, 0.9092973, -0.7568025]; d/dx sin(x)^2 = sin(2x)
    np.testing.assert_allclose(got[0][0], [0.0, 0.9092973, -0.7568025], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[0], np.sin(2.0 * X), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[0], plain[0], rtol=1e-5, atol=1e-6)


def test_gradient_of_an_indexed_read_in_a_loop_without_lists():
    """x[t] with the loop counter t: its gradient (StridedSliceGrad at a run-time index) lowers too;
    it raised a JAX concretization error before."""
    def fn(x):
        with tf.GradientTape() as g:
            g.watch(x)
            s = tf.zeros([3])
            for t in tf.range(4):
                s += tf.sin(x[t])
            y = tf.reduce_sum(s ** 2)
        return g.gradient(y, x)
    plain, got = _plain_and_jit(fn, tf.constant(X))
    expected = 2.0 * np.sin(X).sum(axis=0) * np.cos(X)
    np.testing.assert_allclose(got[0], expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[0], plain[0], rtol=1e-5, atol=1e-6)


def test_unwritten_rows_are_zeros_and_writes_outside_loops():
    @jit
    def partial(x):
        return tf.TensorArray(tf.float32, size=4).write(0, x[0]).stack()

    @jit
    def two(x):
        ta = tf.TensorArray(tf.float32, size=2).write(0, x[0]).write(1, x[1])
        return ta.read(0) + ta.read(1), ta.stack()

    @jit
    def unwritten_read(x):
        return tf.TensorArray(tf.float32, size=4).write(0, x[0]).read(2)
    expected = np.zeros((4, 3), np.float32)
    expected[0] = X[0]
    np.testing.assert_array_equal(partial(tf.constant(X)).numpy(), expected)  # TF 2.21: zeros below row 0
    total, stacked = two(tf.constant(X))
    np.testing.assert_array_equal(total.numpy(), [3.0, 5.0, 7.0])  # TF 2.21
    np.testing.assert_array_equal(stacked.numpy(), X[:2])
    np.testing.assert_array_equal(unwritten_read(tf.constant(X)).numpy(), [0.0, 0.0, 0.0])  # TF 2.21


def test_nothing_written_known_shape_stacks_zeros_unknown_shape_is_not_initialized():
    @jit
    def known(x):
        return tf.TensorArray(tf.float32, size=3, element_shape=[3]).stack()

    @jit
    def unknown(x):
        return tf.TensorArray(tf.float32, size=3).stack()
    out = known(tf.constant(X)).numpy()
    assert out.shape == (3, 3) and not out.any()  # TF 2.21: zeros [3, 3]
    # TF 2.21: InvalidArgumentError "TensorList is not initialized" (at the TensorListStack node)
    with pytest.raises(tf.errors.InvalidArgumentError, match="TensorList is not initialized"):
        unknown(tf.constant(X))


def test_scatter_lowers_where_tensorflows_xla_refuses_it():
    # TF 2.21 under jit_compile=True: InvalidArgumentError "Detected unsupported operations ...:
    # TensorListScatterIntoExistingList"; without jit (and here, compiled) the rows land at 3 and 0.
    def fn(x):
        return tf.TensorArray(tf.float32, size=4).scatter([3, 0], x[:2]).stack()
    plain, got = _plain_and_jit(fn, tf.constant(X))
    expected = np.zeros((4, 3), np.float32)
    expected[3], expected[0] = X[0], X[1]
    np.testing.assert_array_equal(got[0], expected)
    np.testing.assert_array_equal(plain[0], expected)


def test_split_with_unequal_lengths_is_refused_as_tensorflow_does():
    @jit
    def unequal(x):
        ta = tf.TensorArray(tf.float32, size=2, infer_shape=False).split(tf.reshape(x, [-1]), [5, 7])
        return ta.read(1), ta.concat()

    @jit
    def equal(x):
        ta = tf.TensorArray(tf.float32, size=2).split(tf.reshape(x, [-1]), [6, 6])
        return ta.read(1), ta.concat()
    # TF 2.21: UnimplementedError "All lengths have to be the same" (TensorListSplit)
    with pytest.raises(tf.errors.UnimplementedError, match="All lengths have to be the same"):
        unequal(tf.constant(X))
    second, concat = equal(tf.constant(X))
    np.testing.assert_array_equal(second.numpy(), [6.0, 7.0, 8.0, 9.0, 10.0, 11.0])  # TF 2.21
    np.testing.assert_array_equal(concat.numpy(), X.reshape(-1))


def test_while_loop_carrying_a_tensor_array():
    @jit
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4)
        _, ta = tf.while_loop(lambda t, ta: t < 4, lambda t, ta: (t + 1, ta.write(t, x[t])), [0, ta])
        return ta.stack()
    np.testing.assert_array_equal(f(tf.constant(X)).numpy(), X)  # TF 2.21: x


def test_data_dependent_loop_writing_a_tensor_array():
    """A trip count known only at run time (lax.while_loop): the list still enters with its buffer."""
    def fn(x, n):
        ta = tf.TensorArray(tf.float32, size=4)
        _, ta = tf.while_loop(lambda t, ta: t < n, lambda t, ta: (t + 1, ta.write(t, x[t] + 1.0)), [0, ta])
        return ta.stack()
    for n in (1, 3):
        plain, got = _plain_and_jit(fn, tf.constant(X), tf.constant(n))
        expected = np.zeros((4, 3), np.float32)
        expected[:n] = X[:n] + 1.0
        np.testing.assert_array_equal(got[0], expected)
        np.testing.assert_array_equal(plain[0], expected)


def test_gradient_of_a_masked_loop_writing_a_tensor_array():
    """maximum_iterations with a data-dependent condition under a tape: a scan of the maximum, the
    iterations past the condition masked (lists selected as a whole)."""
    def fn(x, n):
        with tf.GradientTape() as g:
            g.watch(x)
            ta = tf.TensorArray(tf.float32, size=4)
            _, ta = tf.while_loop(lambda t, ta: t < n, lambda t, ta: (t + 1, ta.write(t, tf.sin(x[t]))), [0, ta],
                                  maximum_iterations=4)
            y = tf.reduce_sum(ta.stack() ** 2)
        return g.gradient(y, x)
    plain, got = _plain_and_jit(fn, tf.constant(X), tf.constant(2))
    expected = np.sin(2.0 * X)
    expected[2:] = 0.0
    np.testing.assert_allclose(got[0], expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[0], plain[0], rtol=1e-5, atol=1e-6)


def _written_in_one_branch(x, p, both):
    ta = tf.TensorArray(tf.float32, size=2)
    if p > 0:
        ta = ta.write(0, x[0])
    elif both:
        ta = ta.write(1, x[1])
    return ta.stack()


@pytest.mark.parametrize("both", [True, False], ids=["both-branches", "one-branch"])
def test_tensor_array_written_under_a_tensor_if(both):
    f = tf.function(lambda x, p: _written_in_one_branch(x, p, both), jit_compile=True)
    # TF 2.21 (both branches): p=1 -> [[0, 1, 2], [0, 0, 0]]; p=-1 -> [[0, 0, 0], [3, 4, 5]]
    expected = np.zeros((2, 3), np.float32)
    expected[0] = X[0]
    np.testing.assert_array_equal(f(tf.constant(X), tf.constant(1)).numpy(), expected)
    expected = np.zeros((2, 3), np.float32)
    if both:
        expected[1] = X[1]
        np.testing.assert_array_equal(f(tf.constant(X), tf.constant(-1)).numpy(), expected)
    else:  # the branch that writes nothing: zeros of the other's shape, as the kernels give
        plain, got = _plain_and_jit(lambda x, p: _written_in_one_branch(x, p, both), tf.constant(X), tf.constant(-1))
        np.testing.assert_array_equal(got[0], expected)
        np.testing.assert_array_equal(plain[0], expected)


def test_map_fn_and_scan():
    @jit
    def mapped(x):
        return tf.map_fn(lambda r: tf.reduce_sum(r), x)

    @jit
    def scanned(x):
        return tf.scan(lambda a, r: a + r, x)
    np.testing.assert_array_equal(mapped(tf.constant(X)).numpy(), [3.0, 12.0, 21.0, 30.0])  # TF 2.21
    np.testing.assert_array_equal(scanned(tf.constant(X)).numpy(), np.cumsum(X, axis=0))  # TF 2.21


def test_map_fn_and_scan_gradients():
    def mapped(x):
        with tf.GradientTape() as g:
            g.watch(x)
            y = tf.reduce_sum(tf.map_fn(lambda r: tf.reduce_sum(tf.sin(r)), x) ** 2)
        return g.gradient(y, x)

    def scanned(x):
        with tf.GradientTape() as g:
            g.watch(x)
            y = tf.reduce_sum(tf.scan(lambda a, r: a * 0.5 + tf.sin(r), x) ** 2)
        return g.gradient(y, x)
    plain, got = _plain_and_jit(mapped, tf.constant(X))
    # TF 2.21 row 0: [3.5015368, 1.8918884, -1.4571536]
    np.testing.assert_allclose(got[0][0], [3.5015368, 1.8918884, -1.4571536], rtol=1e-5)
    np.testing.assert_allclose(got[0], 2.0 * np.sin(X).sum(axis=1, keepdims=True) * np.cos(X), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(got[0], plain[0], rtol=1e-5, atol=1e-6)
    plain, got = _plain_and_jit(scanned, tf.constant(X))
    # TF 2.21 row 0: [0.11361495, 1.937558, 4.422263]
    np.testing.assert_allclose(got[0][0], [0.11361495, 1.937558, 4.422263], rtol=1e-5)
    np.testing.assert_allclose(got[0], plain[0], rtol=1e-5, atol=1e-6)


def test_dynamic_size_written_at_run_time_indices_is_a_clear_error():
    @jit
    def grows(x):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        _, _, ta = tf.while_loop(lambda t, s, ta: s < 10.0,
                                 lambda t, s, ta: (t + 1, s + x[t][0] + 1.0, ta.write(t, x[t])), [0, 0.0, ta])
        return ta.stack()
    # A trip count that depends on the data: no size to give the buffer. TF 2.21's refusals of
    # unsized lists say "XLA compilation requires a fixed tensor list size"; the fix is named too.
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="XLA compilation requires a fixed tensor list size.*size=") as info:
        grows(tf.constant(X))
    assert type(info.value) is tf.errors.InvalidArgumentError
    np.testing.assert_array_equal(tf.function(grows.python_function)(tf.constant(X)).numpy(), X[:3])  # the kernels


def test_dynamic_size_written_in_a_loop_over_an_integer_argument():
    """`for t in tf.range(n)`, n an argument: the retry with integer arguments as constants (one
    executable per value, as for size=n) makes the trip count and the indices known."""
    @jit
    def f(x, n):
        ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for t in tf.range(n):
            ta = ta.write(t, x[t] * 2.0)
        return ta.stack()
    np.testing.assert_array_equal(f(tf.constant(X), tf.constant(3)).numpy(), X[:3] * 2.0)
    np.testing.assert_array_equal(f(tf.constant(X), tf.constant(4)).numpy(), X * 2.0)


def test_dynamic_size_grown_to_the_indices_a_static_loop_writes():
    """`for t in tf.range(4)` writing an empty dynamic_size=True array: TF 2.21's XLA compiles it and
    silently returns an empty [0] result. The indices follow from the counter at trace time, so the
    buffer gets its final size before the loop (values and gradient as the kernels give)."""
    def fn(x):
        with tf.GradientTape() as g:
            g.watch(x)
            dense = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            sparse = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            for t in tf.range(4):
                dense = dense.write(t, tf.sin(x[t]))
                sparse = sparse.write(2 * t + 1, x[t])
            y = tf.reduce_sum(dense.stack() ** 2)
        return dense.stack(), sparse.stack(), sparse.size(), g.gradient(y, x)
    plain, got = _plain_and_jit(fn, tf.constant(X))
    np.testing.assert_allclose(got[0], np.sin(X), rtol=1e-6)
    expected = np.zeros((8, 3), np.float32)
    expected[1::2] = X
    np.testing.assert_array_equal(got[1], expected)
    assert got[2] == 8
    np.testing.assert_allclose(got[3], np.sin(2.0 * X), rtol=1e-5, atol=1e-5)
    for p, g in zip(plain, got):
        np.testing.assert_allclose(g, p, rtol=1e-5, atol=1e-6)


def test_dynamic_size_with_a_size_or_known_indices_works():
    @jit
    def sized(x):
        ta = tf.TensorArray(tf.float32, size=4, dynamic_size=True)
        for t in tf.range(4):
            ta = ta.write(t, x[t])
        return ta.stack()

    def grown(x):  # indices known at trace time: the buffer grows at compile time
        return tf.TensorArray(tf.float32, size=0, dynamic_size=True).write(0, x[0]).write(1, x[1]).stack()
    np.testing.assert_array_equal(sized(tf.constant(X)).numpy(), X)  # TF 2.21: x
    plain, got = _plain_and_jit(grown, tf.constant(X))
    np.testing.assert_array_equal(got[0], X[:2])  # TF 2.21's XLA silently gives [] here; the kernels give x[:2]
    np.testing.assert_array_equal(plain[0], X[:2])


def test_lists_nested_in_loops():
    """A list made, written and stacked inside another loop's body (map_fn inside map_fn)."""
    def fn(x):
        return tf.map_fn(lambda r: tf.map_fn(lambda v: v * v + 1.0, r), x)
    plain, got = _plain_and_jit(fn, tf.constant(X))
    np.testing.assert_array_equal(got[0], X * X + 1.0)
    np.testing.assert_array_equal(plain[0], X * X + 1.0)


def test_write_of_a_wrong_shape_or_index_known_at_trace_time_raises_the_kernels_error():
    @jit
    def out_of_range(x):
        return tf.TensorArray(tf.float32, size=2, infer_shape=False).write(5, x[0]).stack()
    plain = tf.function(out_of_range.python_function)
    for f in (plain, out_of_range):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Trying to modify element 5 in a list with 2 elements"):
            f(tf.constant(X))


def test_gradient_of_items_stacked_in_the_loop_body():
    """tf.stack's gradient needs its incoming gradient's shape: the read of the list's gradient at
    the written index (SetItem's gradient) takes the item's static shape from tf.shape(item). The
    plain function raised ValueError "Cannot infer argument `num` from shape <unknown>" before."""
    def fn(x):
        with tf.GradientTape() as g:
            g.watch(x)
            ta = tf.TensorArray(tf.float32, size=4, element_shape=[2, 3])
            for t in tf.range(4):
                ta = ta.write(t, tf.stack([x[t], x[t] * x[t]]))
            y = tf.reduce_sum(ta.concat())
        return g.gradient(y, x)
    plain, got = _plain_and_jit(fn, tf.constant(X))
    # TF 2.21 under jit_compile=True: [[1, 3, 5], [7, 9, 11], [13, 15, 17], [19, 21, 23]] (1 + 2x)
    np.testing.assert_allclose(got[0], 1.0 + 2.0 * X, rtol=1e-6)
    np.testing.assert_allclose(plain[0], 1.0 + 2.0 * X, rtol=1e-6)


def test_first_calls_from_many_threads_compile_once_and_agree():
    from concurrent.futures import ThreadPoolExecutor
    traces = []

    @tf.function(jit_compile=True)
    def f(x):
        traces.append(1)
        return tf.map_fn(lambda r: tf.reduce_sum(r * r), x)
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: f(tf.constant(X)).numpy(), range(16)))
    for r in results:
        np.testing.assert_array_equal(r, (X * X).sum(axis=1))
    assert len(traces) == 1


@pytest.mark.parametrize("p", [1, -1], ids=["then", "else"])
def test_gradient_of_an_if_that_keeps_a_list_for_its_gradient(p):
    """Under a tape an If keeps what its gradient reads, zeros for the branch not taken: here a list
    made in one branch (read there, so its gradient needs it), zero-padded as a list in the other."""
    def fn(x, p):
        with tf.GradientTape() as g:
            g.watch(x)
            ta = tf.TensorArray(tf.float32, size=2, clear_after_read=False)
            if p > 0:
                ta2 = ta.write(0, tf.sin(x[0])).write(1, x[1] * 3.0)
                y = tf.reduce_sum(ta2.read(1) * ta2.read(0))
            else:
                y = tf.reduce_sum(x[2] ** 2)
        return g.gradient(y, x)
    plain, got = _plain_and_jit(fn, tf.constant(X / 10), tf.constant(p))
    x = X / 10
    expected = np.zeros_like(x)
    if p > 0:
        expected[0], expected[1] = 3.0 * x[1] * np.cos(x[0]), 3.0 * np.sin(x[0])
    else:
        expected[2] = 2.0 * x[2]
    np.testing.assert_allclose(got[0], expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(plain[0], expected, rtol=1e-5, atol=1e-6)


def test_two_lists_in_one_loop_one_written_from_the_other():
    """Both lists enter the loop without a buffer; the second's item shape comes from a read of the
    first (written earlier in the same iteration); then a second loop reads the first backwards."""
    def fn(x):
        a = tf.TensorArray(tf.float32, size=4, clear_after_read=False)
        b = tf.TensorArray(tf.float32, size=4)
        for t in tf.range(4):
            a = a.write(t, x[t])
            b = b.write(t, a.read(t) * 3.0)
        c = tf.TensorArray(tf.float32, size=4)
        for t in tf.range(4):
            c = c.write(t, a.read(3 - t) + 1.0)
        return b.stack(), c.stack()
    plain, got = _plain_and_jit(fn, tf.constant(X))
    np.testing.assert_array_equal(got[0], X * 3.0)
    np.testing.assert_array_equal(got[1], X[::-1] + 1.0)
    for p, g in zip(plain, got):
        np.testing.assert_array_equal(g, p)


@pytest.mark.parametrize("layer_name", ["SimpleRNN", "LSTM", "GRU"])
def test_keras_recurrent_layers_compile_with_their_gradients(layer_name):
    """Keras' recurrent layers collect their outputs in a tf.TensorArray: under jit_compile=True they
    raised "Detected unsupported operations ... TensorListReserve" before."""
    x = tf.constant(np.random.default_rng(0).standard_normal((2, 5, 3)).astype(np.float32))
    layer = getattr(tf.keras.layers, layer_name)(4, return_sequences=True)
    layer(x)

    def fn(x):
        with tf.GradientTape() as g:
            out = layer(x)
            y = tf.reduce_sum(out ** 2)
        return [out] + g.gradient(y, layer.trainable_variables)
    plain, got = _plain_and_jit(fn, x)
    assert len(got) == 1 + len(layer.trainable_variables)
    for p, g in zip(plain, got):
        np.testing.assert_allclose(g, p, rtol=1e-4, atol=1e-5)


def test_autograph_loops_over_and_into_tensor_arrays():
    """AutoGraph's forms: a Python `while` on a tensor condition and `for r in x` writing a
    TensorArray, `for item in ta` reading one, tf.foldl / tf.foldr."""
    def fn(x):
        squares = tf.TensorArray(tf.float32, size=4)
        i = 0
        while i < 4:
            squares = squares.write(i, x[i] * x[i])
            i += 1
        shifted = tf.TensorArray(tf.float32, size=4)
        j = 0
        for r in x:
            shifted = shifted.write(j, r + 1.0)
            j += 1
        total = tf.zeros([3])
        for item in tf.TensorArray(tf.float32, size=4).unstack(x):
            total = total + item * 2.0
        return (squares.stack(), shifted.stack(), total, tf.foldl(lambda a, r: a * 0.5 + r, x),
                tf.foldr(lambda a, r: a * 0.5 + r, x))
    plain, got = _plain_and_jit(fn, tf.constant(X))
    fold_l, fold_r = X[0], X[3]
    for k in (1, 2, 3):
        fold_l, fold_r = fold_l * 0.5 + X[k], fold_r * 0.5 + X[3 - k]
    for g, expected in zip(got, (X * X, X + 1.0, 2.0 * X.sum(axis=0), fold_l, fold_r)):
        np.testing.assert_allclose(g, expected, rtol=1e-6)
    for p, g in zip(plain, got):
        np.testing.assert_allclose(g, p, rtol=1e-6)


def test_a_list_growing_across_an_outer_loops_iterations_is_a_clear_error():
    """The inner loop's writes size the list, but each outer iteration would enter with another
    size: the carry cannot keep one shape (JAX's error spoke of carry types)."""
    @jit
    def f(x):
        out = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        for t in tf.range(2):
            for u in tf.range(2):
                out = out.write(u, x[u] * tf.cast(t + 1, tf.float32))
        return out.stack()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="XLA compilation requires a fixed tensor list size.*0 elements entering.*size="):
        f(tf.constant(X))
