"""PearsonCorrelation / ConcordanceCorrelation (and their functions) and BinaryIoU against Keras 3.15
(TF 2.21), on data from a fixed NumPy RandomState stream rebuilt here."""
import warnings

import numpy as np
import pytest

import eagerflow as tf

M = tf.keras.metrics


def _data():
    rng = np.random.RandomState(13)
    yt = rng.rand(6, 5).astype("float32")
    yp = (yt * 0.5 + rng.rand(6, 5) * 0.5).astype("float32")
    sw = rng.rand(6).astype("float32")
    yb = (rng.rand(20) > 0.5).astype("float32")
    pb = rng.rand(20).astype("float32")
    swb = rng.rand(20).astype("float32")
    return yt, yp, sw, yb, pb, swb


EXPECTED = {
    "PearsonCorrelation": {"fn": [0.9311750531196594, -0.3606284260749817, 0.6058823466300964, 0.26754671335220337, 0.8762508630752563, 0.9650431871414185],
                            "fn_axis0": [0.8983470797538757, 0.5507161617279053, 0.6976369023323059, 0.8050783276557922, 0.9496538043022156],
                            "running": [0.39214301109313965, 0.42662742733955383], "axis0": 0.780286431312561,
                            "one_sample": 0.9311750531196594},
    "ConcordanceCorrelation": {"fn": [0.8256403803825378, -0.27169936895370483, 0.42883381247520447, 0.19579055905342102, 0.7716073989868164, 0.9515374302864075],
                                "fn_axis0": [0.8832176327705383, 0.5397931337356567, 0.6135735511779785, 0.6262767314910889, 0.8431001305580139],
                                "running": [0.3275916278362274, 0.36234793066978455],
                                "axis0": 0.7011922597885132,
                                "one_sample": 0.8256403803825378},
}
FUNCTIONS = {"PearsonCorrelation": "pearson_correlation", "ConcordanceCorrelation": "concordance_correlation"}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_correlation_metrics_match_keras3(name):
    yt, yp, sw, _, _, _ = _data()
    cls, fn, want = getattr(M, name), getattr(M, FUNCTIONS[name]), EXPECTED[name]
    np.testing.assert_allclose(fn(yt, yp).numpy(), want["fn"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fn(yt, yp, axis=0).numpy(), want["fn_axis0"], rtol=1e-5, atol=1e-6)
    metric = cls()
    metric.update_state(yt[:3], yp[:3])
    first = float(metric.result())
    metric.update_state(yt[3:], yp[3:], sample_weight=sw[3:])
    assert [first, float(metric.result())] == pytest.approx(want["running"], rel=1e-5)
    by_column = cls(axis=0)
    by_column.update_state(yt, yp)
    assert float(by_column.result()) == pytest.approx(want["axis0"], rel=1e-5)
    assert float(cls()(yt[0], yp[0])) == pytest.approx(want["one_sample"], rel=1e-5)
    assert cls(name="c").get_config() == {"name": "c", "dtype": "float32", "axis": -1}
    assert metric._direction == "up"


def test_binary_iou_matches_keras3():
    _, _, _, yb, pb, swb = _data()
    metric = M.BinaryIoU()
    metric.update_state(yb, pb)
    first = float(metric.result())
    with warnings.catch_warnings(record=True) as caught:  # float weights on an int64 matrix: Keras warns
        warnings.simplefilter("always")
        metric.update_state(yb[:10], pb[:10], sample_weight=swb[:10])
    assert any("You are passing weight as `float`, but dtype is `int`." in str(w.message) for w in caught)
    assert [first, float(metric.result())] == pytest.approx([0.3303571343421936, 0.3303571343421936], rel=1e-6)
    ones = M.BinaryIoU(target_class_ids=[1], threshold=0.3)
    ones.update_state(yb, pb)
    assert float(ones.result()) == pytest.approx(0.3333333134651184, rel=1e-6)
    zeros = M.BinaryIoU(target_class_ids=[0], threshold=0.7)
    zeros.update_state(yb, pb)
    assert float(zeros.result()) == pytest.approx(0.3684210181236267, rel=1e-6)
    ties = M.BinaryIoU()
    ties.update_state([0, 1, 1], [0.5, 0.5, 0.49])  # a prediction equal to the threshold counts as 1
    assert float(ties.result()) == pytest.approx(0.1666666716337204, rel=1e-6)
    assert M.BinaryIoU(name="b").get_config() == {'target_class_ids': [0, 1], 'threshold': 0.5, 'name': 'b', 'dtype': 'int64'}
    assert [[v.name, v.path, v.dtype.name, v.shape.as_list()] for v in M.BinaryIoU(name="bb").variables] == \
        [['total_confusion_matrix', 'bb/total_confusion_matrix', 'int64', [2, 2]]]
