"""Loops and branches with no loop variables or outputs, loops that define structures, datasets
iterated past their end, and checks on constants: TensorFlow 2.21's answers, recorded."""
import numpy as np
import pytest

import eagerflow as tf


def test_while_with_only_side_effects_compiles_and_runs():
    # TF 2.21: 5 (the generated code once failed with "IndentationError: unexpected indent")
    @tf.function
    def count(n, v):
        v.assign(0)
        while v.read_value() < n:
            v.assign_add(1)
        return v.read_value()

    v = tf.Variable(0)
    assert int(count(tf.constant(5), v)) == 5 and int(v.numpy()) == 5
    assert int(count(tf.constant(0), v)) == 0


def test_for_over_a_tensor_with_only_side_effects():
    @tf.function
    def tally(x, v):
        for _ in x:
            v.assign_add(1)
        return v.read_value()

    v = tf.Variable(5)
    assert int(tally(tf.constant([1, 2, 3]), v)) == 8
    assert int(tally(tf.constant([], tf.int32), v)) == 8


def test_nested_loops_and_branches_with_only_side_effects():
    @tf.function
    def nested(n, v, w):
        w.assign(0)
        while w.read_value() < n:
            w.assign_add(1)
            for i in tf.range(n):
                if i % 2 == 0:
                    v.assign_add(1)
                else:
                    v.assign_add(10)
        return v.read_value()

    v, w = tf.Variable(0), tf.Variable(0)
    assert int(nested(tf.constant(3), v, w)) == 3 * (1 + 10 + 1)  # eager Python gives the same


def test_a_loop_may_define_a_dict_of_tensors():
    # TF 2.21: 3.0 and {'a': 2.0, 'b': 4}; a tuple holding a list: (2, [4])
    @tf.function
    def last_dict(n):
        for i in tf.range(n):
            d = {"a": tf.cast(i, tf.float32), "b": i * 2}
        return d["a"] + 1.0, d

    total, d = last_dict(tf.constant(3))
    assert float(total) == 3.0 and float(d["a"]) == 2.0 and int(d["b"]) == 4
    assert d["a"].dtype == tf.float32 and d["b"].dtype == tf.int32

    @tf.function
    def last_pair(n):
        i = 0
        while i < n:
            d = (i, [i * 2])
            i += 1
        return d

    first, (second,) = last_pair(tf.constant(3))
    assert int(first) == 2 and int(second) == 4


def test_a_loop_defining_a_structure_holding_none_fails_as_tensorflow():
    @tf.function
    def holds_none(n):
        for i in tf.range(n):
            d = {"a": i, "b": None}
        return d

    with pytest.raises(ValueError, match="^None values not supported.$"):  # TF 2.21's words
        holds_none(tf.constant(3))


def test_next_in_a_loop_advances_at_run_time_and_raises_past_the_end():
    # TF 2.21: 1 (0 + 1); past the end OutOfRangeError "End of sequence"
    @tf.function
    def take(n):
        it = iter(tf.data.Dataset.range(3))
        s = tf.constant(0, tf.int64)
        for _ in tf.range(n):
            s += next(it)
        return s

    assert int(take(tf.constant(2))) == 1
    assert int(take(tf.constant(3))) == 3
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        take(tf.constant(5))

    @tf.function
    def pull(n):
        it = iter(tf.data.Dataset.range(3))
        first = it.get_next()  # taken outside the loop: the loop goes on from element 1
        s = tf.constant(0, tf.int64)
        i = 0
        while i < n:
            s += it.get_next()
            i += 1
        return first, s

    first, s = pull(tf.constant(2))
    assert int(first) == 0 and int(s) == 3
    with pytest.raises(tf.errors.OutOfRangeError, match="End of sequence"):
        pull(tf.constant(3))


def test_asserts_on_false_constants_fail_while_tracing():
    traced = []

    @tf.function
    def equal(x):
        tf.debugging.assert_equal(tf.constant([1, 2, 3]), tf.constant([1, 5, 3]), message="differ")
        traced.append("equal")
        return x

    # TF 2.21's message (raised while tracing: the rest of the function is never traced)
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        equal(tf.constant(1))
    assert str(info.value).endswith("differ\nCondition x == y did not hold element-wise:\nx (Const:0) = \n[1 2 3]\n"
                                    "y (Const_1:0) = \n[1 5 3]")
    assert traced == []

    @tf.function
    def positive(x):
        tf.debugging.assert_positive(tf.constant([-1., 2.]), message="m")
        traced.append("positive")
        return x

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        positive(tf.constant(1))
    assert str(info.value).endswith("m.  \nCondition x > 0 did not hold element-wise:\nx (Const:0) = \n[-1.  2.]")

    @tf.function
    def non_positive(x):
        tf.debugging.assert_non_positive(tf.constant(3), message="m")
        return x

    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        non_positive(tf.constant(1))
    assert str(info.value).endswith("m.  \nCondition x <= 0 did not hold element-wise:x (Const:0) = \n3")
    assert traced == []


def test_asserts_on_computed_values_and_tf_assert_still_check_at_run_time():
    traced = []

    @tf.function
    def computed(x):
        y = tf.constant(3) * 2  # not a constant to TensorFlow: checked when the function runs
        tf.debugging.assert_greater(y, 10)
        tf.debugging.Assert(tf.constant(True), ["fine"])
        traced.append(1)
        return x

    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x > y did not hold"):
        computed(tf.constant(1))
    assert traced == [1]

    @tf.function
    def passes(x):
        tf.debugging.assert_equal(tf.constant(2), tf.constant(2))
        tf.debugging.assert_less(tf.constant([1, 2]), tf.constant([3, 3]))
        return x + 1

    np.testing.assert_array_equal(passes(tf.constant(1)).numpy(), 2)
