"""Given the same weights, our applications compute Keras 3's outputs (make_oracle.py sets the
deterministic weights oracle.parity_weights makes and records Keras' logits for a fixed input)."""
import numpy as np
import pytest

from eagerflow import keras
from eagerflow.keras import applications

from .oracle import ORACLE, parity_weights


@pytest.mark.parametrize("name", sorted(ORACLE["parity"]))
def test_same_weights_same_outputs(name):
    case = ORACLE["parity"][name]
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in case["kwargs"].items()}
    keras.backend.clear_session()
    model = getattr(applications, name)(weights=None, classes=10, classifier_activation=None, **kwargs)
    assert len(model.weights) == len(case["kinds"])
    model.set_weights(parity_weights(model, case["kinds"]))
    x = np.random.RandomState(7).uniform(0, 255, (2,) + kwargs["input_shape"]).astype("float32")
    expected = np.asarray(case["output"], "float32")
    got = model(x, training=False).numpy()
    scale = max(1.0, float(np.abs(expected).max()))
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4 * scale)
