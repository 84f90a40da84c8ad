"""codegen/pycode.py: the generated source's shape (one statement per op, `del` at last use,
the user's line in a comment), and the names it must never confuse."""
import linecache

import numpy as np

import eagerflow as tf

S = tf.TensorSpec([3])
X = np.array([-1.0, 0.0, 2.0], np.float32)


def _cf(fn, *specs):
    return tf.function(fn).get_concrete_function(*specs)


def test_one_statement_per_op_with_last_use_deletes_and_user_lines():
    def simple_computation(a, b):
        c = tf.matmul(a, b)
        d = tf.add(c, 1.0)
        return tf.nn.relu(d)

    spec = tf.TensorSpec([2, 2])
    code = _cf(simple_computation, spec, spec).code.splitlines()
    assert code[0] == "def simple_computation(a, b):"
    assert code[1].startswith("    MatMul = a @ b  # test_pycode.py:")  # MatMul of matrices: an expression
    # MatMul dies here and is a fresh array of the result's shape: the sum is written into it (buffers.py)
    assert code[2].startswith("    Add = k_AddV2(MatMul, c_Add_y, out=MatMul); del MatMul  # test_pycode.py:")
    # Relu's kernel takes `out=` too (`fills_out`): it runs in the sum's buffer
    assert code[3].startswith("    Relu = k_Relu(Add, out=Add); del Add  # test_pycode.py:")
    assert code[4] == "    return (Relu,)"


def test_source_is_registered_for_tracebacks():
    cf = _cf(lambda x: tf.exp(x) * 2.0, S)
    filename = cf.executable.generated.filename
    lines = cf.code.splitlines()
    assert [linecache.getline(filename, i + 1).rstrip("\n") for i in range(len(lines))] == lines


def test_a_returned_value_that_is_also_used_later_is_not_deleted():
    def f(x):
        a = tf.exp(x)
        return a, a * 2.0

    cf = _cf(f, S)
    assert "del Exp" not in cf.code
    a, b = cf(tf.constant(X))
    np.testing.assert_array_equal(a.numpy(), np.exp(X))
    np.testing.assert_array_equal(b.numpy(), np.exp(X) * np.float32(2.0))


def test_a_node_named_like_a_kernel_does_not_shadow_it():
    def f(x):
        a = tf.add(x, 1.0, name="k_Relu")  # the local variable for this node is `k_Relu`
        return tf.nn.relu(a)

    cf = _cf(f, S)
    assert cf(tf.constant(X)).numpy().tolist() == [0.0, 1.0, 3.0]


def test_a_function_named_like_a_global_keeps_its_global():
    def c_Add_y(x):  # the constant `Add/y` would be bound as the global `c_Add_y`
        return tf.add(x, 1.0)

    assert _cf(c_Add_y, S)(tf.constant(X)).numpy().tolist() == [0.0, 1.0, 3.0]


def test_non_finite_float_attributes_are_bound_not_printed():
    def f(x):
        return tf.nn.leaky_relu(x, alpha=float("inf")), tf.nn.leaky_relu(x, alpha=float("-inf"))

    cf = _cf(f, S)
    assert "inf" not in cf.code.replace("_", " ").split()  # no bare `inf` name in the source
    with np.errstate(all="ignore"):
        got = [t.numpy() for t in cf(tf.constant(X))]
        want = [t.numpy() for t in f(tf.constant(X))]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_generated_source_leaves_linecache_with_its_function():
    import gc
    import linecache

    cf = tf.function(lambda x: x * 3.0).get_concrete_function(tf.TensorSpec([2]))
    filename = cf.executable.generated.filename
    assert filename in linecache.cache
    del cf
    gc.collect()
    assert filename not in linecache.cache
