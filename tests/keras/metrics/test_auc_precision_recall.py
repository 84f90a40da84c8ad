"""AUC, Precision and Recall against Keras 3.15 (TF 2.21) on a fixed example; the expected values
were computed by the oracle and written here."""
import numpy as np
import pytest

from eagerflow import keras

M = keras.metrics
YT = np.array([0, 0, 1, 1, 1, 0, 1, 0, 1, 1], np.float32)
YP = np.array([0.1, 0.4, 0.35, 0.8, 0.65, 0.5, 0.9, 0.05, 0.5, 0.3], np.float32)
SW = np.array([1, 2, 1, 1, 0.5, 1, 1, 3, 1, 1], np.float32)


@pytest.mark.parametrize("kwargs, first, accumulated, weighted", [
    ({}, 0.8125, 0.8125, 0.8311688303947449),
    ({"curve": "PR"}, 0.8846257925033569, 0.8558641672134399, 0.8295590877532959),
    ({"summation_method": "minoring"}, 0.7916666865348816, 0.7916666269302368, 0.8181818127632141),
    ({"summation_method": "majoring"}, 0.8333333730697632, 0.8333333134651184, 0.8441558480262756),
    ({"curve": "PR", "summation_method": "majoring"}, 0.910714328289032, 0.8818813562393188, 0.863101601600647),
    ({"num_thresholds": 5}, 0.875, 0.8333332538604736, 0.8831168413162231),
    ({"num_thresholds": 5, "curve": "PR"}, 0.9176995754241943, 0.8823226690292358, 0.8663381338119507),
])
def test_auc_matches_keras(kwargs, first, accumulated, weighted):
    m = M.AUC(**kwargs)
    m.update_state(YT, YP)
    np.testing.assert_allclose(float(m.result()), first, rtol=1e-6)
    m.update_state(YT[:4], YP[:4] * 0.5)  # the counts accumulate across updates
    np.testing.assert_allclose(float(m.result()), accumulated, rtol=1e-6)
    w = M.AUC(**kwargs)
    w.update_state(YT, YP, sample_weight=SW)
    np.testing.assert_allclose(float(w.result()), weighted, rtol=1e-6)
    m.reset_state()
    assert float(m.result()) == 0.0


def test_auc_config_thresholds_shapes_and_errors_match_keras():
    keras.backend.clear_session()
    m = M.AUC()
    assert m.get_config() == {"name": "auc", "dtype": "float32", "num_thresholds": 200, "curve": "ROC",
                              "summation_method": "interpolation", "multi_label": False, "num_labels": None,
                              "label_weights": None, "from_logits": False}
    assert M.AUC().name == "auc_1"
    np.testing.assert_allclose(M.AUC(num_thresholds=3).thresholds, [-1e-07, 0.5, 1.0000001])
    m.update_state(YT.reshape(5, 2), YP.reshape(5, 2))  # multi_label=False flattens
    assert float(m.result()) == pytest.approx(0.8125)
    for kwargs, message in [({"num_thresholds": 1}, "Argument `num_thresholds` must be an integer > 1. Received: "
                                                    "num_thresholds=1"),
                            ({"curve": "X"}, 'Invalid AUC curve value: "X". Expected values are ["PR", "ROC", '
                                             '"PRGAIN"]'),
                            ({"summation_method": "x"}, 'Invalid AUC summation method value: "x". Expected values '
                                                        'are ["interpolation", "majoring", "minoring"]')]:
        with pytest.raises(ValueError) as e:
            M.AUC(**kwargs)
        assert str(e.value) == message


@pytest.mark.parametrize("cls, default, then_weighted, at_03", [(M.Precision, 1.0, 1.0, 0.7142857313156128),
                                                                (M.Recall, 0.5, 0.47826087474823, 0.8333333134651184)])
def test_precision_recall_match_keras(cls, default, then_weighted, at_03):
    m = cls()
    assert float(m.result()) == 0.0
    m.update_state(YT, YP)  # 0.5 is not above the 0.5 threshold
    np.testing.assert_allclose(float(m.result()), default, rtol=1e-6)
    m.update_state(YT, YP, sample_weight=SW)
    np.testing.assert_allclose(float(m.result()), then_weighted, rtol=1e-6)
    t = cls(thresholds=0.3)
    t.update_state(YT, YP)
    np.testing.assert_allclose(float(t.result()), at_03, rtol=1e-6)
    assert m.get_config() == {"name": m.name, "dtype": "float32", "thresholds": None, "top_k": None, "class_id": None}


def test_auc_and_precision_in_fit_and_by_name():
    keras.backend.clear_session()
    assert isinstance(M.get("auc"), M.AUC) and isinstance(M.get("AUC"), M.AUC)
    assert isinstance(M.get("precision"), M.Precision) and isinstance(M.get("recall"), M.Recall)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile("sgd", "binary_crossentropy", metrics=[M.AUC(), M.Precision()])
    x = np.random.default_rng(0).random((8, 2)).astype("f4")
    y = (np.arange(8) % 2).astype("f4")
    h = model.fit(x, y, verbose=0)
    assert sorted(h.history) == ["auc_2", "loss", "precision_1"]
    m = M.AUC()
    m.update_state(y, model.predict(x, verbose=0)[:, 0])
    np.testing.assert_allclose(model.evaluate(x, y, verbose=0)[1], float(m.result()), rtol=1e-6)
