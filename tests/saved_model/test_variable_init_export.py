"""A tf.function that creates a variable from its first call's arguments saves in TensorFlow's format
as TensorFlow 2.21 saves it: the saved function only reads the variable (TensorFlow saves its trace
that creates no variables), and the variable's value is in the checkpoint. Values below were recorded
from TensorFlow 2.21 running the same module: f([1, 2, 3]) = [3, 6, 9], then f([1, 1, 1]) = [3, 5, 7]."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2


class Lazy(tf.Module):
    def __init__(self):
        self.v = None

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def f(self, x):
        if self.v is None:
            self.v = tf.Variable(x * 2.0)
        return self.v + x


def test_a_variable_created_in_a_function_saves_as_a_read(tmp_path):
    m = Lazy()
    assert m.f(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [3.0, 6.0, 9.0]
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    traces = [f for f in message.meta_graphs[0].graph_def.library.function if any(n.op == "AddV2" for n in f.node_def)]
    ops = {n.op for f in traces for n in f.node_def}
    assert traces and "ReadVariableOp" in ops
    assert not ops & {"AssignVariableIfUninitialized", "AssignVariableOp", "VarHandleOp"}
    back = tf.saved_model.load(str(tmp_path / "m"))
    assert back.f(tf.constant([1.0, 1.0, 1.0])).numpy().tolist() == [3.0, 5.0, 7.0]
    np.testing.assert_array_equal(back.v.numpy(), [2.0, 4.0, 6.0])


def test_a_variable_no_call_initialized_cannot_be_saved(tmp_path):
    m = Lazy()
    m.f.get_concrete_function()
    if m.v is not None and m.v._array is not None:
        pytest.skip("tracing initialized the variable")
    with pytest.raises(ValueError, match=r"creates a variable .* that no call has initialized yet"):
        tf.saved_model.save(m, str(tmp_path / "m"))
