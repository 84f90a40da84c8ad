"""ConcreteFunction.function_def (TensorFlow's FunctionDef message) and the signatures of functions
restored from a SavedModel. Expected fields and texts were printed by TensorFlow 2.21 for the same
functions (its function names carry a number, `__inference_f_8`: ours do not)."""
import pytest

import eagerflow as tf

pytest.importorskip("google.protobuf")


def test_function_def_of_a_pure_function():
    @tf.function
    def f(x, y):
        return x * 2.0 + y

    cf = f.get_concrete_function(tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([], tf.float32))
    fd = cf.function_def
    assert type(fd).__name__ == "FunctionDef"
    sig = fd.signature
    assert sig.name.startswith("__inference_f")
    assert [(a.name, a.type) for a in sig.input_arg] == [("x", 1), ("y", 1)]  # DT_FLOAT
    assert [(a.name, a.type) for a in sig.output_arg] == [("identity", 1)]
    assert not sig.is_stateful
    assert [(n.name, n.op, list(n.input)) for n in fd.node_def] == [
        ("mul/y", "Const", []), ("mul", "Mul", ["x", "mul/y:output:0"]), ("add", "AddV2", ["mul:z:0", "y"]),
        ("Identity", "Identity", ["add:z:0"])]
    assert dict(fd.ret) == {"identity": "Identity:output:0"}
    assert fd.attr["_construction_context"].s == b"kEagerRuntime"
    assert fd.arg_attr[0].attr["_user_specified_name"].s == b"x"
    assert [d.size for d in fd.arg_attr[0].attr["_output_shapes"].list.shape[0].dim] == [-1, 3]
    assert fd.arg_attr[1].attr["_user_specified_name"].s == b"y"
    assert list(fd.arg_attr[1].attr["_output_shapes"].list.shape[0].dim) == []


def test_function_def_reads_variables_through_resource_arguments():
    v = tf.Variable(1.0)

    @tf.function
    def g(x):
        return x + v

    fd = g.get_concrete_function(tf.constant(1.0)).function_def
    sig = fd.signature
    assert [(a.name, a.type) for a in sig.input_arg] == [("x", 1), ("add_readvariableop_resource", 20)]
    assert [(a.name, a.type) for a in sig.output_arg] == [("identity", 1)]
    assert sig.is_stateful and list(sig.control_output) == ["add/ReadVariableOp"]
    assert [(n.name, n.op) for n in fd.node_def][:3] == [
        ("add/ReadVariableOp", "ReadVariableOp"), ("add", "AddV2"), ("Identity", "Identity")]
    assert dict(fd.ret) == {"identity": "Identity:output:0"}


def test_several_outputs_are_identity_identity_1():
    fd = tf.function(lambda x: (x + 1., x * 3.)).get_concrete_function(tf.constant(1.)).function_def
    assert [a.name for a in fd.signature.output_arg] == ["identity", "identity_1"]
    assert sorted(fd.ret) == ["identity", "identity_1"]


class _Module(tf.Module):
    def __init__(self):
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="inp"), tf.TensorSpec([], tf.int32)])
    def f(self, x, n):
        return {"out": x * self.v, "n": n + 1}

    @tf.function
    def g(self, a, b=2.0):
        return a + b


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    m = _Module()
    m.g(tf.constant(1.0))
    m.g(tf.constant([1.0, 2.0]), b=3.0)
    path = str(tmp_path_factory.mktemp("restored_signatures"))
    tf.saved_model.save(m, path)
    return tf.saved_model.load(path)


DICT_ENTRIES = ("['n', TensorSpec(shape=(), dtype=tf.int32, name='n')]",
                "['out', TensorSpec(shape=(None, 3), dtype=tf.float32, name='out')]")


def test_restored_function_signature(loaded):
    cf = loaded.f.concrete_functions[0]
    assert repr(cf.structured_input_signature) == (
        "((TensorSpec(shape=(None, 3), dtype=tf.float32, name='inp'), TensorSpec(shape=(), dtype=tf.int32, "
        "name='n')), {})")
    text = cf.pretty_printed_signature()
    assert text.startswith(
        "Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None, 3), dtype=tf.float32, name='inp')\n"
        "  n (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.int32, name='n')\n"
        "Output Type:\n  Dict[")
    assert cf.pretty_printed_signature(verbose=False).startswith(
        "(x: TensorSpec(shape=(None, 3), dtype=tf.float32, name='inp'), n: TensorSpec(shape=(), dtype=tf.int32, "
        "name='n')) -> Dict[")
    for entry in DICT_ENTRIES:  # TensorFlow prints n before out; the order of a restored dict is left open here
        assert entry in text


def test_restored_function_with_python_defaults(loaded):
    sigs = sorted(repr(c.structured_input_signature) for c in loaded.g.concrete_functions)
    assert sigs == ["((TensorSpec(shape=(), dtype=tf.float32, name='a'), 2.0), {})",
                    "((TensorSpec(shape=(2,), dtype=tf.float32, name='a'), 3.0), {})"]
    texts = sorted(c.pretty_printed_signature() for c in loaded.g.concrete_functions)
    assert texts[0].startswith(
        "Input Parameters:\n  a (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(), dtype=tf.float32, name='a')\n"
        "  b (POSITIONAL_OR_KEYWORD): Literal[2.0]\nOutput Type:\n"
        "  TensorSpec(shape=(), dtype=tf.float32, name='unknown')\nCaptures:\n")


def test_restored_serving_signature(loaded):
    s = loaded.signatures["serving_default"]
    text = s.pretty_printed_signature()
    assert text.startswith(
        "Input Parameters:\n"
        "  inp (KEYWORD_ONLY): TensorSpec(shape=(None, 3), dtype=tf.float32, name='inp')\n"
        "  n (KEYWORD_ONLY): TensorSpec(shape=(), dtype=tf.int32, name='n')\n"
        "Output Type:\n  Dict[")
    for entry in DICT_ENTRIES:
        assert entry in text
    assert text.endswith(": TensorSpec(shape=(), dtype=tf.resource, name=None)")
