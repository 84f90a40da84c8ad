"""Values recorded from TensorFlow 2.21's Keras 3.15 for the layer tests (keras3_layer_oracle.json): inputs,
outputs with weights set by set_weights, weight paths, get_config dicts and error messages. The tests
read them here and never import TensorFlow."""
import json
import os

import numpy as np

with open(os.path.join(os.path.dirname(__file__), "keras3_layer_oracle.json")) as _f:
    ORACLE = json.load(_f)


def arr(key):
    return np.asarray(ORACLE[key], np.float32)


def error(key):
    """(exception class name, message) that Keras raised."""
    return tuple(ORACLE[key])


def config_without_name(key):
    config = dict(ORACLE[key])
    config.pop("name", None)
    return config
