"""Calling a functional model (and a Sequential one with an Input) directly on NumPy/Python data: the
inputs are matched to the model's Inputs, checked against their shapes, and converted to their dtypes.
Every value and message below was recorded from Keras 3.15.1 on TensorFlow 2.21."""
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.keras import layers


def _ones_dense_model():
    inp = keras.Input((3,))
    return keras.Model(inp, layers.Dense(2, kernel_initializer="ones")(inp))


@pytest.mark.parametrize("x", [np.ones((2, 3)), np.ones((2, 3), np.int64), np.ones((2, 3), bool),
                               np.ones((2, 3), np.float16), tf.ones((2, 3), tf.int32)])
def test_any_numeric_input_becomes_the_inputs_float32(x):
    y = _ones_dense_model()(x)
    assert y.dtype == tf.float32 and y.shape == (2, 2)
    np.testing.assert_array_equal(y.numpy(), np.full((2, 2), 3.0, np.float32))


def test_float_data_is_cast_to_an_int32_input():
    inp = keras.Input((3,), dtype="int32")
    model = keras.Model(inp, layers.Lambda(lambda t: t * 2)(inp))
    y = model(np.ones((2, 3)) * 1.7)  # Keras: [[2, 2, 2], [2, 2, 2]] (1.7 truncated to 1)
    assert y.dtype == tf.int32
    np.testing.assert_array_equal(y.numpy(), np.full((2, 3), 2, np.int32))


def test_a_trailing_axis_of_one_is_squeezed():
    np.testing.assert_array_equal(_ones_dense_model()(np.ones((2, 3, 1))).numpy(), np.full((2, 2), 3.0))


def test_an_input_of_shape_n_expands_for_an_input_ending_in_one():
    inp = keras.Input((1,))
    model = keras.Model(inp, layers.Dense(1, kernel_initializer="ones", bias_initializer="ones")(inp))
    np.testing.assert_array_equal(model(np.array([1.0, 2.0, 3.0])).numpy(), [[2.0], [3.0], [4.0]])


def test_a_wrong_last_dimension_is_refused_before_running():
    model = _ones_dense_model()
    in_name = model.layers[0].name
    with pytest.raises(ValueError) as info:
        model(np.ones((2, 4)))
    assert str(info.value) == (f"Input 0 with name '{in_name}' of layer '{model.name}' is incompatible with the layer: "
                               f"expected shape=(None, 3), found shape=(2, 4)")


def test_one_axis_too_many_not_of_size_one_is_refused_by_the_rank_check():
    model = _ones_dense_model()
    with pytest.raises(ValueError, match=r"(?s)Invalid input shape for input .* with name 'keras_tensor\S*' and "
                                         r"path ''. Expected shape \(None, 3\), but input has incompatible shape "
                                         r"\(2, 3, 2\)"):
        model(np.ones((2, 3, 2)))


def test_an_image_model_names_the_expected_and_found_shapes():
    img = keras.Input((4, 4, 3), name="img")
    model = keras.Model(img, layers.Conv2D(2, 3)(img), name="convnet")
    for shape in [(1, 5, 5, 3), (1, 4, 4, 2)]:
        with pytest.raises(ValueError, match=r"Input 0 with name 'img' of layer 'convnet' is incompatible with the "
                                             r"layer: expected shape=\(None, 4, 4, 3\), found shape="
                                             + str(shape).replace("(", r"\(").replace(")", r"\)")):
            model(np.ones(shape))


def test_a_rank_too_low_gets_keras_invalid_input_shape_message():
    model = _ones_dense_model()
    tensor_name = model.inputs[0].name
    with pytest.raises(ValueError) as info:
        model(np.ones((3,)))
    assert str(info.value) == (f"Invalid input shape for input [1. 1. 1.] with name '{tensor_name}' and path ''. "
                               f"Expected shape (None, 3), but input has incompatible shape (3,)")


def test_a_python_list_is_a_structure_of_inputs_not_one_array():
    model = _ones_dense_model()
    in_name = model.layers[0].name
    with pytest.raises(ValueError) as info:
        model([[1, 2, 3]])
    assert str(info.value) == (f'Layer "{model.name}" expects 1 named input(s) with keys [\'{in_name}\'], but it '
                               f"received 3 input tensors. Pass inputs as a dict, e.g. `layer({{'{in_name}': ...}})`.")


def test_a_python_scalar_is_not_a_tensor_input():
    model = _ones_dense_model()
    with pytest.raises(ValueError, match=r"Inputs to a layer should be tensors. Got '3.0' \(of type <class 'float'>\)"
                                         f" as input for layer '{model.name}'."):
        model(3.0)


