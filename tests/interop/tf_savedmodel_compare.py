"""eagerflow's side of the differential suite: load a SavedModel TensorFlow wrote, make the calls TensorFlow
made (tf_written_savedmodels.py's manifest), and compare: float outputs within rtol 1e-5 (atol 1e-5 for
values near zero), integer, boolean and string outputs exactly."""
from __future__ import annotations

import json
import os

import numpy as np

RTOL, ATOL = 1e-5, 1e-5


def recorded(folder, name):
    """{call: ({input: array}, {output: array})} TensorFlow stored for model `name`."""
    return recorded_files(os.path.join(folder, "io", f"{name}.npz"), os.path.join(folder, "io", f"{name}.strings.json"))


def recorded_files(arrays_path, strings_path):
    """The same from the npz file of numeric arrays and the JSON file of string arrays."""
    arrays = dict(np.load(arrays_path))
    with open(strings_path) as f:
        for key, (shape, items) in json.load(f).items():
            arrays[key] = np.array([s.encode("latin-1") for s in items], dtype=object).reshape(shape)
    calls = {}
    for key, value in arrays.items():
        call, group, item = key.split("/", 2)
        calls.setdefault(call, ({}, {}))[0 if group == "in" else 1][item] = value
    return calls


def call_loaded(loaded, call, inputs):
    """The outputs of `call` ('signature:KEY' or 'call:ATTR...') on the loaded object, as {name: ndarray}."""
    import eagerflow as tf
    kind, _, key = call.partition(":")
    tensors = {k: tf.constant(v) for k, v in inputs.items()}
    if kind == "signature":
        out = loaded.signatures[key](**tensors)
    else:
        attr = {"negative": "run", "one": "run", "vector": "scale", "matrix": "scale"}.get(key, key)
        out = getattr(loaded, attr)(*[tensors[k] for k in sorted(inputs, key=list(inputs).index)])
    if not isinstance(out, dict):
        out = {"output": out} if not isinstance(out, (list, tuple)) else {f"output_{i}": o for i, o in enumerate(out)}
    return {k: np.asarray(v.numpy() if hasattr(v, "numpy") else v) for k, v in out.items()}


def compare(name, call, actual, expected):
    """A list of problems (empty when every output matches)."""
    problems = []
    if sorted(actual) != sorted(expected):
        return [f"{name} {call}: outputs {sorted(actual)}, TensorFlow's {sorted(expected)}"]
    for key, want in expected.items():
        got = actual[key]
        if got.dtype.kind == "S":  # a scalar string's numpy() is bytes, as in TensorFlow
            got = got.astype(object)
        where = f"{name} {call} {key!r}"
        if got.shape != want.shape:
            problems.append(f"{where}: shape {got.shape}, TensorFlow's {want.shape}")
        elif want.dtype == object:
            if got.dtype != object or [bytes(x) for x in got.ravel()] != list(want.ravel()):
                problems.append(f"{where}: {got.ravel()[:6]} != TensorFlow's {want.ravel()[:6]}")
        elif got.dtype != want.dtype:
            problems.append(f"{where}: dtype {got.dtype}, TensorFlow's {want.dtype}")
        elif want.dtype.kind == "f":
            if not np.allclose(got, want, rtol=RTOL, atol=ATOL):
                worst = np.max(np.abs(got.astype(np.float64) - want))
                problems.append(f"{where}: differs by up to {worst:.3g}")
        elif not np.array_equal(got, want):
            problems.append(f"{where}: {got.ravel()[:8]} != TensorFlow's {want.ravel()[:8]}")
    return problems
