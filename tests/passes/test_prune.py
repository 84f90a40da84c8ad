"""passes/prune.py: dead ops go, what outputs need stays, stateful ops and their inputs always stay."""
import eagerflow as tf
from eagerflow._src.passes.prune import prune
from eagerflow._src.passes.simplify import forward_identities

from .helpers import live_types, run, trace, types

S = tf.TensorSpec([3])


def test_unused_ops_are_removed_in_order():
    def f(x):
        unused = tf.exp(x) * 2.0  # noqa: F841
        return tf.sin(x) + tf.cos(x)

    program = run(trace(f, S), prune)
    assert live_types(program) == ["Sin", "Cos", "AddV2", "Identity"]
    assert "Mul" not in types(program) and "Exp" not in types(program)


def test_stateful_ops_and_their_inputs_survive_pruning():
    v = tf.Variable(0.0)

    def f(x):
        tf.print("x is", tf.reduce_sum(x))  # result unused: kept for its effect
        v.assign_add(tf.reduce_max(x))
        tf.random.normal([2], seed=1)  # a random draw advances its stream: kept
        return tf.constant(1.0)

    program = run(trace(f, S), prune)
    assert live_types(program) == ["Sum", "StringFormat", "PrintV2", "Max", "AssignAddVariableOp",
                                   "RandomStandardNormal", "Identity"]


def test_substituted_ops_become_dead_only_through_liveness():
    def f(x):
        return tf.identity(tf.identity(x) * 2.0)

    graph = trace(f, S)
    alone = run(graph, prune)  # prune alone keeps Identity ops: they still compute outputs
    assert live_types(alone) == ["Identity", "Mul", "Identity", "Identity"]
    after = run(graph, forward_identities, prune)
    assert live_types(after) == ["Mul"]
    mul = after.ops[-1]
    assert mul.inputs[0].op.type == "Identity" and after.resolve(mul.inputs[0]) is graph.inputs[0]


def test_placeholders_stay_even_when_unused():
    def f(x, y):
        return x * 2.0

    graph = trace(f, S, S)
    program = run(graph, prune)
    # the generated function still takes every parameter
    assert [t.op.name for t in program.inputs] == ["x", "y"]


def test_pruned_function_still_computes_the_same():
    def f(x):
        a = tf.exp(x)
        b = tf.square(x)  # noqa: F841
        return a * 3.0

    cf = tf.function(f).get_concrete_function(S)
    assert "k_Square" not in cf.code and "k_Exp" in cf.code
    x = tf.constant([0.0, 1.0, 2.0])
    assert cf(x).numpy().tolist() == f(x).numpy().tolist()
