"""An op TensorFlow registers no gradient for (ResizeArea) raises TensorFlow's LookupError when a
gradient has to go through it, where an op marked not differentiable gives None. Messages are
TensorFlow 2.21's: the eager tape's, and the graph one (tf.gradients, a traced function's gradient),
which names the op."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.image import resizing as I

GRAPH_MESSAGE = ("No gradient defined for operation'{name}' (op type: ResizeArea). In general every operation must "
                 "have an associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If you want "
                 "to pretend this operation is a constant in your program, you may insert `tf.stop_gradient`. This can "
                 "be useful to silence the error in cases where you know gradients are not needed, e.g. the forward "
                 "pass of tf.custom_gradient. Please see more details in "
                 "https://www.tensorflow.org/api_docs/python/tf/custom_gradient.")


def _image():
    return tf.constant(np.arange(70, dtype=np.float32).reshape(1, 5, 7, 2))


def test_resize_area_has_no_gradient_on_a_tape():
    x = _image()
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 3], method="area") * 2.0 + x[:, :2, :3, :]
    with pytest.raises(LookupError) as info:
        tape.gradient(y, x)
    assert str(info.value) == "gradient registry has no entry for: ResizeArea"  # TF's str() of its KeyError text


def test_resize_area_has_no_gradient_inside_a_tf_function():
    @tf.function
    def grad_of(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.image.resize(x, [2, 3], method="area")
        return tape.gradient(y, x)

    with pytest.raises(LookupError, match="^gradient registry has no entry for: ResizeArea$"):
        grad_of(_image())


def test_the_gradient_of_a_traced_function_through_resize_area_names_the_op():
    @tf.function
    def forward(x):
        return tf.image.resize(x, [2, 3], method="area")

    x = _image()
    with pytest.raises(LookupError) as info:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = forward(x)
        tape.gradient(y, x)
    (op,) = [op for op in forward.get_concrete_function(x).graph.get_operations() if op.type == "ResizeArea"]
    assert str(info.value) == GRAPH_MESSAGE.format(name=op.name)  # TF: 'resize/ResizeArea' (its name scope)


def test_tf_gradients_through_resize_area_names_the_op():
    @tf.function
    def grads(x):
        return tf.gradients(tf.image.resize(x, [2, 3], method="area"), x)

    with pytest.raises(LookupError) as info:
        grads(_image())
    # TF names the op 'resize/ResizeArea' (tf.image.resize opens a name scope; ours opens none)
    assert str(info.value) == GRAPH_MESSAGE.format(name="ResizeArea")


def test_resize_area_still_resizes_and_a_stopped_gradient_is_fine():
    x = _image()
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(tf.image.resize(x, [2, 3], method="area")) + x[:, :2, :3, :]
    assert tape.gradient(y, x).numpy().sum() == 12.0  # 2 * 3 * 2 ones from the slice
    assert "ResizeAreaGrad" not in dir(I)  # TensorFlow has no such op
