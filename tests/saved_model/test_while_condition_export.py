"""A tf.while_loop whose condition is not a scalar (`i < n` with n of shape [1]): TensorFlow 2.21 squeezes the
condition to the scalar it holds (a Squeeze in the condition's function) and runs the loop; a condition still
holding several values fails when the loop runs (InvalidArgumentError, "The second input must be a scalar, but it
has shape [2]"). Saved, the If and While nodes carry `_lower_using_switch_merge` as TensorFlow writes them, so
TensorFlow's runtime checks the predicate as for its own graphs (tests/interop/test_while_condition_interop.py);
before, a scalar-typed `n` fed as shape [1] through TensorFlow's C API looped for ever. Values recorded from
TensorFlow 2.21 on the same programs."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2


class Looper(tf.Module):
    def __init__(self):
        super().__init__()
        self.shift = tf.Variable(0.25)

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x"), tf.TensorSpec([1], tf.int32, name="n")])
    def one_row(self, x, n):
        _, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + x), (tf.constant(0), tf.constant(0.0)))
        return total

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x"), tf.TensorSpec([None], tf.int32, name="n")])
    def any_length(self, x, n):
        _, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + x), (tf.constant(0), tf.constant(0.0)))
        return total

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x"), tf.TensorSpec([], tf.int32, name="n")])
    def looped(self, x, n):
        y = tf.cond(x > 0, lambda: x * self.shift, lambda: x - 1.0)
        _, total = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + y), (tf.constant(0), tf.constant(0.0)))
        return total


# (method, x, n, TensorFlow 2.21's answer)
TF_RUNS = [("one_row", 2.0, [3], 6.0), ("one_row", 2.0, [0], 0.0), ("any_length", 2.0, [4], 8.0),
           ("looped", 2.0, 3, 1.5), ("looped", -1.0, 4, -8.0)]


def check(module):
    for method, x, n, want in TF_RUNS:
        got = getattr(module, method)(tf.constant(x), tf.constant(n, tf.int32))
        assert got.numpy() == np.float32(want), (method, x, n)


def test_non_scalar_loop_condition_is_squeezed_as_tensorflow(tmp_path):
    m = Looper()
    check(m)
    ops = {op.type for op in m.one_row.get_concrete_function().graph.get_operations()}
    assert "StatelessWhile" in ops
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    functions = message.meta_graphs[0].graph_def.library.function
    conditions = [f for f in functions if any(n.op == "Less" for n in f.node_def)
                  and any(n.op == "Squeeze" for n in f.node_def)]
    assert len(conditions) == 2  # one_row's and any_length's conditions; looped's is a scalar already
    control = [n for f in functions for n in f.node_def if n.op in ("If", "StatelessIf", "While", "StatelessWhile")]
    assert len(control) == 4 and all(n.attr["_lower_using_switch_merge"].b for n in control)
    check(tf.saved_model.load(str(tmp_path / "m")))


def test_condition_holding_several_values_fails_when_the_loop_runs():
    # TensorFlow: InvalidArgumentError "The second input must be a scalar, but it has shape [2]". (A condition of
    # shape [0] fails so under NumPy 2; the compiled loop's truth test under NumPy 1.26 reads it as False.)
    with pytest.raises(tf.errors.InvalidArgumentError):
        Looper().any_length(tf.constant(2.0), tf.constant([3, 1], tf.int32))


def test_condition_known_to_hold_several_values_is_refused():
    loop = tf.function(lambda: tf.while_loop(lambda i: i < tf.constant([3, 4]), lambda i: i + 1, [tf.constant(0)]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"The second input must be a scalar, but it has shape "
                                                             r"\[2\]"):
        loop()
