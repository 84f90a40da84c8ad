"""Format versions: every committed golden SavedModel (fixtures/v<major>_<minor>/, written by the
eagerflow of that format version with fixtures/make_fixtures.py) still loads and gives the
outputs recorded when it was written; a file claiming a newer major version is refused naming
both versions (docs/savedmodel-format.md, "Versioning")."""
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.saved_model.format import FORMAT_VERSION

FIXTURES = sorted(p for p in (Path(__file__).parent / "fixtures").iterdir() if p.is_dir() and p.name.startswith("v"))


def _plain(v):
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return np.asarray(v).tolist()


def _assert_close(got, expected, where):
    if isinstance(expected, dict):
        assert sorted(got) == sorted(expected), where
        for k in expected:
            _assert_close(got[k], expected[k], f"{where}[{k!r}]")
        return
    try:
        want, have = np.asarray(expected, np.float64), np.asarray(got, np.float64)
    except ValueError:  # a tuple of outputs of different shapes
        assert isinstance(got, list) and len(got) == len(expected), where
        for i, (g, e) in enumerate(zip(got, expected)):
            _assert_close(g, e, f"{where}[{i}]")
        return
    np.testing.assert_allclose(have, want, rtol=1e-6, atol=1e-7, err_msg=where)


def test_the_current_version_has_a_committed_fixture():
    # Bumping FORMAT_VERSION without adding its fixture would leave the new version untested by the next.
    assert f"v{FORMAT_VERSION[0]}_{FORMAT_VERSION[1]}" in [p.name for p in FIXTURES]


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_a_saved_model_written_by_an_earlier_version_loads_and_gives_its_recorded_outputs(fixture, tmp_path):
    recorded = json.loads((fixture / "expected.json").read_text())
    document = json.loads((fixture / "model" / "saved_model.json").read_text())
    assert document["format_version"] == recorded["format_version"]
    shutil.copytree(fixture / "model", tmp_path / "model")  # a test never touches the committed files
    model = tf.saved_model.load(str(tmp_path / "model"))
    x = tf.constant(np.array(recorded["x"], np.float32))
    expected = recorded["outputs"]
    got = {"run": _plain(model.run(x, tf.constant(3))),
           "serving_default": _plain(model.signatures["serving_default"](x=x, n=tf.constant(5))),
           "plain": _plain(model.plain(tf.constant([1.0, -2.0]))),
           "plain_power_3": _plain(model.plain(tf.constant([1.0, 2.0]), power=3)),
           "train_step_1": _plain(model.train_step(x)),
           "train_step_2": _plain(model.train_step(x)),
           "steps": _plain(model.steps)}
    model.scale.assign(0.25)  # restored variables are live
    got["run_after_assign"] = _plain(model.run(x, tf.constant(4)))
    assert sorted(got) == sorted(expected)
    for key in expected:
        _assert_close(got[key], expected[key], key)
    if recorded["format_version"] >= [1, 2]:  # namedtuple outputs come back as namedtuples
        pair = model.plain(tf.constant([1.0, -2.0]))
        assert type(pair).__name__ == "Pair" and pair._fields == ("value", "steps")


def _numpy_run(x, n, scale, w):
    acc = np.asarray(x, np.float64)
    for _ in range(min(n, 8)):
        acc = acc - scale if acc.sum() > 5.0 else acc * 2.0 + 1.0
    return {"acc": acc @ w, "total": acc.sum()}


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_the_recorded_outputs_are_right(fixture):
    # The recorded values are checked once against NumPy, so the fixture cannot carry a wrong answer.
    recorded = json.loads((fixture / "expected.json").read_text())
    x, out = np.array(recorded["x"]), recorded["outputs"]
    w = np.array([[0.5, -0.2], [0.1, 0.3]])
    for key, n, scale in (("run", 3, 1.5), ("serving_default", 5, 1.5)):
        want = _numpy_run(x, n, scale, w)
        np.testing.assert_allclose(out[key]["acc"], want["acc"], rtol=1e-5)
        assert out[key]["total"] == pytest.approx(want["total"], rel=1e-5)
    assert out["plain"][0] == pytest.approx([0.5, 5.0]) and out["plain"][1] == 0.0
    assert out["plain_power_3"][0] == pytest.approx([0.5, 11.0])
    h = x
    for _ in range(3):
        h = np.tanh(h @ w)
    assert out["train_step_1"][0] == pytest.approx(float(np.sum(h * h)), rel=1e-5)
    assert out["steps"] == 2


@pytest.mark.parametrize("version, loads", [([FORMAT_VERSION[0], FORMAT_VERSION[1] + 5], True),
                                            ([FORMAT_VERSION[0] + 1, 0], False), ([7, 3], False)])
def test_a_newer_minor_version_loads_and_a_newer_major_is_refused_naming_both(version, loads, tmp_path):
    shutil.copytree(FIXTURES[-1] / "model", tmp_path / "model")
    path = tmp_path / "model" / "saved_model.json"
    document = json.loads(path.read_text())
    document["format_version"] = version
    path.write_text(json.dumps(document))
    if loads:
        assert float(tf.saved_model.load(str(tmp_path / "model")).scale.numpy()) == 1.5
        return
    message = (f"{path}: written in format version {version[0]}.{version[1]} by a newer eagerflow; this version "
               f"reads format version {FORMAT_VERSION[0]}.x. Upgrade eagerflow to load it.")
    with pytest.raises(tf.errors.DataLossError) as caught:
        tf.saved_model.load(str(tmp_path / "model"))
    assert str(caught.value) == message


def test_the_documented_refusal_is_the_one_raised():
    doc = (Path(__file__).parents[2] / "docs" / "savedmodel-format.md").read_text()
    assert "written in format version 2.0 by a newer eagerflow; this version\nreads format version 1.x. " \
           "Upgrade eagerflow to load it." in doc
    assert f"(version {FORMAT_VERSION[0]}.{FORMAT_VERSION[1]})" in doc.splitlines()[0]
