"""Writes keras3_ops_oracle.json from TensorFlow 2.21's Keras 3.15 (run with /work/tfenv/bin/python from the
repository root): the value of every call of keras_ops_cases.py, and Keras' keras.ops surface (the names of
keras.ops and of its numpy, nn, linalg and image modules). The tests read the JSON; they never import TF."""
import json
import os
import sys
import types

import numpy as np
import keras
import tensorflow as tf

sys.path.insert(0, os.path.dirname(__file__))
from keras_ops_cases import make_cases, make_image_cases  # noqa: E402


def val(r):
    """A result as [dtype, values] (floats rounded to 5 places, NaN as "nan"), lists of results as lists."""
    if isinstance(r, (list, tuple)):
        return [val(v) for v in r]
    if hasattr(r, "numpy") or isinstance(r, np.ndarray):
        dt = r.dtype.name if hasattr(r.dtype, "name") else str(r.dtype)
        a = np.asarray(r)
        if a.dtype.kind in "fc":
            a = np.round(a.real.astype(np.float64), 5)
            return [dt, np.where(np.isnan(a), None, a).tolist()]
        return [dt, a.astype(np.float64).tolist() if a.dtype.kind in "iub" else a.tolist()]
    if isinstance(r, (np.generic,)):
        return round(float(r), 5)
    return r


def main():
    out = {"values": {}, "surface": {}}
    for name, fn in sorted(make_cases(keras.ops, tf).items()):
        try:
            out["values"][name] = val(fn())
        except Exception as e:  # noqa: BLE001
            out["values"][name] = ["RAISES", type(e).__name__, str(e)[:300]]
    out["image_values"] = {}
    for name, fn in sorted(make_image_cases(keras.ops, tf).items()):
        try:
            out["image_values"][name] = val(fn())
        except Exception as e:  # noqa: BLE001
            out["image_values"][name] = ["RAISES", type(e).__name__, str(e)[:300]]
    for mod in ("", "numpy", "nn", "linalg", "image"):
        m = getattr(keras.ops, mod) if mod else keras.ops
        out["surface"][mod or "ops"] = sorted(n for n in dir(m) if not n.startswith("_"))
    out["keras_version"] = keras.__version__
    path = os.path.join(os.path.dirname(__file__), "keras3_ops_oracle.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0, sort_keys=True)


main()
