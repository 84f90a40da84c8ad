"""`return` inside tensor branches and loops."""
import pytest

import eagerflow as tf

from .helpers import both


def guard(x):
    if x > 0:
        return x
    return x * 3


def nested(x):
    if x > 0:
        if x > 10:
            return x - 10
        y = x + 1
    else:
        y = -x
    return y * 2


def find(t, value):
    for i in tf.range(tf.shape(t)[0]):
        if t[i] == value:
            return i
    return -1


@pytest.mark.parametrize("value", [2.0, -2.0, 12.0])
def test_return_in_branches(value):
    assert float(both(guard, tf.constant(value))) == guard(value)


@pytest.mark.parametrize("value", [2.0, -2.0, 12.0])
def test_return_nested_in_a_branch_that_falls_through_is_refused_as_in_tensorflow(value):
    # TF 2.21: the inner `if` returns in its main branch only, its else takes `y = x + 1`, so `y`
    # has no value in the main branch; plain Python runs it.
    assert nested(value) == {2.0: 6.0, -2.0: 4.0, 12.0: 2.0}[value]
    with pytest.raises(ValueError, match="^'y' must also be initialized in the main branch$"):
        tf.function(nested)(tf.constant(value))


def first_item(t):
    for i in tf.range(tf.shape(t)[0]):
        return t[i]
    return -1


def test_return_inside_a_tensor_loop_follows_tensorflow():
    # TF 2.21: a return the first iteration always reaches is the loop's value; one under a
    # tensor `if` (find) is refused while tracing, in these words (NotImplementedError).
    t = tf.constant([5, 7, 9])
    assert int(both(first_item, t)) == 5
    assert find(t, tf.constant(9)) == 2  # plain Python eagerly
    with pytest.raises(NotImplementedError, match="a return statement cannot be placed inside this TensorFlow loop; "
                                                  "this may happen if a return statement depends on a static Python "
                                                  "condition such as a hyperparameter"):
        tf.function(find)(t, tf.constant(9))


def test_return_errors_follow_tensorflow():
    @tf.function
    def only_one(x):
        if x > 0:
            return x
    with pytest.raises(ValueError, match="the else branch must also have a return statement"):
        only_one(tf.constant(1.0))

    @tf.function
    def dtypes(x):
        if x > 0:
            return x
        else:
            return tf.constant(1)
    with pytest.raises(TypeError, match="'retval_' has dtype float32 in the main branch, but dtype int32"):
        dtypes(tf.constant(1.0))

    @tf.function
    def structures(x):
        if x > 0:
            return x
        else:
            return (x, x)
    with pytest.raises(TypeError, match="'retval_' must have the same nested structure"):
        structures(tf.constant(1.0))


def test_python_condition_return_stays_python():
    @tf.function
    def py(x, flag):
        if flag:
            return x
        return None
    assert float(py(tf.constant(1.0), True)) == 1.0
    assert py(tf.constant(1.0), False) is None


def _deep(x, v):
    if x > 0:
        v.assign_add(1)
        if v > 2:
            return v.read_value() * 10
    return x + 100


def _python_flag_inside(x, flag):
    if x > 0:
        if flag:
            return x * 10
    return x + 100


def _python_returns_on_both_sides(x):
    if x > 0:
        if True:
            return x * 10
    else:
        if True:
            return x * 20
    return x + 100


def test_a_return_nested_under_a_tensor_if_follows_tensorflow():
    # TF 2.21: the `return` sets the function's return value in one branch of a tensor `if` only,
    # so that `if` is refused, naming the branch left without it (which one a Python condition decides).
    with pytest.raises(ValueError, match="^the else branch must also have a return statement.$"):
        tf.function(_deep)(tf.constant(1), tf.Variable(5))
    with pytest.raises(ValueError, match="^the else branch must also have a return statement.$"):
        tf.function(_python_flag_inside)(tf.constant(1), True)
    with pytest.raises(ValueError, match="^the main branch must also have a return statement.$"):
        tf.function(_python_flag_inside)(tf.constant(1), False)
    # both branches return through Python conditions: TF 2.21 gives 10 and -20
    assert int(tf.function(_python_returns_on_both_sides)(tf.constant(1))) == 10
    assert int(tf.function(_python_returns_on_both_sides)(tf.constant(-1))) == -20
    # eagerly all of them are plain Python
    assert int(_deep(tf.constant(1), tf.Variable(5))) == 60 and int(_python_flag_inside(tf.constant(1), False)) == 101
