"""Functions holding a while-loop's gradient (`WhileGrad`: a training step differentiating through
a `tf.range` loop, an LSTM) save, load and run with the original's results. Until this worked,
`save` refused them ("a sub-graph of WhileGrad, an op the loader does not rebuild")."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf

from .protobuf_edits import first_node, legacy_save, rewrite

from . import fresh_process

W0 = np.array([[0.5, -0.2], [0.1, 0.3]], np.float32)
X = np.array([[0.2, 0.7], [0.9, -0.4], [0.3, 0.1]], np.float32)


class Recurrent(tf.Module):
    """A training step whose loss runs a tf.range loop, so its gradient is a WhileGrad."""

    def __init__(self):
        super().__init__()
        self.w = tf.Variable(W0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def train_step(self, x, n):
        with tf.GradientTape() as tape:
            h = x
            for _ in tf.range(n):
                h = tf.tanh(tf.matmul(h, self.w))
            loss = tf.reduce_sum(h * h)
        g = tape.gradient(loss, self.w)
        self.w.assign_sub(0.1 * g)
        return loss, g


def _numpy_loss(w, x, n):
    h = x.astype(np.float64)
    for _ in range(n):
        h = np.tanh(h @ w)
    return float(np.sum(h * h))


def _finite_difference(w, x, n, eps=1e-6):
    g = np.zeros_like(w, dtype=np.float64)
    for index in np.ndindex(*w.shape):
        up, down = w.astype(np.float64), w.astype(np.float64)
        up[index] += eps
        down[index] -= eps
        g[index] = (_numpy_loss(up, x, n) - _numpy_loss(down, x, n)) / (2 * eps)
    return g


def test_a_train_step_through_a_range_loop_trains_the_same_in_a_fresh_process(tmp_path):
    model = Recurrent()
    tf.saved_model.save(model, str(tmp_path / "rnn"))
    np.save(tmp_path / "x.npy", X)
    first, second, zero_steps, after_assign = fresh_process.run(f"""
