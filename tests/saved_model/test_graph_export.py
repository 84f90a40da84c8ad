"""Traced graphs written as TensorFlow FunctionDefs (plain data shaped like the messages): every node
a TensorFlow op with the type attributes its OpDef requires. The expected node types, attribute values
and reference strings are those TensorFlow 2.21 writes for the same functions."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats.graph_export.attr_values import ExportError, tensor_proto
from eagerflow._src.formats.graph_export.function_export import FunctionLibrary, export_concrete_function

FLOAT, INT32, BOOL, RESOURCE = 1, 3, 10, 20


def _export(cf):
    library = FunctionLibrary()
    name, variables = export_concrete_function(library, cf)
    functions = {f["signature"]["name"]: f for f in library.functions}
    return functions[name], functions, variables


def _nodes(fdef, op_type):
    return [n for n in fdef["node_def"] if n["op"] == op_type]


class _Scaled(tf.Module):
    def __init__(self):
        self.v = tf.Variable([1.0, 2.0], name="v")
        self.w = tf.Variable(3.0, name="w")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")])
    def f(self, x):
        return {"y": x * self.v + self.w}


def test_variables_become_resource_arguments_and_ops_get_their_type_attributes():
    m = _Scaled()
    fdef, _, variables = _export(m.f.get_concrete_function())
    args = fdef["signature"]["input_arg"]
    assert [a["type"] for a in args] == [FLOAT, RESOURCE, RESOURCE]
    assert args[0]["name"] == "x"
    assert [a["handle_data"][0]["shape"] for a in args[1:]] == [{"dim": [{"size": 2}]}, {"dim": []}]
    assert variables == [m.v, m.w]
    reads = _nodes(fdef, "ReadVariableOp")
    assert [r["attr"]["dtype"] for r in reads] == [{"type": FLOAT}] * 2
    mul, = _nodes(fdef, "Mul")
    assert mul["attr"] == {"T": {"type": FLOAT}}
    assert mul["input"] == ["x", f"{reads[0]['name']}:value:0"]  # TensorFlow's `node:out_arg:index`
    add, = _nodes(fdef, "AddV2")
    assert add["input"][0] == f"{mul['name']}:z:0"
    assert fdef["signature"]["is_stateful"] is True
    assert sorted(fdef["signature"]["control_output"]) == sorted(r["name"] for r in reads)
    assert list(fdef["ret"].values()) == [f"{_nodes(fdef, 'Identity')[0]['name']}:output:0"]


def test_conv_pool_and_reshape_carry_tensorflows_attributes():
    conv = tf.keras.layers.Conv2D(2, 3, padding="same")
    pool = tf.keras.layers.MaxPooling2D()

    @tf.function(input_signature=[tf.TensorSpec([None, 6, 6, 1], tf.float32)])
    def f(x):
        return tf.reshape(pool(conv(x)), [-1, 18])

    fdef, _, _ = _export(f.get_concrete_function())
    node, = _nodes(fdef, "Conv2D")
    assert node["attr"]["T"] == {"type": FLOAT}
    assert node["attr"]["strides"] == {"list": {"i": [1, 1, 1, 1]}}
    assert node["attr"]["padding"] == {"s": b"SAME"}
    node, = _nodes(fdef, "MaxPool")
    assert node["attr"]["ksize"] == {"list": {"i": [1, 2, 2, 1]}}
    node, = _nodes(fdef, "Reshape")
    assert node["attr"] == {"T": {"type": FLOAT}, "Tshape": {"type": INT32}}
    shape_const = next(n for n in fdef["node_def"] if node["input"][1].startswith(n["name"] + ":"))
    assert shape_const["attr"]["value"]["tensor"]["tensor_content"] == np.array([-1, 18], "<i4").tobytes()


def test_cond_and_while_loop_become_functions_of_the_ops_inputs():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def g(x):
        y = tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0)
        return tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + y), (tf.constant(0), tf.constant(0.0)))[1]

    fdef, functions, _ = _export(g.get_concrete_function())
    cond, = _nodes(fdef, "StatelessIf")
    assert cond["attr"]["Tcond"] == {"type": BOOL}
    assert cond["attr"]["Tin"] == {"list": {"type": [FLOAT]}} and cond["attr"]["Tout"] == {"list": {"type": [FLOAT]}}
    then_fn = functions[cond["attr"]["then_branch"]["func"]["name"]]
    assert [a["type"] for a in then_fn["signature"]["input_arg"]] == [FLOAT]
    assert [n["op"] for n in then_fn["node_def"]] == ["Const", "Mul"]
    loop, = _nodes(fdef, "StatelessWhile")
    # the loop variables, then the captured y, carried through the loop unchanged
    assert loop["attr"]["T"] == {"list": {"type": [INT32, FLOAT, FLOAT]}}
    body = functions[loop["attr"]["body"]["func"]["name"]]
    carried = body["signature"]["input_arg"][2]["name"]
    assert list(body["ret"].values())[2] == carried
    assert loop["attr"]["output_shapes"] == {"list": {"shape": [{"dim": []}] * 3}}


def test_a_bounded_loop_carries_an_iteration_counter():
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def h(n):
        return tf.while_loop(lambda i: i < n, lambda i: i + 1, [tf.constant(0)], maximum_iterations=3)[0]

    fdef, functions, _ = _export(h.get_concrete_function())
    loop, = _nodes(fdef, "StatelessWhile") or _nodes(fdef, "While")
    assert loop["attr"]["T"] == {"list": {"type": [INT32, INT32, INT32]}}  # i, n, the counter
    cond = functions[loop["attr"]["cond"]["func"]["name"]]
    assert {"Less", "LogicalAnd"} <= {n["op"] for n in cond["node_def"]}


def test_sum_to_shape_is_written_as_tensorflows_ops():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32), tf.TensorSpec([3], tf.float32)])
    def grad(x, b):
        with tf.GradientTape() as tape:
            tape.watch(b)
            y = tf.reduce_sum(x + b)
        return tape.gradient(y, b)

    fdef, _, _ = _export(grad.get_concrete_function())
    ops = [n["op"] for n in fdef["node_def"]]
    assert "SumToShape" not in ops
    assert {"BroadcastGradientArgs", "Sum", "Reshape"} <= set(ops)


def test_an_op_without_an_export_is_refused_naming_it():
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def third(x):  # a third-order loop gradient: its LoopHistory* ops do not export
        with tf.GradientTape() as t3:
            t3.watch(x)
            with tf.GradientTape() as t2:
                t2.watch(x)
                with tf.GradientTape() as t1:
                    t1.watch(x)
                    y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * x), (0, 1.0))[1]
                g1 = t1.gradient(y, x)
            g2 = t2.gradient(g1, x)
        return t3.gradient(g2, x)

    assert float(third(tf.constant(2.0))) == 6.0  # d3(x**3)/dx3
    with pytest.raises(ExportError, match=r"of function 'third\w*' is a third-order loop gradient .*, which does "
                                          r"not export: an internal op of a loop gradient's gradient"):
        _export(third.get_concrete_function())


def test_constants_are_little_endian_bytes_and_strings_are_string_vals():
    assert tensor_proto(np.array([1, 2], ">i4")) == {
        "dtype": INT32, "tensor_shape": {"dim": [{"size": 2}]}, "tensor_content": np.array([1, 2], "<i4").tobytes()}
    assert tensor_proto(np.array([b"a", b"bc"], object), tf.string)["string_val"] == [b"a", b"bc"]
