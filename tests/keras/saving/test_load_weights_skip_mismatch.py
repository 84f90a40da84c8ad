"""`load_weights(path, skip_mismatch=...)` as Keras 3.15 does it: a layer whose stored weights have other shapes
(or another count) than its variables fails the load with Keras' "A total of N objects could not be loaded"
ValueError, or with skip_mismatch=True keeps its values, with that text as a UserWarning, while the other layers
load. Messages recorded from Keras 3.15.1 (a Dense(2) model's weights loaded into the same model with Dense(5))."""
import warnings

import numpy as np
import pytest

from eagerflow import keras

pytest.importorskip("h5py")

# Keras 3.15.1's text, up to the variable's repr (its value differs from run to run).
KERAS_SHAPE_TEXT = ("A total of 1 objects could not be loaded. Example error message for object <Dense name=d1, "
                    "built=True>:\n\nThe shape of the target variable and the shape of the target value in "
                    "`variable.assign(value)` must match. variable.shape=(4, 5), Received: value.shape=(4, 2). "
                    "Target variable: ")
KERAS_LIST_TEXT = "\n\nList of objects that could not be loaded:\n[<Dense name=d1, built=True>]"
KERAS_COUNT_TEXT = ("A total of 1 objects could not be loaded. Example error message for object <Dense name=d1, "
                    "built=True>:\n\nLayer 'd1' expected 1 variables, but received 2 variables during loading. "
                    "Expected: ['kernel']\n\nList of objects that could not be loaded:\n[<Dense name=d1, built=True>]")


def _model(units, use_bias=True):
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d0"),
                             keras.layers.Dense(units, name="d1", use_bias=use_bias)], name="seq")


@pytest.fixture(params=["a.weights.h5", "a.keras"])
def saved(request, tmp_path):
    model = _model(2)
    path = str(tmp_path / request.param)
    model.save_weights(path) if path.endswith(".weights.h5") else model.save(path)
    return model, path


def test_a_shape_mismatch_fails_with_keras_text_and_changes_nothing(saved):
    _, path = saved
    model = _model(5)
    before = model.get_weights()
    with pytest.raises(ValueError) as info:
        model.load_weights(path)
    text = str(info.value)
    assert text.startswith(f"Cannot load the weights file {path}: weight layers/dense_1/vars/0 has shape (4, 2)")
    assert KERAS_SHAPE_TEXT in text and text.endswith(KERAS_LIST_TEXT)
    assert all(np.array_equal(a, b) for a, b in zip(model.get_weights(), before))


def test_skip_mismatch_loads_the_rest_and_warns_with_keras_text(saved):
    source, path = saved
    model = _model(5)
    before = model.get_weights()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.load_weights(path, skip_mismatch=True)
    messages = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    assert len(messages) == 1
    assert messages[0].startswith(KERAS_SHAPE_TEXT) and messages[0].endswith(KERAS_LIST_TEXT)
    # as in Keras: d0 loaded, d1 (mismatched) kept
    got = model.get_weights()
    assert [np.array_equal(g, s) for g, s in zip(got[:2], source.get_weights()[:2])] == [True, True]
    assert [np.array_equal(g, b) for g, b in zip(got[2:], before[2:])] == [True, True]


def test_a_variable_count_mismatch_is_keras_text_too(tmp_path):
    path = str(tmp_path / "a.weights.h5")
    _model(2).save_weights(path)
    model = _model(2, use_bias=False)
    with pytest.raises(ValueError) as info:
        model.load_weights(path)
    assert str(info.value).endswith(KERAS_COUNT_TEXT)
    before = model.get_weights()
    with pytest.warns(UserWarning) as caught:
        model.load_weights(path, skip_mismatch=True)
    assert [str(w.message) for w in caught] == [KERAS_COUNT_TEXT]
    assert np.array_equal(model.get_weights()[2], before[2])