m = tf.saved_model.load({str(tmp_path / 'rnn')!r})
x = tf.constant(np.load({str(tmp_path / 'x.npy')!r}))
out(m.train_step(x, tf.constant(3)))
out(m.train_step(x, tf.constant(3)))
out(m.train_step(x, tf.constant(0)))
m.w.assign(np.eye(2, dtype=np.float32))
out(m.train_step(x, tf.constant(1)))
""")
    w = W0.astype(np.float64)
    for loss, g in (first, second):  # the loaded step against NumPy and finite differences
        assert loss == pytest.approx(_numpy_loss(w, X, 3), rel=1e-5)
        np.testing.assert_allclose(g, _finite_difference(w, X, 3), rtol=1e-3, atol=1e-5)
        w = w - 0.1 * np.asarray(g)
    for expected in (first, second):  # and against the original object, step for step
        loss, g = model.train_step(tf.constant(X), tf.constant(3))
        assert float(loss) == pytest.approx(expected[0], rel=1e-6)
        np.testing.assert_allclose(g.numpy(), expected[1], rtol=1e-5, atol=1e-7)
    assert zero_steps[0] == pytest.approx(float(np.sum(X.astype(np.float64) ** 2)), rel=1e-6)
    assert zero_steps[1] == [[0.0, 0.0], [0.0, 0.0]]  # no iteration: nothing reaches w
    # the restored variable is live: assigning it changes the next call
    assert after_assign[0] == pytest.approx(_numpy_loss(np.eye(2), X, 1), rel=1e-5)
    np.testing.assert_allclose(after_assign[1], _finite_difference(np.eye(2), X, 1), rtol=1e-3, atol=1e-5)


def _round_trip(tmp_path, fn, *args):
    holder = tf.Module()
    holder.fn = fn
    expected = fn(*args)
    tf.saved_model.save(holder, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    return expected, loaded.fn(*args), loaded


def test_nested_loops_a_cond_inside_a_loop_and_a_second_order_loop_gradient_round_trip(tmp_path):
    w = tf.Variable(W0)
    x = tf.constant(X)

    @tf.function
    def nested(x):
        with tf.GradientTape() as tape:
            h = x
            for _ in tf.range(2):
                for _ in tf.range(2):  # an inner loop's body captures w through the outer body
                    h = tf.sin(tf.matmul(h, w))
            loss = tf.reduce_sum(h)
        return tape.gradient(loss, w)

    @tf.function
    def cond_in_loop(x):
        with tf.GradientTape() as tape:
            h = x
            for _ in tf.range(4):
                if tf.reduce_sum(h) > 0.5:
                    h = tf.matmul(h, w)
                else:
                    h = h + w[0]
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, w)

    @tf.function
    def second_order(x):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                h = x
                for _ in tf.range(3):
                    h = tf.tanh(tf.matmul(h, w))
                loss = tf.reduce_sum(h)
            g = inner.gradient(loss, w)
            norm = tf.reduce_sum(g * g)
        return outer.gradient(norm, w)

    for fn in (nested, cond_in_loop, second_order):
        expected, got, _ = _round_trip(tmp_path / fn.__name__, fn, x)
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-7, err_msg=fn.__name__)
        assert np.any(expected.numpy() != 0.0)
        # TensorFlow's layout for all three (the second order as a SymbolicGradient of the first-order
        # gradient's function, which eagerflow's loader derives again)
        written = sorted(os.listdir(tmp_path / fn.__name__ / "m"))
        assert "saved_model.json" not in written and "saved_model.pb" in written, (fn.__name__, written)


def test_the_loaded_loop_keeps_only_what_its_gradient_reads(tmp_path):
    # The forward loop stores, per iteration, the body values the gradient reads (not all of them);
    # the loaded loop must keep the same, or a long loop would hold every intermediate.
    model = Recurrent()
    model.train_step(tf.constant(X), tf.constant(2))
    tf.saved_model.save(model, str(tmp_path / "rnn"))
    loaded = tf.saved_model.load(str(tmp_path / "rnn"))

    def kept(cf):
        loops = [op for op in cf.graph.get_operations() if op.type in ("While", "StatelessWhile")]
        return [op.attrs["body"].kept_for_gradient for op in loops]

    original = kept(model.train_step.get_concrete_function())
    assert original and original[0] is not None
    assert kept(loaded.train_step.concrete_functions[0]) == original


def test_a_keras_lstm_training_step_trains_the_same_in_a_fresh_process(tmp_path):
    tf.random.set_seed(3)

    class Trainer(tf.Module):
        def __init__(self):
            super().__init__()
            self.model = tf.keras.Sequential([tf.keras.layers.LSTM(4), tf.keras.layers.Dense(1)])
            self.model.build((None, 5, 3))
            self.optimizer = tf.keras.optimizers.SGD(0.1)

        @tf.function(input_signature=[tf.TensorSpec([None, 5, 3], tf.float32), tf.TensorSpec([None, 1], tf.float32)])
        def train_step(self, x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self.model(x, training=True) - y) ** 2)
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
            return loss

    trainer = Trainer()
    rng = np.random.default_rng(0)
    x, y = rng.random((2, 5, 3)).astype(np.float32), rng.random((2, 1)).astype(np.float32)
    tf.saved_model.save(trainer, str(tmp_path / "lstm"))
    np.savez(tmp_path / "xy.npz", x=x, y=y)
    (losses,) = fresh_process.run(f"""
m = tf.saved_model.load({str(tmp_path / 'lstm')!r})
data = np.load({str(tmp_path / 'xy.npz')!r})
out([float(m.train_step(tf.constant(data['x']), tf.constant(data['y']))) for _ in range(3)])
""")
    expected = [float(trainer.train_step(tf.constant(x), tf.constant(y))) for _ in range(3)]
    assert losses == pytest.approx(expected, rel=1e-5)
    assert losses[2] < losses[0]  # it trains


@pytest.fixture()
def saved_loop_gradient(tmp_path):
    """Recurrent in eagerflow's earlier format, whose files hold the WhileGrad op itself."""
    legacy_save(Recurrent(), tmp_path / "rnn")
    return tmp_path / "rnn"


