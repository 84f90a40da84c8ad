"""What the loader checks before anything runs: each hostile or corrupted edit below is refused
with a DataLossError naming the file and the problem. The edits of saved_model.pb are what a save
writes today; the edits of saved_model.json check the reader of eagerflow's earlier format, which
old directories still hold (docs/savedmodel-format.md)."""
import hashlib
import json

import numpy as np
import pytest

import eagerflow as tf

from .protobuf_edits import first_node, function_with, legacy_save, rewrite


class Small(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def apply(self, x):
        y = tf.matmul(x, self.w)
        return tf.cond(tf.reduce_sum(y) > 0.0, lambda: y * 2.0, lambda: y - 1.0)


@pytest.fixture
def saved(tmp_path):
    """Small in eagerflow's earlier format (saved_model.json)."""
    directory = tmp_path / "m"
    model = Small()  # a method holds its instance weakly (as in TensorFlow): keep the model alive
    legacy_save(model, directory, signatures=model.apply)
    return directory


@pytest.fixture
def saved_pb(tmp_path):
    """Small as a save writes it: TensorFlow's layout."""
    directory = tmp_path / "pb"
    model = Small()
    tf.saved_model.save(model, str(directory), signatures=model.apply)
    assert not (directory / "saved_model.json").exists()
    return directory


def _edit(directory, change):
    path = directory / "saved_model.json"
    document = json.loads(path.read_text())
    change(document)
    path.write_text(json.dumps(document))


def _ops(document):
    return document["functions"][0]["graph"]["ops"]


def _refused(directory, pattern):
    with pytest.raises(tf.errors.DataLossError, match=pattern) as info:
        tf.saved_model.load(str(directory))
    assert str(info.value).startswith(str(directory) + "/")
    return str(info.value)


def _op(document, op_type):
    return next(op for op in _ops(document) if op["type"] == op_type)


def test_the_unedited_model_loads(saved, saved_pb):
    for directory in (saved, saved_pb):
        loaded = tf.saved_model.load(str(directory))
        assert loaded.apply(tf.constant([[1.0, 1.0]])).numpy().tolist() == [[8.0, 12.0]]


def _set_attr(node, key, **value):
    node.attr[key].Clear()
    for field, v in value.items():
        if field == "list_s":
            node.attr[key].list.s.extend(v)
        else:
            setattr(node.attr[key], field, v)


def _if_branch_reads_a_missing_argument(meta):
    then_name = first_node(meta, "StatelessIf").attr["then_branch"].func.name
    branch = next(f for f in meta.graph_def.library.function if f.signature.name == then_name)
    node = next(n for n in branch.node_def if n.input)
    node.input[0] = "arg_40"


# The same hostile edits as below, made to saved_model.pb: each is a DataLossError naming the file,
# the function and the node, before anything runs.
@pytest.mark.parametrize("change, pattern", [
    (lambda meta: setattr(first_node(meta, "MatMul"), "op", "SystemCommand"),
     r"saved_model.pb: 1 op type\(s\) eagerflow does not support \(1 node\(s\)\):\n  unknown op type "
     r"'SystemCommand': node 'MatMul' of function '__inference_apply"),
    (lambda meta: first_node(meta, "MatMul").input.__setitem__(1, "node999:z:0"),
     r"\(MatMul\): input 'node999:z:0' names nothing written before it"),
    (lambda meta: first_node(meta, "MatMul").input.append(first_node(meta, "MatMul").input[0]),
     r"\(MatMul\): .*(do not fit the op|the op does not accept its inputs)"),
    (lambda meta: _set_attr(first_node(meta, "MatMul"), "run_this", s=b"import os"),
     r"\(MatMul\): attribute 'run_this', which MatMul does not have"),
    (lambda meta: _set_attr(first_node(meta, "MatMul"), "transpose_a", s=b"gASV"),
     r"\(MatMul\): a bool attribute holding s"),
    (lambda meta: first_node(meta, "Greater").input.__setitem__(1, first_node(meta, "Sum").input[1]),
     r"\(Greater\): (input .* is int32|the op does not accept its inputs or attributes)"),
    (_if_branch_reads_a_missing_argument, r"input 'arg_40' names nothing written before it"),
    (lambda meta: _set_attr(first_node(meta, "MatMul"), "a=open('/tmp/owned', 'w'),b", i=1),
     r"\(MatMul\): attribute \"a=open"),
])
def test_a_hostile_edit_of_saved_model_pb_is_refused(saved_pb, change, pattern):
    rewrite(saved_pb, change)
    _refused(saved_pb, pattern)


def test_a_print_to_a_file_in_saved_model_pb_is_refused(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def noisy(x):
        tf.print(x)
        return x

    holder = tf.Module()
    holder.f = noisy
    tf.saved_model.save(holder, str(tmp_path / "p"))
    rewrite(tmp_path / "p", lambda meta: _set_attr(first_node(meta, "PrintV2"), "output_stream",
                                                   s=b"file:///tmp/owned"))
    _refused(tmp_path / "p", r"saved_model.pb: .*PrintV2.*a PrintV2 loaded from a file may print to stdout or "
                             r"stderr only")


def test_a_variable_of_absurd_declared_shape_in_the_bundle_allocates_nothing(saved_pb):
    from eagerflow._src.formats.tensor_bundle import BundleReader
    assert "w/.ATTRIBUTES/VARIABLE_VALUE" in BundleReader(str(saved_pb / "variables" / "variables"))

    def huge(meta):
        for node in meta.object_graph_def.nodes:
            if node.WhichOneof("kind") == "variable":
                del node.variable.shape.dim[:]
                node.variable.shape.dim.add(size=2 ** 39)
                node.variable.shape.dim.add(size=2 ** 39)
    rewrite(saved_pb, huge)
    _refused(saved_pb, r"saved_model.pb: .*(549755813888|shape)")


def test_an_unknown_op_type_is_refused(saved):
    _edit(saved, lambda d: _op(d, "MatMul").update(type="SystemCommand"))
    _refused(saved, r"saved_model.json: function 0, graph 'apply', op \d+: unknown op type 'SystemCommand'")


def test_a_reference_to_a_later_node_is_refused(saved):
    _edit(saved, lambda d: _op(d, "MatMul").update(inputs=[[0, 0], [999, 0]]))
    _refused(saved, r"reference to node 999, which is not an earlier node")


def test_a_wrong_arity_is_refused(saved):
    _edit(saved, lambda d: _op(d, "MatMul")["inputs"].append([0, 0]))
    _refused(saved, r"\(MatMul: MatMul\): .*(do not fit the op|the op does not accept its inputs)")


def test_an_unknown_attribute_is_refused(saved):
    _edit(saved, lambda d: _op(d, "MatMul")["attrs"].append(["run_this", "import os"]))
    _refused(saved, r"\(MatMul: MatMul\): 2 inputs and attributes .*'run_this'.* do not fit the op")


def test_an_attribute_of_an_unknown_type_is_refused(saved):
    _edit(saved, lambda d: _op(d, "MatMul")["attrs"].append(["transpose_a", {"pickle": "gASV"}]))
    _refused(saved, r"unknown attribute type 'pickle'")


def test_declared_output_shapes_and_dtypes_must_be_what_the_op_computes(saved):
    _edit(saved, lambda d: _op(d, "MatMul").update(outputs=[["float32", [None, 3]]]))
    _refused(saved, r"output 0 declared float32 \(None, 3\), the op computes float32 \(None, 2\)")


def test_an_op_refusing_its_inputs_is_refused(saved):
    def change(d):  # Greater(float32 sum, int32 reduction indices): the shape rule refuses the dtypes
        greater = _op(d, "Greater")
        greater["inputs"][1] = list(_op(d, "Sum")["inputs"][1])
    _edit(saved, change)
    _refused(saved, r"\(Greater: Greater\): the op does not accept its inputs or attributes")


def test_a_print_to_a_file_is_refused(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def noisy(x):
        tf.print(x)
        return x

    holder = tf.Module()
    holder.f = noisy
    legacy_save(holder, tmp_path / "p")
    _edit(tmp_path / "p", lambda d: _op(d, "PrintV2")["attrs"].__setitem__(
        0, ["output_stream", "file:///tmp/owned"]))
    _refused(tmp_path / "p", r"a PrintV2 loaded from a file may print to stdout or stderr only")


def test_an_if_whose_branch_captures_a_missing_input_is_refused(saved):
    def change(d):
        op = next(o for o in _ops(d) if o["type"] in ("If", "StatelessIf"))
        branch = op["attrs"][0][1]["graph"]
        captured = next(i for i in branch["inputs"] if i["capture"] is not None)
        captured["capture"] = {"op_input": 40}
    _edit(saved, change)
    _refused(saved, r"capture of op input 40, which does not exist")


def test_a_tensor_file_outside_the_directory_is_refused(saved):
    _edit(saved, lambda d: d["variables"][0]["value"].update(file="/etc/passwd"))
    _refused(saved, r"tensor file name '/etc/passwd' is not a plain relative path")


def _restamp(directory, name):
    digest = hashlib.sha256((directory / name).read_bytes()).hexdigest()

    def change(d):
        ref = d["variables"][0]["value"]
        assert ref["file"] == name
        ref["sha256"] = digest
    _edit(directory, change)


def test_tensor_files_are_checked_by_checksum_then_header_then_size(saved):
    name = json.loads((saved / "saved_model.json").read_text())["variables"][0]["value"]["file"]
    data = (saved / name).read_bytes()
    (saved / name).write_bytes(data[:-4])
    _refused(saved, rf"{name}: checksum mismatch")
    _restamp(saved, name)
    _refused(saved, rf"{name}: truncated or padded: 16 data bytes declared, 12 present")
    (saved / name).write_bytes(data.replace(b"'descr': '<f4'", b"'descr': '|O8'"))
    _restamp(saved, name)
    _refused(saved, rf"{name}: the tensor file holds Python objects \(refused: loading would unpickle\)")
    (saved / name).write_bytes(data.replace(b"(2, 2)", b"(2, 9)"))
    _restamp(saved, name)
    _refused(saved, rf"{name}: declared shape \[2, 2\] but the file holds \[2, 9\]")
    (saved / name).write_bytes(b"GARBAGE" + data)
    _restamp(saved, name)
    _refused(saved, rf"{name}: not an .npy tensor file")


def test_a_huge_declared_shape_allocates_nothing(saved):
    def change(d):
        ref = d["variables"][0]
        ref["shape"] = [2 ** 39, 2 ** 39]
        ref["value"]["shape"] = [2 ** 39, 2 ** 39]
    _edit(saved, change)
    _refused(saved, r"declared shape \[549755813888, 549755813888\] but the file holds \[2, 2\]")


def test_malformed_json_is_refused_naming_the_document(saved):
    (saved / "saved_model.json").write_text('{"format": "eagerflow.saved_model", "nodes": [' * 1)
    _refused(saved, r"saved_model.json: not a valid JSON document")
    (saved / "saved_model.json").write_text("[" * 100000 + "]" * 100000)
    _refused(saved, r"saved_model.json: not a valid JSON document")
    (saved / "saved_model.json").write_text('{"a": NaN}')
    _refused(saved, r"saved_model.json: not a valid JSON document \(non-standard JSON number NaN\)")


def test_an_attribute_name_that_is_code_is_refused(tmp_path):
    # Generated code passes attributes as keyword arguments, and StridedSlice's kernel takes
    # **attrs: without the check this name would be executed when the function is compiled.
    @tf.function(input_signature=[tf.TensorSpec([4], tf.float32)])
    def tail(x):
        return x[1:]

    holder = tf.Module()
    holder.tail = tail
    legacy_save(holder, tmp_path / "s")
    marker = tmp_path / "owned"
    code = f"a=open({str(marker)!r}, 'w'),b"
    _edit(tmp_path / "s", lambda d: _op(d, "StridedSlice")["attrs"].append([code, 1]))
    _refused(tmp_path / "s", r"attribute name .* is not an identifier")
    assert not marker.exists()


def test_a_loop_bound_must_be_an_integer(tmp_path):
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def count(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [0], maximum_iterations=10)

    holder = tf.Module()
    holder.count = count
    legacy_save(holder, tmp_path / "w")
    assert int(tf.saved_model.load(str(tmp_path / "w")).count(tf.constant(50))[0]) == 10

    def change(d):
        loop = next(o for o in _ops(d) if o["type"] in ("While", "StatelessWhile"))
        for pair in loop["attrs"]:
            if pair[0] == "maximum_iterations":
                pair[1] = "0 or __import__('os').system('true')"
    _edit(tmp_path / "w", change)
    _refused(tmp_path / "w", r"a While's loop variables, condition and body do not agree")


def test_saved_attribute_names_may_shadow_nothing(tmp_path):
    class Holder:
        pass

    root = tf.Module()
    root.inner = Holder()
    root.inner.variables = [tf.Variable(1.0)]
    root.inner.name = tf.Variable(2.0)
    tf.saved_model.save(root, str(tmp_path / "h"))
    loaded = tf.saved_model.load(str(tmp_path / "h"))
    assert float(loaded.inner.variables[0].numpy()) == 1.0 and float(loaded.inner.name.numpy()) == 2.0


def test_the_traced_call_must_feed_exactly_the_graph_parameters(saved):
    def change(d):
        call = d["functions"][0]["call"]
        call.append(["extra", 1, {"spec": [[], "float32", None]}])
    _edit(saved, change)
    _refused(saved, r"function 0: the traced call's tensors are not the graph's parameters")


def test_a_function_printing_to_a_file_is_refused_at_save_time_not_only_at_load(tmp_path):
    # It was saved, then every load refused it: the author learns it when saving.
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def logs(x):
        tf.print(x, output_stream=f"file://{tmp_path / 'log.txt'}")
        return x

    holder = tf.Module()
    holder.f = logs
    assert float(logs(tf.constant(2.0))) == 2.0
    with pytest.raises(ValueError, match=r"Cannot save op '.*' \(type PrintV2\) of graph 'logs': it prints to "
                                         r"'file://.*log.txt', and a loaded model may print to stdout or stderr only"):
        tf.saved_model.save(holder, str(tmp_path / "p"))
