"""keras.layers.Lambda against TensorFlow 2.21's Keras 3.15: config (a lambda saved as bytecode, a named
function by name), safe_mode refusing to load a lambda, and loading it with safe_mode=False."""
import re

import numpy as np
import pytest

from eagerflow import keras
from tests.keras.layer_oracle import ORACLE

L = keras.layers


def double(x):
    return x * 2.0


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _lambda_model():
    inp = keras.Input((3,))
    return keras.Model(inp, L.Lambda(lambda x, k=3: x * k + 1, arguments={"k": 2.0})(inp))


def test_lambda_calls_its_function_with_its_arguments():
    out = L.Lambda(lambda x, k=3: x * k, arguments={"k": 2.0})(np.ones((1, 2), np.float32))
    np.testing.assert_array_equal(out.numpy(), np.asarray(ORACLE["lam_val"], np.float32))
    seen = {}

    def fn(x, training=None):
        seen["training"] = training
        return x
    L.Lambda(fn)(np.ones((1, 2), np.float32), training=True)
    assert seen["training"] is True


def test_lambda_configs_match_keras():
    assert L.Lambda(lambda x: x).name == "lambda"
    named = L.Lambda(double).get_config()
    want = dict(ORACLE["named_cfg"])
    assert {k: v for k, v in named.items() if k != "name"} == {k: v for k, v in want.items() if k != "name"}
    lam = L.Lambda(lambda x, k=3: x * k, output_shape=(3,), arguments={"k": 2.0}).get_config()
    theirs = ORACLE["lam_cfg"]
    assert list(lam) == list(theirs)
    assert lam["function"]["class_name"] == "__lambda__" and lam["function"]["config"]["defaults"] == (3,)
    assert [lam["output_shape"], lam["arguments"]] == [theirs["output_shape"], theirs["arguments"]]
    with pytest.raises(TypeError):
        L.Lambda(3)


def test_saved_lambda_is_refused_in_safe_mode_and_loads_without_it(tmp_path):
    model = _lambda_model()
    model.save(tmp_path / "lam.keras")
    message = ORACLE["lambda_load"][1].split(", or calling")[0]  # eagerflow has no keras.config switch
    with pytest.raises(ValueError, match=re.escape(message)):
        keras.models.load_model(tmp_path / "lam.keras")
    loaded = keras.models.load_model(tmp_path / "lam.keras", safe_mode=False)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(loaded.predict(x, verbose=0), x * 2 + 1)
    with pytest.raises(ValueError, match="Requested the deserialization of a `Lambda`"):
        keras.models.load_model(tmp_path / "lam.keras")  # safe_mode=False lasted only for that load


def test_named_function_loads_only_when_known(tmp_path):
    inp = keras.Input((3,))
    keras.Model(inp, L.Lambda(double)(inp)).save(tmp_path / "named.keras")
    assert ORACLE["named_load_message"].startswith("Could not locate function 'double'.")
    with pytest.raises(TypeError, match=re.escape(ORACLE["named_load_message"].split(" Full object")[0])):
        keras.models.load_model(tmp_path / "named.keras")
    loaded = keras.models.load_model(tmp_path / "named.keras", custom_objects={"double": double})
    np.testing.assert_array_equal(loaded.predict(np.ones((1, 3), np.float32), verbose=0), np.full((1, 3), 2.0))


def test_registered_function_loads_by_its_registered_name(tmp_path):
    @keras.saving.register_keras_serializable(package="LambdaTest")
    def triple(x):
        return x * 3.0
    inp = keras.Input((2,))
    keras.Model(inp, L.Lambda(triple)(inp)).save(tmp_path / "reg.keras")
    loaded = keras.models.load_model(tmp_path / "reg.keras")
    np.testing.assert_array_equal(loaded.predict(np.ones((1, 2), np.float32), verbose=0), np.full((1, 2), 3.0))
