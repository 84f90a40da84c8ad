"""passes/cse.py: equal stateless computations are computed once; stateful ops, different
attributes and different inputs are never merged."""
import numpy as np

import eagerflow as tf
from eagerflow._src.passes.cse import eliminate_common_subexpressions as cse
from eagerflow._src.passes.prune import prune
from eagerflow._src.passes.simplify import forward_identities

from .helpers import live_types, run, trace

S = tf.TensorSpec([3])


def test_repeated_expression_chains_collapse():
    def f(x):
        return (tf.sin(x) + 1.0) * (tf.sin(x) + 1.0)

    program = run(trace(f, S), forward_identities, cse, prune)
    assert live_types(program) == ["Sin", "AddV2", "Mul"]
    mul = program.ops[-1]
    assert program.resolve(mul.inputs[0]) is program.resolve(mul.inputs[1])


def test_different_inputs_or_attributes_are_not_merged():
    def f(x, y):
        a = tf.reduce_sum(x, 0, keepdims=True)
        b = tf.reduce_sum(x, 0, keepdims=False)
        return tf.sin(x), tf.sin(y), a, b

    program = run(trace(f, S, S), forward_identities, cse, prune)
    assert live_types(program) == ["Sum", "Sum", "Sin", "Sin"]


def test_equal_small_constants_merge_big_ones_are_not_compared():
    small = np.arange(4, dtype=np.float32)
    big = np.arange(100, dtype=np.float32)

    def f(x):
        return (tf.reduce_sum(tf.constant(small) * x[0]) + tf.reduce_sum(tf.constant(small) * x[1]),
                tf.constant(big) + tf.constant(big))

    graph = trace(f, S)
    program = run(graph, forward_identities, cse, prune)
    consts = [op for op in program.ops if op.type == "Const" and op.attrs["value"].size in (4, 100)]
    assert sorted(op.attrs["value"].size for op in consts) == [4, 100, 100]


def test_stateful_ops_are_never_merged():
    def f():
        a = tf.random.normal([2], seed=7)
        b = tf.random.normal([2], seed=7)  # same attributes, but a second draw
        tf.print("hi")
        tf.print("hi")
        return a, b

    cf = tf.function(f).get_concrete_function()
    program = run(cf.graph, forward_identities, cse, prune)
    kept = live_types(program)
    assert kept.count("RandomStandardNormal") == 2 and kept.count("PrintV2") == 2
    a, b = cf()
    assert not np.array_equal(a.numpy(), b.numpy())


def test_attribute_values_compare_with_their_type():
    # 0 and 0.0 are equal in Python; as attributes of an op they are different values.
    def f(x):
        return tf.nn.leaky_relu(x, alpha=0.0), tf.nn.leaky_relu(x, alpha=-0.0), tf.nn.leaky_relu(x, alpha=0.0)

    program = run(trace(f, S), forward_identities, cse, prune)
    assert live_types(program) == ["LeakyRelu", "LeakyRelu"]


def test_merged_function_matches_eager():
    def f(x):
        y = tf.square(x) + tf.square(x)
        return tf.reduce_sum(tf.square(x)) - tf.reduce_sum(y)

    x = tf.constant([1.0, -2.0, 3.0])
    cf = tf.function(f).get_concrete_function(S)
    assert cf.code.count("k_Square") == 1
    np.testing.assert_allclose(cf(x).numpy(), f(x).numpy())


def test_variable_reads_separated_by_a_write_are_not_merged():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        a = v * 1.0
        v.assign(a * 2.0)
        return v * 10.0 + a

    cf = f.get_concrete_function()
    assert cf.code.count("._array") == 2
    assert f().numpy() == 21.0
