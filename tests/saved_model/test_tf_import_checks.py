"""What the importer of TensorFlow's SavedModel layout checks before it builds anything: every unsupported
op type of the functions it will import is named in one error; an attribute eagerflow's kernel does not
take is dropped only when its value cannot change the result on a CPU, and refused (naming op type, node
and attribute) otherwise; attributes TensorFlow left out at their defaults are filled back in. The
models are written by eagerflow in TensorFlow's layout and edited as TensorFlow would have written them;
tests/interop/test_tf_savedmodel_parity.py loads files TensorFlow itself wrote."""

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.saved_model.tf_format.op_support import supported_op_types


class _Ops(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]], name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def serve(self, x):
        y = tf.matmul(x, self.w) * 2.0 + 1.0
        return {"y": y, "n": tf.cast(y, tf.int32), "same": tf.equal(x, 1.0),
                "text": tf.strings.format("x={}", x[0, 0])}


X = np.array([[1.0, 0.5], [-2.0, 3.0]], np.float32)


def _saved(tmp_path):
    m = _Ops()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.serve})
    assert not (tmp_path / "m" / "saved_model.json").exists()  # TensorFlow's layout only
    return tmp_path / "m", {k: v.numpy() for k, v in m.serve(X).items()}


def _rewrite(directory, change):
    from eagerflow._src.formats.protos import saved_model_pb2
    path = directory / "saved_model.pb"
    message = saved_model_pb2.SavedModel.FromString(path.read_bytes())
    change(message.meta_graphs[0])
    path.write_bytes(message.SerializeToString())


def _nodes(meta, op_type):
    return [n for f in meta.graph_def.library.function for n in f.node_def if n.op == op_type]


def _served(directory):
    return tf.saved_model.load(str(directory)).signatures["serving_default"](x=tf.constant(X))


def test_every_unsupported_op_type_is_named_in_one_error(tmp_path):
    directory, _ = _saved(tmp_path)

    def two_unknown(meta):
        _nodes(meta, "Mul")[0].op = "NoSuchOp"
        _nodes(meta, "AddV2")[0].op = "OtherMissingOp"
    _rewrite(directory, two_unknown)
    with pytest.raises(tf.errors.DataLossError) as info:
        tf.saved_model.load(str(directory))
    message = str(info.value)
    assert "2 op type(s) eagerflow does not support" in message
    assert "unknown op type 'NoSuchOp': node 'mul'" in message
    assert "unknown op type 'OtherMissingOp': node 'add'" in message
    assert "saved_model.pb" in message


def test_attributes_that_cannot_change_the_result_are_accepted(tmp_path):
    directory, expected = _saved(tmp_path)

    def device_hints(meta):
        matmul = _nodes(meta, "MatMul")[0]
        matmul.attr["grad_a"].b = True  # hints for TensorFlow's gradient code
        matmul.attr["grad_b"].b = True
        _nodes(meta, "Equal")[0].attr["incompatible_shape_error"].b = True
        _nodes(meta, "Cast")[0].attr["Truncate"].b = False
    _rewrite(directory, device_hints)
    out = _served(directory)
    np.testing.assert_array_equal(out["y"], expected["y"])
    np.testing.assert_array_equal(out["n"], expected["n"])
    np.testing.assert_array_equal(out["same"], expected["same"])


@pytest.mark.parametrize("op_type, attr, value", [("Cast", "Truncate", True),
                                                  ("Equal", "incompatible_shape_error", False)])
def test_an_attribute_that_changes_the_result_is_refused_naming_op_node_and_attribute(tmp_path, op_type, attr,
                                                                                      value):
    directory, _ = _saved(tmp_path)
    _rewrite(directory, lambda meta: setattr(_nodes(meta, op_type)[0].attr[attr], "b", value))
    with pytest.raises(tf.errors.DataLossError,
                       match=rf"{op_type} node '\w+' has attribute '{attr}' = {value}, which changes what the op "
                             rf"computes; eagerflow's {op_type} does not implement it"):
        tf.saved_model.load(str(directory))


def test_an_attribute_left_out_at_its_default_is_filled_in(tmp_path):
    directory, expected = _saved(tmp_path)

    def strip(meta):  # TensorFlow saves with default-valued attributes stripped
        node = _nodes(meta, "StringFormat")[0]
        assert node.attr["summarize"].i == 3
        del node.attr["summarize"]
    _rewrite(directory, strip)
    assert _served(directory)["text"].numpy() == expected["text"] == b"x=1"


def test_the_supported_list_holds_what_exported_models_contain():
    names = set(supported_op_types())
    assert {"StatefulPartitionedCall", "StatelessWhile", "StatelessCase", "IdentityN", "Conv2D",
            "FusedBatchNormV3", "TensorListReserve", "TensorListSetItem", "TensorListStack", "LookupTableFindV2",
            "Bucketize", "RaggedTensorToTensor", "StringSplitV2", "MatrixDiagPartV3", "Einsum"} <= names
    assert not {"Placeholder", "PyFunc", "EagerPyFunc", "IteratorGetNext", "VocabularyLookup", "WriteSummary"} & names
