"""Damaged Keras 3 weights files: random byte changes, truncations and zeroed runs in a .weights.h5 file
and in the model.weights.h5 of a .keras archive (re-zipped, so the zip's checksums do not catch the
change first and HDF5's parser sees it). Every load either succeeds or raises ValueError naming the
file; never another exception, and never a half-loaded model. FUZZ_CASES mutations of each kind run in
the normal suite; set EAGERFLOW_FUZZ_CASES (e.g. 3000) for a long run."""
import io
import os
import warnings
import zipfile

import numpy as np
import pytest

from eagerflow import keras

h5py = pytest.importorskip("h5py")

FUZZ_CASES = int(os.environ.get("EAGERFLOW_FUZZ_CASES", "150"))


def _model():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.BatchNormalization(),
                              keras.layers.Dense(2)])
    model.compile("adam", "mse")
    return model


def _mutate(data, rng):
    b = bytearray(data)
    kind = rng.integers(3)
    if kind == 0:
        for _ in range(rng.integers(1, 6)):
            b[rng.integers(len(b))] = rng.integers(256)
    elif kind == 1:
        b = b[:rng.integers(len(b))]
    else:
        start = int(rng.integers(len(b)))
        b[start:start + 16] = b"\0" * len(b[start:start + 16])
    return bytes(b)


def _rezip(archive, weights):
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(archive)) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, weights if name == "model.weights.h5" else src.read(name))
    return out.getvalue()


def test_damaged_weights_load_or_raise_value_error_naming_the_file(tmp_path):
    source = _model()
    source.fit(np.ones((4, 4), "f4"), np.ones((4, 2), "f4"), verbose=0)
    source.save_weights(tmp_path / "good.weights.h5")
    source.save(tmp_path / "good.keras")
    weights = (tmp_path / "good.weights.h5").read_bytes()
    archive = (tmp_path / "good.keras").read_bytes()
    inner = zipfile.ZipFile(io.BytesIO(archive)).read("model.weights.h5")
    rng = np.random.default_rng(0)
    outcomes = {"loaded": 0, "refused": 0}
    target = _model()
    target.optimizer.build(target.trainable_variables)
    for case in range(2 * FUZZ_CASES):
        if case % 2 == 0:
            path, data = tmp_path / "f.weights.h5", _mutate(weights, rng)
        else:
            path, data = tmp_path / "f.keras", _rezip(archive, _mutate(inner, rng))
        path.write_bytes(data)
        before = [w.numpy() for w in target.weights]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an optimizer group damaged into another size is skipped
                if path.suffix == ".keras":
                    keras.models.load_model(path)
                else:
                    target.load_weights(path)
            outcomes["loaded"] += 1
        except ValueError as e:
            assert str(path) in str(e), (case, str(e))
            outcomes["refused"] += 1
            for w, b in zip(target.weights, before):
                np.testing.assert_array_equal(w.numpy(), b)
    # both outcomes happen: the changes reach the parser, and some damage only alters values
    assert outcomes["refused"] > FUZZ_CASES // 4 and outcomes["loaded"] > 0, outcomes