def test_a_loop_gradient_is_written_as_tensorflows_symbolic_gradient_of_the_forward_loop(tmp_path):
    from eagerflow._src.formats.protos import saved_model_pb2
    tf.saved_model.save(Recurrent(), str(tmp_path / "rnn"))
    assert not (tmp_path / "rnn" / "saved_model.json").exists()
    meta = saved_model_pb2.SavedModel.FromString((tmp_path / "rnn" / "saved_model.pb").read_bytes()).meta_graphs[0]
    library = {f.signature.name: f for f in meta.graph_def.library.function}
    step = next(f for name, f in library.items() if name.startswith("__inference_train_step"))
    (gradient,) = [n for n in step.node_def if n.op == "SymbolicGradient"]
    (call,) = [n for n in step.node_def if n.op in ("PartitionedCall", "StatefulPartitionedCall")]
    forward = library[gradient.attr["f"].func.name]
    assert call.attr["f"].func.name == forward.signature.name  # the loop the step runs is the one differentiated
    assert [n.op for n in forward.node_def if "While" in n.op] == ["While"]  # it reads a variable
    assert list(gradient.input[:len(call.input)]) == list(call.input)  # the loop's inputs, then its gradients
    assert not any(n.op in ("WhileGrad", "LoopHistoryStack") for f in library.values() for n in f.node_def)


def _edit_gradient(directory, edit):
    rewrite(directory, lambda meta: edit(first_node(meta, "SymbolicGradient"), meta))


@pytest.mark.parametrize("edit, problem", [
    (lambda node, meta: node.input.pop(), "takes its 5 inputs and 2 output gradients, not 6 values"),
    (lambda node, meta: node.attr["Tout"].list.type.pop(), "returns one gradient per input"),
    (lambda node, meta: setattr(node.attr["f"].func, "name", "nowhere"), "function 'nowhere' is not in the graph"),
    (lambda node, meta: node.attr["Tout"].list.type.__setitem__(3, 3), "Tout says int32"),
    (lambda node, meta: node.input.__setitem__(5, node.input[6]), "the output gradients do not have the dtypes"),
])
def test_a_tampered_symbolic_gradient_is_refused_as_data_loss(tmp_path, edit, problem):
    tf.saved_model.save(Recurrent(), str(tmp_path / "rnn"))
    _edit_gradient(tmp_path / "rnn", edit)
    with pytest.raises(tf.errors.DataLossError, match=rf"saved_model.pb: .*({problem})"):
        tf.saved_model.load(str(tmp_path / "rnn"))


def _edit_while_grad(directory, edit):
    path = directory / "saved_model.json"
    document = json.loads(path.read_text())
    (op,) = [op for f in document["functions"] for op in f["graph"]["ops"] if op["type"] == "WhileGrad"]
    edit(op, dict(op["attrs"]))
    path.write_text(json.dumps(document))


def _set_attr(op, name, value):
    op["attrs"] = [[k, value if k == name else v] for k, v in op["attrs"]]


@pytest.mark.parametrize("edit, problem", [
    (lambda op, a: _set_attr(op, "ext_index", {"list": [7]}), "ext_index must be distinct positions"),
    (lambda op, a: _set_attr(op, "ext_index", {"list": [0, 0]}), "ext_index must be distinct positions"),
    (lambda op, a: _set_attr(op, "n_vars", 1), "body must take and return n_vars values"),
    (lambda op, a: _set_attr(op, "body_grad", a["body"]), "body_grad does not take and return what"),
    (lambda op, a: op["inputs"].pop(), "a WhileGrad takes the loop's history|body must take"),
    (lambda op, a: op["attrs"].append(["seed_positions", {"tuple": [99]}]), "seed_positions|history's gradient"),
])
def test_a_tampered_loop_gradient_is_refused_as_data_loss(saved_loop_gradient, edit, problem):
    _edit_while_grad(saved_loop_gradient, edit)
    with pytest.raises(tf.errors.DataLossError, match=rf"saved_model.json: .*WhileGrad.*({problem})"):
        tf.saved_model.load(str(saved_loop_gradient))


