"""tf.TensorArray: every method eagerly and under tf.function against NumPy, TensorFlow's errors
(eager: checked in Python; graph: from the TensorList kernels), eager mutation vs graph
immutability, carrying through tf.while_loop / tf.cond, and gradients against finite differences."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.control_flow.tensor_array import TensorArray
from eagerflow._src.core import nest

A = np.arange(6, dtype=np.float32).reshape(3, 2)


def _both(fn, *args):
    """fn run eagerly and as a tf.function: the flat NumPy results of each."""
    eager = [np.asarray(t.numpy()) for t in nest.flatten(fn(*args), expand_composites=True)]
    graph = [np.asarray(t.numpy()) for t in nest.flatten(tf.function(fn)(*args), expand_composites=True)]
    return eager, graph


def _written(x):
    return TensorArray(tf.float32, size=3).write(0, x[0]).write(2, x[2])


METHODS = [
    ("write_stack", lambda x: _written(x).stack(), np.stack([A[0], 0 * A[1], A[2]])),
    ("read", lambda x: _written(x).read(2), A[2]),
    ("read_unwritten_known_shape", lambda x: _written(x).read(1), np.zeros(2, np.float32)),
    ("unstack_stack", lambda x: TensorArray(tf.float32, size=3).unstack(x).stack(), A),
    ("gather", lambda x: TensorArray(tf.float32, size=3).unstack(x).gather([2, 0, 2]), A[[2, 0, 2]]),
    ("scatter", lambda x: TensorArray(tf.float32, size=3).scatter([2, 0], x[:2]).stack(),
     np.stack([A[1], 0 * A[0], A[0]])),
    ("concat", lambda x: TensorArray(tf.float32, size=2, infer_shape=False).write(0, x[0]).write(1, tf.reshape(x[1:], [4]))
     .concat(), np.concatenate([A[0], A[1:].reshape(-1)])),
    ("split", lambda x: TensorArray(tf.float32, size=2).split(tf.reshape(x, [6]), [2, 4]).read(1), A.reshape(-1)[2:]),
    ("size", lambda x: TensorArray(tf.float32, size=3).unstack(x).size(), np.int32(3)),
    ("dynamic_size", lambda x: TensorArray(tf.float32, size=0, dynamic_size=True).write(3, x[1]).stack(),
     np.stack([0 * A[0], 0 * A[0], 0 * A[0], A[1]])),
    ("identity", lambda x: _written(x).identity().read(0), A[0]),
    ("int_dtype", lambda x: TensorArray(tf.int32, size=2).write(0, 3).write(1, 4).stack(), np.array([3, 4], np.int32)),
]


@pytest.mark.parametrize("name,fn,expected", METHODS, ids=[m[0] for m in METHODS])
def test_method_eager_and_graph(name, fn, expected):
    eager, graph = _both(fn, tf.constant(A))
    for got in (eager[0], graph[0]):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got, expected)


def test_properties():
    ta = TensorArray(tf.float32, size=2, element_shape=[2])
    assert ta.dtype == tf.float32 and ta.dynamic_size is False and ta.element_shape.as_list() == [2]
    assert TensorArray(tf.float32, size=2, dynamic_size=True).dynamic_size is True
    assert TensorArray(tf.float32, size=2).element_shape.rank is None
    assert TensorArray(tf.float32, size=2).write(0, [1.0, 2.0]).element_shape.as_list() == [2]
    assert ta.flow.dtype == tf.variant and ta.close() is None


def test_graph_write_returns_new_array_eager_mutates():
    def f():
        ta = TensorArray(tf.float32, size=2)
        ta.write(0, 1.0)  # result dropped: in a graph the old array is unchanged
        return ta.stack()
    np.testing.assert_array_equal(tf.function(f)().numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(f().numpy(), [1.0, 0.0])  # TensorFlow 2 eager arrays are mutable


def test_graph_static_shapes():
    @tf.function
    def f(x):
        ta = TensorArray(tf.float32, size=3).unstack(x)
        assert ta.element_shape.as_list() == [2]
        return ta.read(0), ta.stack()
    cf = f.get_concrete_function(tf.TensorSpec([3, 2], tf.float32))
    assert [o.shape.as_list() for o in cf.graph.outputs] == [[2], [3, 2]]  # TF 2.21: the fixed size is static


# --- errors ---

def _raises(cls, words, fn):
    with pytest.raises(cls) as info:
        fn()
    assert words in str(info.value), str(info.value)


def test_eager_errors():
    ta = TensorArray(tf.float32, size=2).write(0, [1.0, 2.0])
    _raises(tf.errors.OutOfRangeError, "Tried to write to index 5 but array is not resizeable and size is: 2",
            lambda: ta.write(5, [1.0, 2.0]))
    _raises(tf.errors.OutOfRangeError, "Writing to negative indices (index -1) is not allowed",
            lambda: ta.write(-1, [1.0, 2.0]))
    _raises(ValueError, "Incompatible shape for value ((3,)), expected ((2,))", lambda: ta.write(1, [1.0, 2.0, 3.0]))
    _raises(tf.errors.InvalidArgumentError, "TensorArray dtype is float32 but Op is trying to write dtype int32",
            lambda: ta.write(1, tf.constant([1, 2])))
    _raises(tf.errors.OutOfRangeError, "Reading from negative indices (index -1)", lambda: ta.read(-1))
    _raises(tf.errors.OutOfRangeError, "Tried to read from index 7 but array size is: 2", lambda: ta.read(7))
    _raises(ValueError, "Size must be declared for TensorArrays when eager execution is enabled",
            lambda: TensorArray(tf.float32))
    _raises(ValueError, "Cannot unstack 3 tensors into a TensorArray of static size 2",
            lambda: TensorArray(tf.float32, size=2).unstack([1.0, 2.0, 3.0]))
    _raises(ValueError, "Cannot convert a partially known TensorShape <unknown>",
            lambda: TensorArray(tf.float32, size=2).read(0))


def test_eager_clear_after_read():
    ta = TensorArray(tf.float32, size=1).write(0, 1.0)
    assert ta.read(0).numpy() == 1.0
    _raises(tf.errors.InvalidArgumentError, "Could not read index 0 twice because it was cleared", lambda: ta.read(0))
    keep = TensorArray(tf.float32, size=1, clear_after_read=False).write(0, 1.0)
    assert keep.read(0).numpy() == keep.read(0).numpy() == 1.0


def test_graph_errors():
    _raises(tf.errors.InvalidArgumentError, "Trying to modify element 5 in a list with 3 elements",
            lambda: tf.function(lambda: TensorArray(tf.float32, size=3).write(5, 1.0).stack())())
    _raises(tf.errors.InvalidArgumentError, "Trying to access element 5 in a list with 2 elements",
            lambda: tf.function(lambda: TensorArray(tf.float32, size=2).read(5))())
    _raises(tf.errors.InvalidArgumentError, "element_shape is not fully defined: <unknown> and no list element is set",
            lambda: tf.function(lambda: TensorArray(tf.float32, size=3).read(1))())
    _raises(tf.errors.InvalidArgumentError, "Tried to stack elements of an empty list with non-fully-defined",
            lambda: tf.function(lambda: TensorArray(tf.float32, size=0).stack())())
    _raises(tf.errors.InvalidArgumentError, "Index 3 out o range; list only has 2 elements.",  # TF 2.21's words
            lambda: tf.function(lambda: TensorArray(tf.float32, size=2).gather([0, 3]))())
    _raises(ValueError, "Inconsistent shapes: saw (2,) but expected (1,)",
            lambda: tf.function(lambda: TensorArray(tf.float32, size=2).write(0, [1.0]).write(1, [1.0, 2.0]))())
    _raises(tf.errors.InvalidArgumentError, "Concat saw a scalar shape at index 0",
            lambda: TensorArray(tf.float32, size=2, infer_shape=False).write(0, 1.0).write(1, 2.0).concat())


# --- control flow ---

@tf.function
def _squares(n):
    ta = TensorArray(tf.float32, size=n)
    _, ta = tf.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, tf.cast(i * i, tf.float32))),
                          (0, ta))
    return ta.stack()


def test_while_loop_tensor_trip_count():
    for n in (0, 1, 5):
        np.testing.assert_array_equal(_squares(tf.constant(n)).numpy(), np.arange(n, dtype=np.float32) ** 2)
    assert "while True:" in _squares.get_concrete_function(tf.constant(3)).code


def test_while_loop_dynamic_size_reads_previous():
    def fib(n):
        ta = TensorArray(tf.float32, size=2, dynamic_size=True, clear_after_read=False).write(0, 1.0).write(1, 1.0)

        def body(i, ta):
            return i + 1, ta.write(i, ta.read(i - 1) + ta.read(i - 2))
        return tf.while_loop(lambda i, ta: i < n, body, (2, ta))[1].stack()
    eager, graph = _both(fib, tf.constant(7))
    for got in (eager[0], graph[0]):
        np.testing.assert_array_equal(got, [1, 1, 2, 3, 5, 8, 13])


def test_cond_carries_tensor_array():
    def f(p):
        ta = TensorArray(tf.float32, size=2).write(0, 1.0)
        ta = tf.cond(p, lambda: ta.write(1, 5.0), lambda: ta.write(1, -5.0))
        return ta.stack()
    for p, second in ((True, 5.0), (False, -5.0)):
        for got in _both(f, tf.constant(p)):
            np.testing.assert_array_equal(got[0], [1.0, second])


def test_nest_flattens_to_flow():
    ta = TensorArray(tf.float32, size=2)
    flat = nest.flatten({"a": ta, "b": [tf.constant(1.0)]}, expand_composites=True)
    assert flat[0] is ta.flow and len(flat) == 2
    rebuilt = nest.pack_sequence_as({"a": ta, "b": [0]}, flat, expand_composites=True)
    assert isinstance(rebuilt["a"], TensorArray) and rebuilt["a"].flow is ta.flow


# --- gradients (finite differences in float64) ---

W = np.array([[0.3, -0.2], [0.1, 0.4]])
WEIGHTS = np.arange(1, 7, dtype=np.float64).reshape(3, 2) / 4


def _rnn(x, n):
    """h_t = tanh(h_{t-1} W + x), written at each step; loss = weighted sum of the stacked states."""
    w = tf.constant(W)
    ta = TensorArray(tf.float64, size=n)

    def body(i, h, ta):
        h = tf.tanh(tf.matmul(h, w) + x)
        return i + 1, h, ta.write(i, tf.reshape(h, [2]))
    _, _, ta = tf.while_loop(lambda i, h, ta: i < n, body, (0, tf.reshape(x, [1, 2]) * 0.5, ta))
    return tf.reduce_sum(ta.stack() * WEIGHTS)


def _rnn_numpy(x):
    h, total = 0.5 * x.reshape(1, 2), 0.0
    for t in range(3):
        h = np.tanh(h @ W + x)
        total += np.sum(h.reshape(2) * WEIGHTS[t])
    return total


def _tape_grad(fn, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x).numpy()


@pytest.mark.parametrize("mode", ["eager", "function", "inside_function"])
def test_rnn_gradient_matches_finite_differences(mode):
    x0 = np.array([0.3, -0.7])
    eps = 1e-6
    numeric = np.array([(_rnn_numpy(x0 + eps * e) - _rnn_numpy(x0 - eps * e)) / (2 * eps) for e in np.eye(2)])
    n = tf.constant(3)
    fn = (lambda x: _rnn(x, n)) if mode == "eager" else tf.function(_rnn)
    if mode == "inside_function":  # the tape and the loop both inside one traced function
        got = tf.function(_grad_in)(tf.constant(x0), n).numpy()
    else:
        got = _tape_grad((lambda x: fn(x, n)) if mode == "function" else fn, tf.constant(x0))
    np.testing.assert_allclose(got, numeric, rtol=1e-6, atol=1e-8)
    assert abs(float((_rnn(tf.constant(x0), n)).numpy()) - _rnn_numpy(x0)) < 1e-12


def _grad_in(x, n):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = _rnn(x, n)
    return tape.gradient(y, x)


def test_gradient_of_items_stacked_in_a_graph_loop_body():
    """SetItem's gradient reads the list's gradient with tf.shape(item) as the element shape; the
    read's static shape comes from item's, so tf.stack's gradient (an unstack) knows its rank. It
    raised ValueError "Cannot infer argument `num` from shape <unknown>" in a graph before.
    TF 2.21: 1 + 2x."""
    @tf.function
    def f(x):
        with tf.GradientTape() as g:
            g.watch(x)
            ta = TensorArray(tf.float32, size=3, element_shape=[2, 2])
            for t in tf.range(3):
                ta = ta.write(t, tf.stack([x[t], x[t] * x[t]]))
            y = tf.reduce_sum(ta.concat())
        return g.gradient(y, x)
    np.testing.assert_allclose(f(tf.constant(A)).numpy(), 1.0 + 2.0 * A, rtol=1e-6)
