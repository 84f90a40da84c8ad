"""Keras' legacy HDF5 model files exchanged with real Keras 3.15: `model.save("m.h5")` by Keras read by
eagerflow's `keras.models.load_model` (same predictions, the optimizer state restored), and the files eagerflow
writes read by Keras. Models: tests/interop/keras_file_models.py's MLP, CNN, text model and two-input model.

Keras 3.15 cannot compile from the training config it writes when a loss is given by name ("Could not
deserialize 'keras.metrics.mse'"), so its side loads with compile=False; eagerflow compiles."""
import numpy as np
import pytest

from eagerflow import keras
from tests.interop.keras_file_models import SOURCE, namespace

h5py = pytest.importorskip("h5py")

NAMES = ["mlp", "cnn", "text", "two_io"]
RTOL, ATOL = 1e-5, 1e-6
STEPS = 4

TF_PRELUDE = f"""
import json
import numpy as np
import keras
SCOPE = {{"keras": keras}}
exec({SOURCE!r}, SCOPE)
build, predictions = SCOPE["build"], SCOPE["predictions"]
NAMES = {NAMES!r}
"""


def _close(got, want, what):
    assert sorted(got) == sorted(want), what
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=RTOL, atol=ATOL, err_msg=f"{what}: output {key}")


def test_eagerflow_loads_the_h5_models_keras_saves(run_tf, tmp_path):
    written = run_tf(TF_PRELUDE + """
        out = {}
        for name in NAMES:
            keras.utils.set_random_seed(0)
            model, x, y = build(name)
            model.fit(x, y, epochs=2, batch_size=4, verbose=0)
            model.save(name + ".h5")
            np.savez(name + ".predictions.npz", **predictions(model, x))
            out[name] = [v.numpy().tolist() for v in model.optimizer.variables[2:4]]
        print(json.dumps(out))
    """.replace("\n        ", "\n"))
    scope = namespace(keras)
    for name in NAMES:
        want = dict(np.load(tmp_path / f"{name}.predictions.npz"))
        _, x, _ = scope["build"](name)
        loaded = keras.models.load_model(tmp_path / f"{name}.h5")
        _close(scope["predictions"](loaded, x), want, f"{name}.h5")
        assert int(loaded.optimizer.iterations) == STEPS, name
        for variable, value in zip(loaded.optimizer.variables[2:4], written[name]):
            np.testing.assert_allclose(variable.numpy(), np.float32(value), rtol=RTOL, atol=ATOL, err_msg=name)
        weights_only, x, _ = scope["build"](name)
        weights_only.load_weights(tmp_path / f"{name}.h5")  # a whole-model .h5 gives its weights too
        _close(scope["predictions"](weights_only, x), want, f"{name}.h5 weights")
        bare = keras.models.load_model(tmp_path / f"{name}.h5", compile=False)
        _close(scope["predictions"](bare, x), want, f"{name}.h5 compile=False")


def test_keras_loads_the_h5_models_eagerflow_saves(run_tf, tmp_path):
    scope = namespace(keras)
    for name in NAMES:
        keras.utils.set_random_seed(0)
        model, x, y = scope["build"](name)
        model.fit(x, y, epochs=2, batch_size=4, verbose=0)
        model.save(tmp_path / f"{name}.h5")
        np.savez(tmp_path / f"{name}.predictions.npz", **scope["predictions"](model, x))
    answers = run_tf(TF_PRELUDE + """
        out = {}
        for name in NAMES:
            want = dict(np.load(name + ".predictions.npz"))
            _, x, _ = build(name)
            loaded = keras.models.load_model(name + ".h5", compile=False)
            got = predictions(loaded, x)
            fresh, x, _ = build(name)
            fresh.load_weights(name + ".h5")
            again = predictions(fresh, x)
            out[name] = {"keys": sorted(got) == sorted(want),
                         "close": all(np.allclose(p[k], want[k], rtol=%r, atol=%r) for p in (got, again)
                                      for k in want), "class": type(loaded).__name__}
        print(json.dumps(out))
    """.replace("\n        ", "\n") % (RTOL, ATOL))
    for name in NAMES:
        assert answers[name]["keys"] and answers[name]["close"], (name, answers[name])
    assert answers["mlp"]["class"] == "Sequential" and answers["cnn"]["class"] == "Functional"
