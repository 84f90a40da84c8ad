"""A restored tf.function refuses calls as TensorFlow 2.21's does (messages recorded from it for the
same module saved and loaded there): one saved with an input_signature binds to it and raises its
TypeError naming the spec the input does not fit, and accepts every batch size its None dimension
allows; one without lists the call and each trace's input signature in TensorFlow's ValueError."""
import numpy as np
import pytest

import eagerflow as tf


class _Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(self, x):
        return tf.reduce_sum(x, axis=1) * self.v

    @tf.function
    def g(self, x, scale=2.0):
        return x * scale * self.v


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    m = _Module()
    m.g(tf.constant([1.0, 2.0]))
    m.g(tf.constant([[1.0]]), scale=3.0)
    path = str(tmp_path_factory.mktemp("restored") / "m")
    tf.saved_model.save(m, path, signatures={"serving_default": m.f})
    return tf.saved_model.load(path)


def test_input_signature_accepts_any_batch(loaded):
    assert loaded.f(tf.ones([0, 3])).shape == (0,)
    np.testing.assert_array_equal(loaded.f(tf.ones([7, 3])).numpy(), [6.0] * 7)
    np.testing.assert_array_equal(loaded.f(np.ones([2, 3], np.float32)).numpy(), [6.0, 6.0])


@pytest.mark.parametrize("x, got", [
    (tf.ones([5]), "TensorSpec(shape=(5,), dtype=tf.float32, name=None)"),
    (tf.ones([2, 4]), "TensorSpec(shape=(2, 4), dtype=tf.float32, name=None)"),
    (tf.ones([2, 3], tf.int32), "TensorSpec(shape=(2, 3), dtype=tf.int32, name=None)"),
], ids=["rank", "width", "dtype"])
def test_input_signature_refusal_is_tensorflows_type_error(loaded, x, got):
    with pytest.raises(TypeError) as info:
        loaded.f(x)
    text = str(info.value)
    assert text.startswith(f"Binding inputs to tf.function failed due to `Can not cast {got} to "
                           f"TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)`")
    assert text.endswith(" for signature: (x: TensorSpec(shape=(None, 3), dtype=tf.float32, name=None)).")


TF_NO_MATCH = (
    "Could not find matching concrete function to call loaded from the SavedModel. Got:\n"
    "  Positional arguments (2 total):\n    * <tf.Tensor 'x:0' shape=(1, 1) dtype=float32>\n    * 4.0\n"
    "  Keyword arguments: {}\n\n Expected these arguments to match one of the following 2 option(s):\n\n"
    "Option 1:\n  Positional arguments (2 total):\n    * TensorSpec(shape=(2,), dtype=tf.float32, name='x')\n"
    "    * 2.0\n  Keyword arguments: {}\n\nOption 2:\n  Positional arguments (2 total):\n"
    "    * TensorSpec(shape=(1, 1), dtype=tf.float32, name='x')\n    * 3.0\n  Keyword arguments: {}")


def test_no_matching_trace_is_tensorflows_value_error(loaded):
    with pytest.raises(ValueError) as info:
        loaded.g(tf.constant([[5.0]]), scale=4.0)
    assert str(info.value) == TF_NO_MATCH
    with pytest.raises(ValueError, match=r"\* <tf.Tensor 'x:0' shape=\(2,\) dtype=int32>\n    \* 2.0\n"):
        loaded.g(x=tf.constant([1, 2]))  # the default filled in, the keyword bound by position
    np.testing.assert_array_equal(loaded.g(tf.constant([[5.0]]), scale=3.0).numpy(), [[30.0]])
