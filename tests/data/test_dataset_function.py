"""`for` over a tf.data.Dataset inside tf.function: one tf.while_loop (not an unrolled Python loop)
whose body computes each element with ops, compared with the same loop run eagerly."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset

_X = np.random.default_rng(0).normal(size=(10, 3)).astype(np.float32)
_Y = (_X @ np.array([1.0, -2.0, 0.5], np.float32) + 0.25).astype(np.float32)


def _graph_types(graph):
    """Op types of a graph and of the sub-graphs (loop bodies, branches) its ops hold."""
    types = []
    for op in graph.get_operations():
        types.append(op.type)
        for value in op.attrs.values():
            sub = getattr(value, "graph", None)
            if sub is not None and hasattr(sub, "get_operations"):
                types += _graph_types(sub)
    return types


def _op_types(fn, *args):
    return _graph_types(fn.get_concrete_function(*args).graph)


def _loops(fn, *args):
    return sum(t in ("While", "StatelessWhile") for t in _op_types(fn, *args))


def _batch_sums(dataset):
    total = tf.constant(0.0)
    count = tf.constant(0)
    for x, y in dataset:
        total += tf.reduce_sum(x) * 2.0 + tf.reduce_sum(y)
        count += 1
    return total, count


def test_sum_over_batches_matches_eager_and_numpy_and_traces_once():
    ds = Dataset.from_tensor_slices((_X, _Y)).batch(4)
    f = tf.function(_batch_sums)
    total, count = f(ds)
    eager_total, eager_count = _batch_sums(ds)
    np.testing.assert_allclose(total.numpy(), _X.sum() * 2 + _Y.sum(), rtol=1e-5)
    np.testing.assert_allclose(total.numpy(), eager_total.numpy(), rtol=1e-6)
    assert int(count) == int(eager_count) == 3
    f(ds)
    assert f.experimental_get_tracing_count() == 1  # the same dataset object: one trace
    assert _loops(f, ds) == 1
    assert "GatherV2" in _op_types(f, ds)
    # A new dataset of the same pipeline: the same trace, fed the new dataset's tensors (keyed by
    # pipeline, trace/datasets.py; TensorFlow 2.21 keys by element spec and shares it too).
    total, _ = f(Dataset.from_tensor_slices((_X[:6], _Y[:6])).batch(4))
    np.testing.assert_allclose(total.numpy(), _X[:6].sum() * 2 + _Y[:6].sum(), rtol=1e-5)
    assert f.experimental_get_tracing_count() == 1


def test_loop_is_not_unrolled_for_many_elements():
    ds = Dataset.range(1000)

    @tf.function
    def total(dataset):
        s = tf.constant(0, tf.int64)
        for v in dataset:
            s += v * v
        return s

    assert int(total(ds)) == sum(i * i for i in range(1000))
    types = _op_types(total, ds)
    # Placeholders left out: the dataset argument is an input of its trace (trace/datasets.py);
    # the other 15 ops are the bound this test had (19 ops, 4 of them the loop's Placeholders).
    assert len([t for t in types if t != "Placeholder"]) < 16 and _loops(total, ds) == 1


def test_drop_remainder_map_repeat_take_skip_in_graph():
    ds = (Dataset.from_tensor_slices(_X).skip(1).map(lambda r: r * 3.0 + 1.0)
          .repeat(2).take(15).batch(4, drop_remainder=True))

    @tf.function
    def run(dataset):
        acc = tf.zeros([4, 3])
        for b in dataset:
            acc += b
        return acc

    rows = np.concatenate([_X[1:], _X[1:]])[:15] * 3.0 + 1.0
    expected = rows[:12].reshape(3, 4, 3).sum(0)
    np.testing.assert_allclose(run(ds).numpy(), expected, rtol=1e-5)
    np.testing.assert_allclose(run(ds).numpy(), run.python_function(ds).numpy(), rtol=1e-6)


def test_shuffle_in_graph_is_a_permutation_drawn_per_call_and_per_sweep():
    ds = Dataset.range(12).shuffle(12, seed=5).repeat(2)

    @tf.function
    def order(dataset):
        out = tf.TensorArray(tf.int64, size=24)
        i = 0
        for v in dataset:
            out = out.write(i, v)
            i += 1
        return out.stack()

    first, second = order(ds).numpy(), order(ds).numpy()
    for got in (first, second):
        assert sorted(got[:12]) == list(range(12)) and sorted(got[12:]) == list(range(12))
        assert list(got[:12]) != list(got[12:])
    assert list(first) != list(second)
    assert "ShuffleOrder" in _op_types(order, ds)  # the order is drawn in the graph, at each call


def test_shuffled_batches_with_map_cover_every_row():
    ds = Dataset.from_tensor_slices(np.arange(10, dtype=np.float32)).map(lambda v: v * v).shuffle(10).batch(3)

    @tf.function
    def stats(dataset):
        s = tf.constant(0.0)
        n = tf.constant(0)
        for b in dataset:
            s += tf.reduce_sum(b)
            n += tf.size(b)
        return s, n

    s, n = stats(ds)
    assert float(s) == float((np.arange(10) ** 2).sum()) and int(n) == 10


def _sgd_step(x, y, w, b, lr):
    # NOTE: the tape lives in a helper: a `with` block written directly in a converted loop body
    # makes AutoGraph carry `tape` as a loop variable (autograph/analysis.py treats `with` as
    # killing no names), which fails; calls are converted in their own scope.
    with tf.GradientTape() as tape:
        pred = tf.matmul(x, w)[:, 0] + b
        loss = tf.reduce_mean(tf.square(pred - y))
    gw, gb = tape.gradient(loss, [w, b])
    w.assign_sub(lr * gw)
    b.assign_sub(lr * gb)
    return loss


def _regression_epoch(dataset, w, b, lr):
    total = tf.constant(0.0)
    for x, y in dataset:
        total += _sgd_step(x, y, w, b, lr)
    return total


def test_linear_regression_epoch_updates_variables_like_eager():
    ds = Dataset.from_tensor_slices((_X, _Y)).batch(3)
    w_graph, b_graph = tf.Variable(tf.zeros([3, 1])), tf.Variable(0.0)
    w_eager, b_eager = tf.Variable(tf.zeros([3, 1])), tf.Variable(0.0)
    epoch = tf.function(_regression_epoch)
    for _ in range(3):
        lg = epoch(ds, w_graph, b_graph, 0.1)
        le = _regression_epoch(ds, w_eager, b_eager, 0.1)
        np.testing.assert_allclose(lg.numpy(), le.numpy(), rtol=1e-5)
    np.testing.assert_allclose(w_graph.numpy(), w_eager.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(b_graph.numpy(), b_eager.numpy(), rtol=1e-5, atol=1e-6)
    assert epoch.experimental_get_tracing_count() == 1
    assert _loops(epoch, ds, w_graph, b_graph, 0.1) >= 1


def test_seed_good_train_epoch_shape():
    """Seed 000: `@tf.function def good_train_epoch(dataset_iter): for x, y in dataset_iter:
    train_step(x, y)`, the dataset built once outside and passed in."""
    w = tf.Variable(tf.zeros([3, 1]))

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w)[:, 0] - y))
        w.assign_sub(0.05 * tape.gradient(loss, w))
        return loss

    @tf.function
    def good_train_epoch(dataset_iter):
        for x, y in dataset_iter:
            train_step(x, y)

    dataset = Dataset.from_tensor_slices((_X, _Y)).batch(4)
    w_ref = np.zeros((3, 1), np.float32)
    for _ in range(2):
        good_train_epoch(dataset)
        for i in range(0, 10, 4):
            x, y = _X[i:i + 4], _Y[i:i + 4]
            err = (x @ w_ref)[:, 0] - y
            w_ref = w_ref - 0.05 * (2.0 / len(y)) * (x.T @ err)[:, None]
    np.testing.assert_allclose(w.numpy(), w_ref, rtol=1e-4, atol=1e-6)
    assert good_train_epoch.experimental_get_tracing_count() == 1


def test_dataset_built_inside_the_function():
    """Seed 000's `bad_training_loop` still works (it only rebuilds the pipeline per trace)."""
    @tf.function
    def bad_training_loop():
        dataset = Dataset.from_tensor_slices((_X, _Y))
        s = tf.constant(0.0)
        for x, y in dataset.batch(4):
            s += tf.reduce_sum(y)
        return s

    np.testing.assert_allclose(bad_training_loop().numpy(), _Y.sum(), rtol=1e-5)


def test_break_in_an_endless_dataset_loop():
    @tf.function
    def first_over(dataset, limit):
        # NOTE: written with a statement after the `if`: a `break` as the body's last statement is
        # not carried by AutoGraph today (converters/break_continue.py; reported), for tf.range too.
        found = tf.constant(-1, tf.int64)
        for v in dataset:
            if v * v > limit:
                break
            found = v + 1
        return found

    ds = Dataset.range(5).repeat()
    assert int(first_over(ds, tf.constant(10, tf.int64))) == 4
    assert int(first_over(ds, tf.constant(3, tf.int64))) == 2


def test_dict_elements_in_graph():
    ds = Dataset.from_tensor_slices({"a": np.arange(4.0, dtype=np.float32), "b": np.ones(4, np.float32)}).batch(2)

    @tf.function
    def f(dataset):
        s = tf.constant(0.0)
        for e in dataset:
            s += tf.reduce_sum(e["a"] * e["b"])
        return s

    assert float(f(ds)) == 6.0
