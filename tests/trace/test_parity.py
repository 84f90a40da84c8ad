"""The eager/graph parity check (eagerflow extension, trace/parity.py): the seed documents'
pitfalls (a frozen global, a frozen Python bool branch, a tensor's value made concrete at trace
time) are reported with the output and both values; agreeing functions (random ops, assigning
Variables) report nothing and keep their state; the call's result stays TensorFlow's (the graph's).

Expected values come from NumPy / plain Python on the same inputs (what the eager run computes)
and from TensorFlow's semantics for the graph (frozen values, as tests/trace/test_function.py)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.trace import parity

HERE = __file__


@pytest.fixture(autouse=True)
def _parity_off_after():
    yield
    tf.config.experimental_check_parity(False)


def _calls_with_warnings(fn, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args)
    return result, [w for w in caught if issubclass(w.category, tf.errors.ParityWarning)]


def _line_of(fn, text):
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


THRESHOLD = 0.5


@tf.function
def filter_predictions(preds):
    return preds > THRESHOLD


def test_a_frozen_global_changed_between_calls_is_reported_with_both_values():
    global THRESHOLD
    tf.config.experimental_check_parity(True)
    filter_predictions.cache_clear()
    p = tf.constant([0.6, 0.9])
    try:
        THRESHOLD = 0.5
        result, reports = _calls_with_warnings(filter_predictions, p)
        assert result.numpy().tolist() == [True, True] and reports == []  # graph and eager agree
        THRESHOLD = 0.8
        result, reports = _calls_with_warnings(filter_predictions, p)
    finally:
        THRESHOLD = 0.5
    assert result.numpy().tolist() == [True, True]  # TensorFlow's result: 0.5 is frozen in the graph
    assert len(reports) == 1
    text = str(reports[0].message)
    assert "tf.function 'filter_predictions'" in text
    assert "output: graph [ True,  True]" in text and "eager [False,  True]" in text  # NumPy: [0.6, 0.9] > 0.8
    assert "first at index [0]: True vs False" in text
    assert "node 'Greater/y' (Const)" in text and "traced 0.5" in text and "now 0.8" in text
    assert f"{HERE}:{_line_of(filter_predictions.python_function, 'preds > THRESHOLD')}" in text
    assert reports[0].filename == HERE  # the warning points at the user's call


def test_a_python_bool_global_branch_frozen_at_trace_time_is_reported():
    state = {"debug_mode": True}

    @tf.function(experimental_check_parity=True)
    def buggy_function(x):
        if state["debug_mode"]:
            tf.print("Processing:", x)
            return x * 2
        return x

    assert buggy_function(tf.constant(3.0)).numpy() == 6.0
    state["debug_mode"] = False
    result, reports = _calls_with_warnings(buggy_function, tf.constant(3.0))
    assert result.numpy() == 6.0  # the graph's branch
    text = str(reports[0].message)
    assert "output: graph 6.0 (float32, shape [])" in text and "eager 3.0 (float32, shape [])" in text
    assert "is in the traced graph but not in a trace made now" in text


def test_a_tensor_value_made_concrete_at_trace_time_is_reported():
    flags = {"use_relu": tf.constant(True)}

    @tf.function(experimental_check_parity=True)
    def bad_branch(x):
        if flags["use_relu"].numpy():  # an eager tensor's value read while tracing: a Python bool
            return tf.nn.relu(x)
        return x

    x = tf.constant([-1.0, 2.0])
    assert bad_branch(x).numpy().tolist() == [0.0, 2.0]
    flags["use_relu"] = tf.constant(False)
    result, reports = _calls_with_warnings(bad_branch, x)
    assert result.numpy().tolist() == [0.0, 2.0]
    text = str(reports[0].message)
    assert "graph [0., 2.]" in text and "eager [-1.,  2.]" in text and "first at index [0]: 0.0 vs -1.0" in text
    assert "node 'Relu' (Relu)" in text


def test_the_seeds_bad_branch_on_a_python_bool_argument_agrees():
    """Seed 002 says bad_branch(False) still returns 0.0; in TensorFlow a Python bool argument is
    part of the trace key, so it retraces and graph and eager agree: nothing to report."""
    @tf.function(experimental_check_parity=True)
    def bad_branch(use_relu):
        if use_relu:
            return tf.nn.relu(-1.0)
        return tf.constant(-1.0)

    for flag, expected in ((True, 0.0), (False, -1.0)):
        result, reports = _calls_with_warnings(bad_branch, flag)
        assert result.numpy() == expected and reports == []


def test_nothing_is_reported_when_graph_and_eager_agree_and_only_the_first_calls_are_checked():
    tf.config.experimental_check_parity(True, calls=2)
    scale = {"k": 2.0}

    @tf.function
    def f(x, n):
        y = x
        for _ in range(n):  # a Python loop on a Python int: unrolled alike
            y = y * scale["k"] + tf.reduce_sum(x)
        return {"y": y, "pair": (y, tf.cast(tf.shape(x)[0], tf.int32))}

    x = tf.constant([1.0, 2.0])
    for _ in range(2):
        out, reports = _calls_with_warnings(f, x, 2)
        assert reports == []
        np.testing.assert_allclose(out["y"].numpy(), [13.0, 17.0])
    cf = f.get_concrete_function(x, 2)
    assert not isinstance(cf._fn, parity._Checked)  # checks used up: the plain generated code again
    scale["k"] = 3.0
    _, reports = _calls_with_warnings(f, x, 2)
    assert reports == []  # past the first 2 calls: not checked


def test_random_ops_are_not_compared_and_the_users_random_stream_is_unchanged():
    @tf.function
    def noisy(x):
        return x + tf.random.uniform([3]), x * 2.0

    def draws(check):
        tf.config.experimental_check_parity(check)
        noisy.cache_clear()
        tf.random.set_seed(7)
        out = [noisy(tf.constant([1.0, 2.0, 3.0]))[0].numpy() for _ in range(3)]
        return out + [tf.random.normal([2]).numpy()]

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        checked = draws(True)
    assert [w for w in caught if issubclass(w.category, tf.errors.ParityWarning)] == []
    plain = draws(False)
    for a, b in zip(checked, plain):
        np.testing.assert_array_equal(a, b)
    assert parity._random_output_paths(noisy.get_concrete_function(tf.constant([1.0, 2.0, 3.0]))) == {"output[0]"}


def test_variables_that_assign_agree_and_keep_the_graphs_state():
    v = tf.Variable([1.0, 1.0])

    @tf.function(experimental_check_parity=True)
    def step(x):
        v.assign_add(x)
        return v * 2.0

    for i in range(1, 4):
        out, reports = _calls_with_warnings(step, tf.constant([1.0, 2.0]))
        assert reports == []
        np.testing.assert_array_equal(v.numpy(), [1.0 + i, 1.0 + 2 * i])  # one update per call, not two
        np.testing.assert_array_equal(out.numpy(), 2 * v.numpy())


def test_a_state_difference_is_reported_by_variable_and_the_graphs_state_kept():
    v = tf.Variable(0.0, name="acc")
    factor = {"k": 1.0}

    @tf.function(experimental_check_parity=True)
    def write(x):
        v.assign(x * factor["k"])
        return x

    write(tf.constant(2.0))
    factor["k"] = 10.0
    _, reports = _calls_with_warnings(write, tf.constant(2.0))
    assert v.numpy() == 2.0  # the graph's write (frozen factor 1.0)
    text = str(reports[0].message)
    assert "variable 'acc:0' after the call: graph 2.0 (float32, shape []), eager 20.0 (float32, shape [])" in text


def test_raise_mode_and_switches():
    limit = {"v": 1.0}

    @tf.function
    def f(x):
        return tf.minimum(x, limit["v"])

    tf.config.experimental_check_parity(True, mode="raise")
    assert tf.config.experimental_get_check_parity()
    f(tf.constant(5.0))
    limit["v"] = 2.0
    with pytest.raises(tf.errors.ParityError, match=r"output: graph 1\.0 .*eager 2\.0"):
        f(tf.constant(5.0))
    with pytest.raises(ValueError, match="mode"):
        tf.config.experimental_check_parity(True, mode="loud")

    tf.config.experimental_check_parity(False)

    @tf.function(experimental_check_parity=False)
    def g(x):
        return x * limit["v"]

    tf.config.experimental_check_parity(True)
    cf = g.get_concrete_function(tf.constant(1.0))
    assert not isinstance(cf._fn, parity._Checked)  # the function's own False wins


def test_off_costs_nothing_on_the_call_path():
    @tf.function
    def f(x):
        return x + 1.0

    cf = f.get_concrete_function(tf.constant(1.0))
    assert not isinstance(cf._fn, parity._Checked)


def test_a_method_and_a_nested_function_are_checked():
    offset = {"v": 1.0}

    @tf.function
    def inner(x):
        return x + offset["v"]

    class M(tf.Module):
        @tf.function(experimental_check_parity=True)
        def __call__(self, x):
            return inner(x) * 2.0

    m = M()
    assert m(tf.constant(1.0)).numpy() == 4.0
    offset["v"] = 2.0
    out, reports = _calls_with_warnings(m, tf.constant(1.0))
    assert out.numpy() == 4.0  # the graph inlined inner's trace of 1.0
    assert "graph 4.0" in str(reports[0].message) and "eager 6.0" in str(reports[0].message)


def test_print_runs_once_per_call_under_the_check(capfd):
    @tf.function(experimental_check_parity=True)
    def shout(x):
        tf.print("value:", x)
        return x + 1.0

    for _ in range(2):
        shout(tf.constant(1.0))
    err = capfd.readouterr().err
    assert err.count("value: 1") == 2  # the graph's print per call; the eager and fresh-trace runs are silent


def test_checked_calls_from_many_threads_agree_and_report_nothing():
    import threading
    v = tf.Variable(0.0)

    @tf.function(experimental_check_parity=True)
    def bump(x):
        v.assign_add(1.0)
        return x * 2.0

    bump(tf.constant(1.0))
    errors, results = [], []

    def worker():
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                results.append(bump(tf.constant(3.0)).numpy())
            errors.extend(w for w in caught if issubclass(w.category, tf.errors.ParityWarning))
        except Exception as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and results == [6.0] * 8
    assert v.numpy() == 9.0  # one update per call, the eager runs' undone


def test_checked_functions_are_freed():
    import gc
    import weakref
    tf.config.experimental_check_parity(True)
    refs = []
    for i in range(300):
        @tf.function
        def f(x):
            return x * 2.0

        f(tf.constant(float(i)))
        refs.append(weakref.ref(f))
        del f
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_a_structure_difference_names_both_structures():
    mode = {"pair": True}

    @tf.function(experimental_check_parity=True)
    def f(x):
        if mode["pair"]:
            return x, x * 2.0
        return {"y": x}

    f(tf.constant(1.0))
    mode["pair"] = False
    _, reports = _calls_with_warnings(f, tf.constant(1.0))
    text = str(reports[0].message)
    assert "the output structures differ: graph ['output[0]', 'output[1]'], eager [\"output['y']\"]" in text


def test_input_signature_functions_and_none_outputs_are_checked():
    gain = {"k": 2.0}

    @tf.function(input_signature=[tf.TensorSpec([None])], experimental_check_parity=True)
    def f(x):
        return x * gain["k"], None

    out, reports = _calls_with_warnings(f, tf.constant([1.0, 2.0]))
    assert reports == [] and out[1] is None
    gain["k"] = 3.0
    _, reports = _calls_with_warnings(f, tf.constant([1.0, 2.0]))
    text = str(reports[0].message)
    assert "output[0]: graph [2., 4.] (float32, shape [2]), eager [3., 6.] (float32, shape [2])" in text
    assert "node 'mul/y' (Const)" in text and "traced 2.0" in text and "now 3.0" in text


def test_keras_fit_under_the_check_trains_exactly_as_without_it():
    """Optimizer slots, iteration counter and metric state: the eager runs leave no trace."""
    def train(check):
        tf.config.experimental_check_parity(check)
        rng = np.random.default_rng(0)
        x = rng.standard_normal((48, 8)).astype("float32")
        y = (x.sum(1) > 0).astype("int32")
        model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(2)])
        model.build((None, 8))
        model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.3 for w in model.get_weights()])
        model.compile(optimizer="adam", metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history = model.fit(x, y, epochs=2, batch_size=16, verbose=0, shuffle=False).history
        assert [w for w in caught if issubclass(w.category, tf.errors.ParityWarning)] == []
        return history, [w.copy() for w in model.get_weights()], int(model.optimizer.iterations.numpy())

    checked, plain = train(True), train(False)
    assert checked[0] == plain[0] and checked[2] == plain[2] == 6
    for a, b in zip(checked[1], plain[1]):
        np.testing.assert_array_equal(a, b)
