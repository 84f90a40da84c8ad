"""graph/printer.py: one line per op, `name = Type(inputs) {attrs} : shape dtype  # file:line`."""
import numpy as np

import eagerflow as tf
from eagerflow._src.graph.printer import graph_as_text, op_line, program_as_text
from eagerflow._src.passes.pipeline import optimize


def _graph():
    @tf.function
    def simple_computation(a, b):
        c = tf.matmul(a, b)
        d = tf.add(c, 1.0)
        parts = tf.split(d, 2)
        w = tf.constant(np.zeros([10, 2], np.float32))
        return tf.maximum(d, 0.0) + parts[1] + w[:2]

    spec = tf.TensorSpec([2, 2])
    return simple_computation.get_concrete_function(spec, spec).graph


def test_graph_text_lists_every_op_with_inputs_attrs_shapes_and_user_line():
    text = graph_as_text(_graph())
    lines = text.splitlines()
    assert lines[0] == "graph simple_computation(a: (2, 2) float32, b: (2, 2) float32):"
    assert lines[1] == "  a = Placeholder() : (2, 2) float32"
    assert lines[3].startswith("  MatMul = MatMul(a, b) : (2, 2) float32  # test_printer.py:")
    assert "  Add/y = Const() {value=1.0} : () float32  # test_printer.py:" in text
    assert "  Add = AddV2(MatMul, Add/y) : (2, 2) float32" in text
    # multi-output op: both outputs' specs; its second output is referred to as `Split:1`
    assert "Split = Split(Split/split_dim, Add) {num_split=2} : (1, 2) float32, (1, 2) float32" in text
    assert "AddV2(Maximum, Split:1)" in text
    assert "Const = Const() {value=<float32 (10, 2)>} : (10, 2) float32" in text  # big values elided
    assert lines[-1] == "  return Identity"
    assert len(lines) == len(_graph().get_operations()) + 2


def test_program_text_shows_resolved_inputs_and_folded_constants():
    graph = _graph()
    text = program_as_text(optimize(graph))
    assert "Identity" not in text  # forwarded and pruned
    # w[:2] of a constant was folded; its consumer reads the folded constant
    folded = next(line for line in text.splitlines() if line.startswith("  StridedSlice/folded = "))
    assert folded.startswith("  StridedSlice/folded = Const() {value=[[0., 0.], [0., 0.]]} : (2, 2) float32  # "
                             "test_printer.py:")  # the line of the op it replaced
    assert folded.endswith("  [folded]")
    assert "StridedSlice/folded)" in text
    assert text.splitlines()[-1].startswith("  return add_2")  # `Add` took `add`, case-insensitively


def test_op_line_of_a_stateful_op_without_outputs():
    @tf.function
    def f(x):
        tf.print(x)
        return x

    graph = f.get_concrete_function(tf.TensorSpec([], tf.int32)).graph
    op = next(op for op in graph.get_operations() if op.type == "PrintV2")
    line = op_line(op)
    assert line.startswith("PrintV2 = PrintV2(StringFormat) {output_stream='stderr', end='\\n'}  # test_printer.py:")
    assert " : " not in line  # no outputs, no specs
