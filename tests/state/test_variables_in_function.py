"""Variables created inside tf.function: TensorFlow 2.21's first-call rule and initial values
computed in the graph (results written in from TF runs)."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf

SINGLETON = ("tf.function only supports singleton tf.Variables created on the first call. Make sure the tf.Variable is "
             "only created once or created outside tf.function. See "
             "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")


class Lazy(tf.Module):
    """The pattern TensorFlow's guide recommends."""

    def __init__(self, make):
        self.v = None
        self._make = make

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(self._make(x))
        return self.v * x


def test_guide_pattern_with_a_symbolic_constant_initial_value():
    m = Lazy(lambda x: tf.zeros([3]) + 2.0)
    np.testing.assert_array_equal(m(tf.constant(1.0)).numpy(), [2.0, 2.0, 2.0])
    assert m.__call__.experimental_get_tracing_count() == 2  # TF 2.21 traces twice on a creating call
    np.testing.assert_array_equal(m(tf.constant(2.0)).numpy(), [4.0, 4.0, 4.0])
    assert m.__call__.experimental_get_tracing_count() == 2
    assert repr(m.v) == "<tf.Variable 'Variable:0' shape=(3,) dtype=float32, numpy=array([2., 2., 2.], dtype=float32)>"


def test_lifted_initial_value_is_computed_once_from_constants_random_ops_and_variables():
    other = tf.Variable([1.0, 2.0])
    holder = {}

    @tf.function
    def f(x):
        if "v" not in holder:
            holder["v"] = tf.Variable(tf.ones([2, 2]) * 3.0 + tf.reduce_sum(other), name="lazy")
        return tf.reduce_sum(holder["v"]) + x

    assert f(tf.constant(1.0)).numpy() == 25.0  # TF: 4 * (3 + 3) + 1
    np.testing.assert_array_equal(holder["v"].numpy(), np.full((2, 2), 6.0, np.float32))
    assert holder["v"].name == "lazy:0"
    other.assign([0.0, 0.0])  # the initial value was taken once, not re-read
    assert f(tf.constant(2.0)).numpy() == 26.0


def test_initial_value_that_depends_on_the_arguments_is_set_by_the_first_call():
    m = Lazy(lambda x: x * 2.0)
    m2 = type("M2", (tf.Module,), {})()
    # TF 2.21: v = 2 * (first call's x); v + x afterwards.
    np.testing.assert_array_equal(m(tf.constant([1.0, 2.0])).numpy(), [2.0, 8.0])
    np.testing.assert_array_equal(m(tf.constant([5.0, 5.0])).numpy(), [10.0, 20.0])
    np.testing.assert_array_equal(m.v.numpy(), [2.0, 4.0])
    del m2


def test_initial_value_from_an_argument_and_from_its_dynamic_shape():
    holder = {}

    @tf.function
    def f(x):
        if "v" not in holder:
            holder["v"] = tf.Variable(x)
        return holder["v"] + 1.0

    assert f(tf.constant(1.0)).numpy() == 2.0 and f(tf.constant(5.0)).numpy() == 2.0  # TF 2.21
    assert holder["v"].numpy() == 1.0

    kept = {}

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def g(x):
        if "v" not in kept:
            kept["v"] = tf.Variable(tf.zeros_like(x))
        return kept["v"]

    np.testing.assert_array_equal(g(tf.constant([1.0, 2.0])).numpy(), [0.0, 0.0])
    assert kept["v"].shape.as_list() == [None]  # TF 2.21: TensorShape([None])


def test_variable_created_in_function_takes_part_in_gradients_and_updates():
    holder = {}

    @tf.function
    def step(x):
        if "v" not in holder:
            holder["v"] = tf.Variable(3.0)
        with tf.GradientTape() as tape:
            y = holder["v"] * x
        holder["v"].assign_add(x)
        return tape.gradient(y, holder["v"]), holder["v"].read_value()

    g, v = step(tf.constant(2.0))
    assert (g.numpy(), v.numpy()) == (2.0, 5.0)
    g, v = step(tf.constant(2.0))
    assert (g.numpy(), v.numpy()) == (2.0, 7.0)


def test_a_function_creating_a_variable_on_every_call_fails_on_its_first_call():
    traces = []

    @tf.function
    def every(x):
        traces.append(1)
        return tf.Variable(1.0) + x

    with pytest.raises(ValueError) as info:
        every(tf.constant(1.0))
    assert str(info.value) == SINGLETON
    assert len(traces) == 2  # TF 2.21: the second trace of the first call is the one that raises


def test_variables_created_by_a_later_trace_raise():
    holder = {}

    @tf.function
    def f(x):
        if x.shape.rank == 1 and "v" not in holder:
            holder["v"] = tf.Variable(0.0)
        return x

    f(tf.constant(1.0))
    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables"):
        f(tf.constant([1.0]))


def test_variables_created_in_functions_are_not_kept_alive():
    """Neither the pending initializer nor the lifting keeps a variable (or its function) alive.
    (Methods are left out: Function.__get__'s per-instance cache holds its instance today.)"""
    refs = []
    def make(from_argument):
        holder = {}

        def body(x):
            if "v" not in holder:
                holder["v"] = tf.Variable(x * 2.0 if from_argument else tf.zeros([2]) + 1.0)
            return holder["v"] + x
        return tf.function(body), holder

    for i in range(300):
        f, holder = make(i % 2 == 1)
        f(tf.constant([1.0, 2.0]))
        refs.append(weakref.ref(holder["v"]))
        del f, holder
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_a_variable_created_on_every_call_is_refused_at_the_line_that_creates_it():
    """TensorFlow's message shows the user's `tf.Variable(...)` line ("in user code: ... v = tf.Variable(1.0)");
    here the traceback's last user frame is that line."""
    import inspect
    import traceback

    import pytest

    import eagerflow as tf

    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v * x

    line = inspect.getsourcelines(f.python_function)[1] + 2
    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call") as caught:
        f(tf.constant(1.0))
    frames = [fr for fr in traceback.extract_tb(caught.value.__traceback__) if fr.filename == __file__]
    assert frames[-1].lineno == line and "tf.Variable(1.0)" in frames[-1].line
