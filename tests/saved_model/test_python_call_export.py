"""A tf.function calling tf.py_function / tf.numpy_function saves as TensorFlow 2.21 saves it: no error
and no warning, the EagerPyFunc / PyFunc / PyFuncStateless node written with its types and a callback
`token` (TensorFlow's "pyfunc_<n>"), not the Python function. Loading it in TensorFlow succeeds and the
node fails when it runs (tests/interop/test_python_call_interop.py); eagerflow's loader refuses it."""
import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

FLOAT, INT32 = 1, 3


class _Calls(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def eager(self, x):
        return tf.py_function(lambda a: a * 2, [x], tf.float32) + 1.0

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def numpy(self, x):
        doubled, count = tf.numpy_function(lambda a: (a * 2, a.size), [x], (tf.float32, tf.int64))
        return doubled, tf.numpy_function(lambda a: a.astype("int32"), [x], tf.int32, stateful=False), count


def _nodes(path):
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((path / "saved_model.pb").read_bytes())
    return [n for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def
            if n.op in ("EagerPyFunc", "PyFunc", "PyFuncStateless")]


def test_python_calls_save_in_tensorflows_format_without_a_warning(tmp_path, caplog):
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(_Calls(), str(tmp_path / "m"))
    assert caplog.text == ""
    assert (tmp_path / "m" / "saved_model.pb").exists() and not (tmp_path / "m" / "saved_model.json").exists()
    nodes = _nodes(tmp_path / "m")
    assert sorted(n.op for n in nodes) == ["EagerPyFunc", "PyFunc", "PyFuncStateless"]
    by_op = {n.op: n for n in nodes}
    assert list(by_op["EagerPyFunc"].attr["Tin"].list.type) == [FLOAT]
    assert list(by_op["EagerPyFunc"].attr["Tout"].list.type) == [FLOAT]
    assert list(by_op["PyFunc"].attr["Tout"].list.type) == [FLOAT, 9]  # float32, int64
    assert list(by_op["PyFuncStateless"].attr["Tout"].list.type) == [INT32]
    tokens = [n.attr["token"].s.decode() for n in nodes]
    assert len(set(tokens)) == 3 and all(t.startswith("pyfunc_") and t[7:].isdigit() for t in tokens)
    assert not any(key in n.attr for n in nodes for key in ("func", "_func"))  # no Python in the file


def test_eagerflows_loader_refuses_the_python_calls(tmp_path):
    tf.saved_model.save(_Calls(), str(tmp_path / "m"))
    with pytest.raises(tf.errors.PermissionDeniedError, match="runs Python code") as raised:
        tf.saved_model.load(str(tmp_path / "m"))
    for op in ("EagerPyFunc", "PyFunc", "PyFuncStateless"):
        assert f"(op {op})" in str(raised.value)
