"""`keras.datasets.mnist.load_data`: reads the standard `mnist.npz` (arrays x_train, y_train,
x_test, y_test) from Keras' cache directory, `$KERAS_HOME/datasets` or `~/.keras/datasets`, or
from the path given. eagerflow never downloads: a missing file is an error that says where to put it.
"""
from __future__ import annotations

import os

import numpy as np

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"


def cache_dir():
    from ..utils.file_utils import keras_home
    return os.path.join(keras_home(), "datasets")


def load_data(path="mnist.npz"):
    """((x_train, y_train), (x_test, y_test)) as uint8 arrays, like Keras."""
    full = os.path.join(cache_dir(), os.fspath(path))  # an absolute `path` is used as it is
    if not os.path.exists(full):
        raise FileNotFoundError(
            f"MNIST file not found: {full}. eagerflow does not download datasets; download {ORIGIN} "
            f"yourself and save it as {full} (or pass its location: mnist.load_data(path='/path/to/mnist.npz')).")
    with np.load(full, allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
