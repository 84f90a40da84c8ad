"""Writes keras3_more_layers_oracle.json from TensorFlow 2.21's Keras 3.15.1 (run with /work/tfvenv/bin/python
from the repository root) for the layers of issue 24 point 6. Each case names a layer class, its constructor
and call arguments and its input shapes; the inputs and weights are drawn here with NumPy and stored beside
the layer's weight paths, output and config, so test_more_layers.py builds the same layer in eagerflow, sets
the same weights and compares. The tests never import TensorFlow."""
import json
import os

import numpy as np
import keras
from keras import layers as L

from more_layers_cases import CASES, inner_layers  # noqa: E402  (the shared case table)


def _plain(value):
    return json.loads(json.dumps(value, default=lambda v: list(v) if isinstance(v, tuple) else str(v)))


def _digits(array, significant):
    """A nested list of `array`'s values written with `significant` digits (9 round-trip float32 exactly)."""
    return json.loads(np.array2string(np.asarray(array, np.float64), separator=",", threshold=np.inf,
                                      max_line_width=np.inf, floatmode="unique", precision=significant,
                                      formatter={"float_kind": lambda v: f"{v:.{significant}g}"}))


def draw_inputs(rng, key, shape):
    """Images in 0..255 for keys starting img255_, in 0..1 for img01_; standard normal values otherwise."""
    if key.startswith("img255_"):
        return rng.uniform(0, 255, shape).astype(np.float32)
    if key.startswith("img01_"):
        return rng.uniform(0, 1, shape).astype(np.float32)
    return rng.standard_normal(shape).astype(np.float32)


def record(case):
    key, cls, kwargs, shapes, call_kwargs = case
    keras.backend.clear_session()
    rng = np.random.default_rng(sum(map(ord, key)))
    inputs = [draw_inputs(rng, key, s) for s in shapes]
    layer = getattr(L, cls)(**inner_layers(L, kwargs))
    x = inputs[0] if len(inputs) == 1 else inputs
    if len(inputs) == 1:
        layer.build(inputs[0].shape)
    else:
        layer(*inputs, **call_kwargs)
    ws = [(rng.standard_normal(tuple(w.shape)) * 0.5).astype(np.float32) for w in layer.weights]
    layer.set_weights(ws)
    y = layer(*inputs, **call_kwargs) if len(inputs) > 1 else layer(x, **call_kwargs)
    outs = y if isinstance(y, (list, tuple)) else [y]
    return {"inputs": [_digits(a, 9) for a in inputs], "weights": [_digits(w, 9) for w in ws],
            "paths": [[w.path, list(w.shape)] for w in layer.weights],
            "outputs": [_digits(o, 8) for o in outs],
            "config": _plain(layer.get_config())}


def shear_references():
    """Keras' affine_transform of one image under the shears (+-0.3, +-0.1) RandomShear may draw for
    x_factor=(0.3, 0.3), y_factor=(0.1, 0.1) (the sign is a coin flip): test_more_augmentation.py checks
    each sheared image is one of the two."""
    rng = np.random.default_rng(5)
    image = rng.uniform(0, 255, (1, 6, 7, 3)).astype(np.float32)
    outs = []
    for sign in (1.0, -1.0):
        matrix = np.array([[1.0, 0.3 * sign, 0.0, 0.1 * sign, 1.0, 0.0, 0.0, 0.0]], np.float32)
        outs.append(np.asarray(keras.ops.image.affine_transform(image, matrix, "bilinear", "reflect")).tolist())
    return {"image": image.tolist(), "sheared": outs}


if __name__ == "__main__":
    out = {case[0]: record(case) for case in CASES}
    out["shear_references"] = shear_references()
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras3_more_layers_oracle.json")
    with open(path, "w") as f:
        json.dump(out, f)
