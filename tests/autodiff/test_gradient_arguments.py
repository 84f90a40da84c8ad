"""tape.gradient's refusals of bad `target`/`sources`: TensorFlow 2.21's classes and messages
(taken from TensorFlow's own output), eagerly and inside tf.function alike."""
import numpy as np
import pytest

import eagerflow as tf

NONE_TARGET = ("Argument `target` should be a list or nested structure of Tensors, Variables or CompositeTensors "
               "to be differentiated, but received None.")

# (target, sources) where "y" / "x" stand for the real target / source -> (class, message)
CASES = [
    ((None, "x"), TypeError, NONE_TARGET),
    ((None, None), TypeError, NONE_TARGET),
    ((3.0, "x"), AttributeError, "'float' object has no attribute 'dtype'"),
    ((3, "x"), AttributeError, "'int' object has no attribute 'dtype'"),
    (("abc", "x"), TypeError, "Cannot convert the argument `type_value`: 'abc' to a TensorFlow DType."),
    (([None], "x"), TypeError, "Cannot convert the argument `type_value`: None to a TensorFlow DType."),
    ((np.array([1.0]), "x"), AttributeError, "'numpy.ndarray' object has no attribute '_id'"),
    (("y", None), TypeError, "Cannot convert the argument `type_value`: None to a TensorFlow DType."),
    (("y", 3.0), AttributeError, "'float' object has no attribute 'dtype'"),
    (("y", "abc"), TypeError, "Cannot convert the argument `type_value`: 'abc' to a TensorFlow DType."),
    (("y", np.array([1.0])), AttributeError, "'numpy.ndarray' object has no attribute '_id'"),
    (("y", ["x", "abc"]), TypeError, "Cannot convert the argument `type_value`: 'abc' to a TensorFlow DType."),
    # targets are checked before sources
    (("abc", 3.0), TypeError, "Cannot convert the argument `type_value`: 'abc' to a TensorFlow DType."),
    ((["y", 3.0], "x"), AttributeError, "'float' object has no attribute 'dtype'"),
]


def _fill(spec, x, y):
    if isinstance(spec, list):
        return [_fill(s, x, y) for s in spec]
    return {"x": x, "y": y}.get(spec, spec) if isinstance(spec, str) else spec


def _gradient(target_spec, source_spec):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    return tape.gradient(_fill(target_spec, x, y), _fill(source_spec, x, y))


@pytest.mark.parametrize("args,cls,message", CASES)
def test_bad_gradient_arguments_raise_tf_error_eagerly(args, cls, message):
    with pytest.raises(cls) as info:
        _gradient(*args)
    assert str(info.value) == message


@pytest.mark.parametrize("args,cls,message", CASES[:3])
def test_bad_gradient_arguments_raise_tf_error_in_tf_function(args, cls, message):
    with pytest.raises(cls) as info:
        tf.function(lambda: _gradient(*args))()
    assert message in str(info.value)


def test_jacobian_of_none_reads_its_shape_like_tf():
    x = tf.constant([1.0, 2.0])
    for method in ("jacobian", "batch_jacobian"):
        with tf.GradientTape() as tape:
            tape.watch(x)
        with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'shape'"):
            getattr(tape, method)(None, x)


def test_good_arguments_still_differentiate():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * v
    gx, gv = tape.gradient([y], [x, v])
    np.testing.assert_allclose(gx.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(gv.numpy(), 3.0)
