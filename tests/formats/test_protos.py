"""The protocol buffer messages of eagerflow/_src/formats/protos: generated modules up to date, TensorFlow's
numbers, and bytes TensorFlow wrote read back field by field."""
import base64
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from eagerflow._src.formats import dtypes as format_dtypes
from eagerflow._src.formats.protos import graph_pb2, types_pb2

from .tf_recorded import TF_GRAPH_DEF

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(importlib.util.find_spec("grpc_tools") is None,
                    reason="needs grpcio-tools (the `protoc` extra) to regenerate the modules")
def test_generated_modules_are_what_the_protos_compile_to():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_protos.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_datatype_numbers_agree_with_types_proto():
    tf_names = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}
    for name, number in format_dtypes._NUMBER.items():
        assert types_pb2.DataType.Value("DT_" + tf_names.get(name, name.upper())) == number, name
    # TensorFlow's own numbers for a few, as its types.proto gives them.
    assert (types_pb2.DT_FLOAT, types_pb2.DT_STRING, types_pb2.DT_BFLOAT16, types_pb2.DT_RESOURCE) == (1, 7, 14, 20)
    assert format_dtypes.dtype_from_number(101).name == "float32"  # DT_FLOAT_REF reads as float32
    with pytest.raises(ValueError, match="DataType 99"):
        format_dtypes.dtype_from_number(99)


def test_a_graph_def_written_by_tensorflow_parses_field_by_field():
    graph = graph_pb2.GraphDef.FromString(base64.b64decode("".join(TF_GRAPH_DEF)))
    assert [(n.name, n.op, list(n.input)) for n in graph.node] == [
        ("x", "Placeholder", []), ("MatMul", "MatMul", ["x", "x"]), ("add/y", "Const", []),
        ("add", "AddV2", ["MatMul", "add/y"]), ("Relu", "Relu", ["add"]), ("Identity", "Identity", ["Relu"])]
    placeholder, matmul, const = graph.node[0], graph.node[1], graph.node[2]
    assert placeholder.attr["dtype"].type == types_pb2.DT_FLOAT
    assert [d.size for d in placeholder.attr["shape"].shape.dim] == [2, 2]
    assert placeholder.attr["_user_specified_name"].s == b"x"
    assert matmul.attr["transpose_a"].b is False and matmul.attr["T"].type == types_pb2.DT_FLOAT
    assert list(const.attr["value"].tensor.float_val) == [1.0]  # a scalar constant: its typed list
    assert graph.versions.producer > 0
    # Written back, the bytes parse to the same message (unknown fields, if any, kept).
    assert graph_pb2.GraphDef.FromString(graph.SerializeToString()) == graph


def test_import_eagerflow_does_not_load_protobuf():
    code = "import sys, eagerflow; print(any(m.startswith('google.protobuf') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_messages_live_in_a_private_pool_beside_protobufs_default_one():
    from google.protobuf import descriptor_pool

    from eagerflow._src.formats.protos import _runtime

    assert _runtime.POOL is not descriptor_pool.Default()
    assert graph_pb2.GraphDef.DESCRIPTOR.full_name == "tensorflow.GraphDef"
    with pytest.raises(KeyError):
        descriptor_pool.Default().FindMessageTypeByName("tensorflow.GraphDef")
