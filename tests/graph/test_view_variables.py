"""Graph pictures show the user's variables by the names the user gave them, not by their handles' inputs."""
import eagerflow as tf
from eagerflow._src.graph.view import build_view


class Dense(tf.Module):
    def __init__(self):
        self.kernel = tf.Variable(tf.ones([4, 2]), name="kernel")
        self.bias = tf.Variable(tf.zeros([2]), name="bias")

    @tf.function(input_signature=[tf.TensorSpec([None, 4])])
    def __call__(self, x):
        return tf.matmul(x, self.kernel) + self.bias


def test_variables_are_named_as_the_user_named_them():
    layer = Dense()  # kept alive: a traced method holds its instance weakly
    graph = layer.__call__.get_concrete_function().graph
    view = build_view(graph)
    inputs = {n.name: n for n in view.nodes.values() if n.kind == "input"}
    assert sorted(inputs) == ["bias", "kernel", "x"]
    assert inputs["kernel"].type == "Variable" and inputs["kernel"].outputs == ["(4, 2) float32"]
    assert inputs["bias"].outputs == ["(2,) float32"]
    assert "through its input 'MatMul/ReadVariableOp/resource'" in inputs["kernel"].tooltip
    assert inputs["x"].type == "Placeholder"  # an argument stays what it is
    dot = graph.to_dot()
    assert 'label="kernel\\nVariable\\n(4, 2) float32"' in dot
    assert "ReadVariableOp/resource\\nPlaceholder" not in dot
