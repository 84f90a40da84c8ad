"""Keras 3.15's recorded answers (make_oracle.py writes them) and the helpers the tests share."""
import hashlib
import json
import os
import re

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "keras_applications_oracle.json")) as _f:
    ORACLE = json.load(_f)
AUTO_NAME = re.compile(r"^(re_lu|activation|add)(_\d+)?$")


def sha(items):
    return hashlib.sha256("\n".join(items).encode()).hexdigest()


def layer_names(model):
    return [f"{layer.name}:{type(layer).__name__}" for layer in model.layers]


def parity_weights(model, kinds):
    """make_oracle.py's deterministic weights, by the weight kinds Keras listed in its order; our weights'
    shapes must agree with that order for set_weights to take them."""
    arrays = []
    for i, (w, kind) in enumerate(zip(model.weights, kinds)):
        shape = tuple(w.shape)
        rs = np.random.RandomState(1000 + i)
        if "int" in w.dtype.name:
            arrays.append(np.zeros(shape, w.dtype.name))
        elif kind in ("moving_variance", "variance", "gamma") and len(shape) <= 1:
            arrays.append(rs.uniform(0.5, 1.5, shape).astype("float32"))
        elif len(shape) <= 1:
            arrays.append(rs.uniform(-0.1, 0.1, shape).astype("float32"))
        else:
            fan_in = int(np.prod(shape[:-1]))
            arrays.append((rs.uniform(-1, 1, shape) * np.sqrt(3.0 / fan_in)).astype("float32"))
    return arrays
