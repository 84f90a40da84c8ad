"""TensorFlow's Optional ops (ops/control/optional.py), which SavedModels holding a tf.cond's
gradient use: an Optional's components come back as they went in, reading an empty one is
TensorFlow's InvalidArgumentError ("The optional variant does not have a value."), its zeros hold
its components' zeros and two add component by component (TensorFlow's OptionalZerosLike and
OptionalBinaryAdd), and the gradient reaches the components through OptionalGetValue."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.control import optional as opt
from eagerflow._src.ops.registry import bind


def _get(optional, like):
    return bind(opt.OptionalGetValue, (optional,), {"output_types": [t.dtype for t in like],
                                                   "output_shapes": [t.shape for t in like]})


def test_components_come_back_and_an_empty_optional_is_tensorflows_error():
    a, b = tf.constant([1.0, 2.0]), tf.constant(3, tf.int32)
    full = bind(opt.OptionalFromValue, (a, b), {"Toutput_types": [tf.float32, tf.int32]})
    got = _get(full, [a, b])
    np.testing.assert_array_equal(got[0].numpy(), [1.0, 2.0])
    assert got[1].numpy() == 3 and got[1].dtype == tf.int32
    assert bool(bind(opt.OptionalHasValue, (full,))) is True
    empty = bind(opt.OptionalNone, ())
    assert bool(bind(opt.OptionalHasValue, (empty,))) is False
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        _get(empty, [a, b])
    with pytest.raises(tf.errors.InvalidArgumentError, match="component types"):
        _get(full, [a])


def test_zeros_and_sums_go_component_by_component():
    a, b = tf.constant([1.0, 2.0]), tf.constant([[4.0]])
    x = bind(opt.OptionalFromValue, (a, b), {"Toutput_types": [tf.float32, tf.float32]})
    zero = tf.zeros_like(x)
    total = tf.math.add_n([x, zero, x])
    got = _get(total, [a, b])
    np.testing.assert_array_equal(got[0].numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(got[1].numpy(), [[8.0]])
    np.testing.assert_array_equal(_get(zero, [a, b])[0].numpy(), [0.0, 0.0])


def test_the_gradient_reaches_the_components_through_get_value():
    a = tf.constant([1.0, 2.0])

    @tf.function
    def f(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            packed = bind(opt.OptionalFromValue, (a * a,), {"Toutput_types": [tf.float32]})
            out = _get(packed, [a])[0]
            loss = tf.reduce_sum(out * 3.0)
        return tape.gradient(loss, a)

    np.testing.assert_allclose(f(a).numpy(), [6.0, 12.0])  # d/da sum(3 a^2) = 6a