def test_a_loop_gradient_reading_a_loop_that_keeps_no_history_is_refused(saved_loop_gradient):
    # Its kernel would find no history to walk at call time; the loader says so up front.
    path = saved_loop_gradient / "saved_model.json"
    document = json.loads(path.read_text())
    (loop,) = [op for f in document["functions"] for op in f["graph"]["ops"] if op["type"] in ("While", "StatelessWhile")]
    loop["attrs"] = [[k, False if k == "keep_history" else v] for k, v in loop["attrs"]]
    path.write_text(json.dumps(document))
    with pytest.raises(tf.errors.DataLossError, match=r"WhileGrad.*the history is not that of a loop over this "
                                                      r"body, kept for its gradient"):
        tf.saved_model.load(str(saved_loop_gradient))


def test_a_loop_in_a_called_function_differentiated_by_its_caller_saves_and_loads(tmp_path):
    # The call, recorded by the caller's tape, is inlined: the copied While's body still captures the
    # callee's tensors (`n` cast for the range loop), which the export places by the op's inputs.
    w = tf.Variable(W0)

    @tf.function
    def inner(x, n):
        h = x
        for _ in tf.range(n):
            h = tf.tanh(tf.matmul(h, w))
        return h

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32)])
    def outer(x, n):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(inner(x, n) ** 2)
        return tape.gradient(loss, w)

    holder = tf.Module()
    holder.w, holder.outer = w, outer
    tf.saved_model.save(holder, str(tmp_path / "m"))
    assert (tmp_path / "m" / "saved_model.pb").exists() and not (tmp_path / "m" / "saved_model.json").exists()
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    for n in (0, 1, 3):
        got = loaded.outer(tf.constant(X), tf.constant(n)).numpy()
        np.testing.assert_allclose(got, outer(tf.constant(X), tf.constant(n)).numpy(), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(got, _finite_difference(W0, X, n), rtol=1e-3, atol=1e-5)


def _loss_through_a_residual_loop(x, w):
    h = x.astype(np.float64)
    for _ in range(3):
        h = np.tanh(h @ w) + h * 0.5
    return np.sum(h * h)


def _input_gradient(x, w, eps=1e-6):
    g = np.zeros_like(x, dtype=np.float64)
    for index in np.ndindex(*x.shape):
        up, down = x.astype(np.float64), x.astype(np.float64)
        up[index] += eps
        down[index] -= eps
        g[index] = (_loss_through_a_residual_loop(up, w) - _loss_through_a_residual_loop(down, w)) / (2 * eps)
    return g


def test_a_second_order_loop_gradient_through_the_inputs_loads_with_finite_difference_values(tmp_path):
    # d/dw and d/dx of sum(sin(d loss / dx)): the first-order gradient's output gradient (2h) depends on w
    # too, which the loaded SymbolicGradient must not count twice
    w = tf.Variable(W0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                h = x
                for _ in tf.range(3):
                    h = tf.tanh(tf.matmul(h, w)) + h * 0.5
                loss = tf.reduce_sum(h * h)
            g = inner.gradient(loss, x)
            norm = tf.reduce_sum(tf.sin(g))
        return outer.gradient(norm, [w, x])

    holder = tf.Module()
    holder.w, holder.second = w, second
    tf.saved_model.save(holder, str(tmp_path / "m"))
    assert not (tmp_path / "m" / "saved_model.json").exists()
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    got_w, got_x = (t.numpy() for t in loaded.second(tf.constant(X[:2])))
    expected_w = np.zeros_like(W0, dtype=np.float64)
    for index in np.ndindex(*W0.shape):
        up, down = W0.astype(np.float64), W0.astype(np.float64)
        up[index] += 1e-4
        down[index] -= 1e-4
        expected_w[index] = (np.sum(np.sin(_input_gradient(X[:2], up)))
                             - np.sum(np.sin(_input_gradient(X[:2], down)))) / 2e-4
    np.testing.assert_allclose(got_w, expected_w, rtol=1e-3, atol=1e-4)
    original_w, original_x = (t.numpy() for t in second(tf.constant(X[:2])))
    np.testing.assert_allclose(got_w, original_w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got_x, original_x, rtol=1e-5, atol=1e-6)
