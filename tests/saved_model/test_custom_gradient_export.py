"""A custom gradient TensorFlow saved (eagerflow's SavedCustomGradient, as the importer rebuilds it) saves
again in TensorFlow's format as TensorFlow 2.21 writes one with SaveOptions(experimental_custom_gradients=
True): an IdentityN whose `_gradient_op_type` is a registered gradient function of the library, that
function's trailing inputs bound to `captured_tensor` objects naming tensors of the forward function.
Loading it back gives the custom gradient, here dy * (sin(t) + 10), checked against NumPy."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2
from eagerflow._src.ops.control.saved_custom_gradient import SavedCustomGradient
from eagerflow._src.ops.registry import bind

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], np.float32)
V = np.array([1.0, 2.0, 3.0], np.float32)


def _gradient_function():
    """(dresult, dt, sin t) -> dt_total: what TensorFlow's saved gradient function computes."""
    @tf.function(input_signature=[tf.TensorSpec([None, 3])] * 3)
    def grad(result_grads_0, result_grads_1, sin_t):
        return result_grads_0 * (sin_t + 10.0)
    return grad.get_concrete_function()


class Restored(tf.Module):
    """A module as the importer rebuilds a TensorFlow custom gradient: y = t * sin(t), t = x * v."""

    def __init__(self):
        self.v = tf.Variable(V)
        self.grad = _gradient_function()

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def serve(self, x):
        t = x * self.v
        s = tf.sin(t)
        return bind(SavedCustomGradient, (t * s, t, s), {"_function": self.grad, "n_outputs": 2})[0]


def expected_gradient(x):
    return (np.sin(x * V) + 10.0) * V


def _gradient(module, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = module.serve(x)
    return y, tape.gradient(y, x)


def test_a_saved_custom_gradient_is_written_as_tensorflow_writes_it(tmp_path):
    m = Restored()
    y, g = _gradient(m, X)
    np.testing.assert_allclose(y.numpy(), X * V * np.sin(X * V), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), expected_gradient(X), rtol=1e-5)
    tf.saved_model.save(m, str(tmp_path / "m"), signatures=m.serve)
    meta = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes()).meta_graphs[0]
    # each IdentityN written has its own registered gradient function (bound to its own forward tensors)
    registered = list(meta.graph_def.library.registered_gradients)
    identity = [n for f in meta.graph_def.library.function for n in f.node_def if n.op == "IdentityN"]
    assert sorted(n.attr["_gradient_op_type"].s.decode() for n in identity) == sorted(
        r.registered_op_type for r in registered)
    assert registered and len({r.gradient_func for r in registered}) == len(registered)
    saved = meta.object_graph_def.concrete_functions[registered[0].gradient_func]
    captured = [meta.object_graph_def.nodes[i].captured_tensor for i in saved.bound_inputs]
    assert len(captured) == 1 and captured[0].concrete_function in meta.object_graph_def.concrete_functions
    forward = next(f for f in meta.graph_def.library.function if f.signature.name == captured[0].concrete_function)
    node = captured[0].name.split(":")[0]
    assert next(n.op for n in forward.node_def if n.name == node) == "Sin"
    back = tf.saved_model.load(str(tmp_path / "m"))
    y, g = _gradient(back, X)
    np.testing.assert_allclose(y.numpy(), X * V * np.sin(X * V), rtol=1e-6)
    np.testing.assert_allclose(g.numpy(), expected_gradient(X), rtol=1e-5)
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = back.signatures["serving_default"](x=x)["output_0"]
    np.testing.assert_allclose(tape.gradient(z, x).numpy(), expected_gradient(X), rtol=1e-5)