def _two_inputs(as_dict=False):
    a, b = keras.Input((2,), name="a"), keras.Input((3,), name="b")
    joined = layers.Concatenate()([a, b])
    return keras.Model({"a": a, "b": b} if as_dict else [a, b], joined, name="two")


@pytest.mark.parametrize("x", [[np.ones((1, 2)), np.zeros((1, 3))], (np.ones((1, 2)), np.zeros((1, 3))),
                               {"a": np.ones((1, 2)), "b": np.zeros((1, 3))}])
def test_two_inputs_as_list_tuple_or_dict_by_name(x):
    np.testing.assert_array_equal(_two_inputs()(x).numpy(), [[1, 1, 0, 0, 0]])


def test_two_inputs_wrong_second_shape_and_wrong_count():
    model = _two_inputs()
    with pytest.raises(ValueError, match=r"Input 0 with name 'a' of layer 'two' is incompatible with the layer: "
                                         r"expected shape=\(None, 2\), found shape=\(1, 3\)"):
        model([np.ones((1, 3)), np.zeros((1, 3))])
    with pytest.raises(ValueError) as info:
        model([np.ones((1, 2))])
    assert str(info.value) == ("Layer \"two\" expects 2 named input(s) with keys ['a', 'b'], but it received 1 input "
                               "tensors. Pass inputs as a dict, e.g. `layer({'a': ..., 'b': ...})`.")


def test_dict_model_missing_key_and_list_given_with_warning():
    model = _two_inputs(as_dict=True)
    np.testing.assert_array_equal(model({"a": np.ones((1, 2)), "b": np.zeros((1, 3))}).numpy(), [[1, 1, 0, 0, 0]])
    with pytest.raises(ValueError) as info:
        model({"a": np.ones((1, 2))})
    assert str(info.value) == ("Missing data for input \"b\". You passed a data dictionary with keys ['a']. Expected "
                               "the following keys: ['a', 'b']")
    with pytest.warns(UserWarning, match=r"The structure of `inputs` doesn't match the expected structure.\n"
                                         r"Expected: \{'a': 'a', 'b': 'b'\}\nReceived: inputs="
                                         r"\['Tensor\(shape=\(1, 2\)\)', 'Tensor\(shape=\(1, 3\)\)'\]"):
        y = model([np.ones((1, 2)), np.zeros((1, 3))])
    np.testing.assert_array_equal(y.numpy(), [[1, 1, 0, 0, 0]])


def test_list_of_one_input_warns_for_numpy_not_for_tensors_or_variables():
    inp = keras.Input((3,), name="image")
    model = keras.Model([inp], layers.Dense(2)(inp))
    with pytest.warns(UserWarning, match=r"Expected: \['image'\]\nReceived: inputs=Tensor\(shape=\(2, 3\)\)"):
        model(np.ones((2, 3)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model(tf.ones((2, 3)))
        model(tf.Variable(tf.ones((2, 3))))
        assert model(keras.Input((3,))).shape == (None, 2)


def test_sequential_casts_to_its_input_and_dense_checks_its_last_axis():
    model = keras.Sequential([keras.Input((3,)), layers.Dense(2)])
    assert model(np.ones((2, 3), np.int32)).dtype == tf.float32
    dense = model.layers[0]
    with pytest.raises(ValueError) as info:
        model(np.ones((2, 4)))
    assert str(info.value) == (f"Input 0 with name 'None' of layer '{dense.name}' is incompatible with the layer: "
                               f"expected axis -1 of input shape to have value 3, but received input with shape (2, 4)")


def test_a_custom_layer_input_spec_is_checked_before_call():
    class NeedsRank4(layers.Layer):
        def __init__(self):
            super().__init__(name="needs4")
            self.input_spec = layers.InputSpec(ndim=4)

        def call(self, x):
            return x

    with pytest.raises(ValueError) as info:
        NeedsRank4()(np.ones((2, 3)))
    assert str(info.value) == ("Input 0 with name 'None' of layer 'needs4' is incompatible with the layer: expected "
                               "ndim=4, found ndim=2. Full shape received: (2, 3)")


def test_calling_on_a_keras_input_of_the_wrong_shape_is_refused_the_same_way():
    inp = keras.Input((3,), name="a")
    model = keras.Model(inp, layers.Dense(2)(inp), name="mm")
    with pytest.raises(ValueError) as info:
        model(keras.Input((4,)))
    assert str(info.value) == ("Input 0 with name 'a' of layer 'mm' is incompatible with the layer: expected "
                               "shape=(None, 3), found shape=(None, 4)")
