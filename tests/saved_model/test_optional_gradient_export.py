"""A function differentiating a loaded model's cond gradient (its branches keep their values in Optionals,
so the gradient flows through OptionalFromValue: eagerflow's OptionalGradientComponents) saves in
TensorFlow's format, as a StatelessIf reading the gradient Optional (OptionalGetValue) when it holds a
value, else zeros, and loads back with the same values. Expected values recorded from TensorFlow 2.21:
the gradient of the squared norm of the cond gradient, computed there with nested tapes on the same
model."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

from .test_cond_gradients import XS, CondModel

TF_PENALTY_GRADIENTS = [[[1.0921435356140137, -1.189177393913269], [-0.18395695090293884, 1.16460120677948]],
                        [[2.1419999599456787, -0.8319999575614929], [0.0, 0.0]],
                        [[-10.8436279296875, 21.738170623779297], [12.419052124023438, 0.5958567261695862]]]


class Penalty(tf.Module):
    """The gradient, with respect to the weights, of the squared norm of a loaded model's cond gradient."""

    def __init__(self, loaded):
        self.inner, self.w = loaded, loaded.w

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def penalty_grad(self, x):
        with tf.GradientTape() as tape:
            g = self.inner.cond_grad(x)
            penalty = tf.reduce_sum(g * g)
        return tape.gradient(penalty, self.w)


def make(tmp_path):
    tf.saved_model.save(CondModel(), str(tmp_path / "inner"))
    return Penalty(tf.saved_model.load(str(tmp_path / "inner")))


def check(module):
    for x, expected in zip(XS, TF_PENALTY_GRADIENTS):
        np.testing.assert_allclose(module.penalty_grad(tf.constant(x)).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_the_gradient_of_a_loaded_cond_gradient_saves_and_loads_back(tmp_path):
    m = make(tmp_path)
    check(m)
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    nodes = [n for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def]
    ops = {n.op for n in nodes}
    assert "OptionalGradientComponents" not in ops and {"OptionalHasValue", "OptionalGetValue"} <= ops
    assert any(n.attr["_eagerflow_op"].s == b"OptionalGradientComponents" for n in nodes if "_eagerflow_op" in n.attr)
    check(tf.saved_model.load(str(tmp_path / "m")))
