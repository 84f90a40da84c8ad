"""Regression, probabilistic, hinge, top-k, confusion-count, R2 and F-beta metrics against
TensorFlow 2.21 (Keras 3.15): running results over several update_state calls with and without
sample weights, names, configs, string identifiers in compile() and saving."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

M = keras.metrics
Y01 = np.array([[0., 1., 0.], [1., 0., 1.], [0., 0., 1.], [1., 1., 0.]], np.float32)
PROBS = np.array([[0.2, 0.7, 0.1], [0.6, 0.3, 0.9], [0.05, 0.15, 0.8], [0.9, 0.4, 0.3]], np.float32)
YREAL = np.array([[1.5, -2., 0.3], [0.2, 3., -1.], [2.5, 0.5, 0.5], [-1., 1., 2.]], np.float32)
PREAL = np.array([[1., -1.5, 0.8], [0.1, 2.2, -0.4], [3., 0.2, 0.1], [-0.5, 1.5, 1.2]], np.float32)
SW = np.array([1., 0.5, 0., 2.], np.float32)
ONE_HOT = np.eye(3, dtype=np.float32)[[1, 0, 2, 1]]
SPARSE = np.array([1, 0, 2, 1])


def _results(metric, updates):
    out = []
    for y, p, w in updates:
        metric.update_state(y, p, sample_weight=w)
        out.append(float(metric.result()))
    return out


# class, name, results after (Y01, PROBS), then (Y01, PROBS, SW), then the first two rows: TF 2.21
RUNNING = [
    (M.MeanSquaredError, "mean_squared_error", [0.07708333432674408, 0.09400000423192978, 0.08824561536312103]),
    (M.MeanAbsoluteError, "mean_absolute_error", [0.23333334922790527, 0.25777778029441833, 0.2526315748691559]),
    (M.RootMeanSquaredError, "root_mean_squared_error", [0.27763885259628296, 0.30659419298171997,
                                                         0.29706162214279175]),
    (M.MeanAbsolutePercentageError, "mean_absolute_percentage_error", [91666680.0, 95555568.0, 96491240.0]),
    (M.MeanSquaredLogarithmicError, "mean_squared_logarithmic_error", [0.03514117747545242, 0.04215231165289879,
                                                                      0.039944685995578766]),
    (M.CosineSimilarity, "cosine_similarity", [0.9428392648696899, 0.9309439063072205, 0.9346916079521179]),
    (M.LogCoshError, "logcosh", [0.03735663369297981, 0.04533592239022255, 0.04268577694892883]),
    (M.KLDivergence, "kl_divergence", [0.5544118881225586, 0.6567615270614624, 0.620901882648468]),
    (M.Poisson, "poisson", [0.6348046064376831, 0.6855878233909607, 0.6736346483230591]),
    (M.Hinge, "hinge", [0.7333332896232605, 0.7244444489479065, 0.7263157963752747]),
    (M.SquaredHinge, "squared_hinge", [0.7604166269302368, 0.7517777681350708, 0.754912257194519]),
    (M.CategoricalHinge, "categorical_hinge", [0.21250002086162567, 0.18000002205371857, 0.19473685324192047]),
    (M.BinaryCrossentropy, "binary_crossentropy", [0.2894434928894043, 0.32895928621292114, 0.3178815245628357]),
    (M.CategoricalCrossentropy, "categorical_crossentropy", [1.0833091735839844, 1.267881155014038,
                                                             1.2271097898483276]),
]


@pytest.mark.parametrize("cls,name,expected", RUNNING, ids=[c[0].__name__ for c in RUNNING])
def test_running_results_with_sample_weights(cls, name, expected):
    metric = cls()
    assert metric.name == name
    config = metric.get_config()
    assert {k: config[k] for k in ("name", "dtype")} == {"name": name, "dtype": "float32"}
    got = _results(metric, [(Y01, PROBS, None), (Y01, PROBS, SW), (Y01[:2], PROBS[:2], None)])
    np.testing.assert_allclose(got, expected, rtol=2e-6)
    metric.reset_state()
    assert float(metric.result()) == 0.0
    again = cls.from_config(config)
    assert type(again) is cls and again.get_config() == config


def test_crossentropy_and_top_k_metrics():
    scce = M.SparseCategoricalCrossentropy()
    assert scce.get_config() == {"name": "sparse_categorical_crossentropy", "dtype": "float32", "from_logits": False,
                                 "ignore_class": None, "axis": -1}
    np.testing.assert_allclose(_results(scce, [(SPARSE, PROBS, None), (SPARSE, PROBS, SW)]),
                               [0.766181230545044, 0.899105966091156], rtol=2e-6)
    cce = M.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)
    assert cce.get_config() == {"name": "categorical_crossentropy", "dtype": "float32", "from_logits": True,
                                "label_smoothing": 0.1, "axis": -1}
    assert _results(cce, [(ONE_HOT, PREAL, None)])[0] == pytest.approx(2.2060086727142334, rel=1e-6)
    bce = M.BinaryCrossentropy(from_logits=True, label_smoothing=0.1)
    assert bce.get_config() == {"name": "binary_crossentropy", "dtype": "float32", "from_logits": True,
                                "label_smoothing": 0.1}
    assert _results(bce, [(Y01, PREAL, None)])[0] == pytest.approx(1.2269304990768433, rel=1e-6)
    assert _results(M.CosineSimilarity(axis=0), [(YREAL, PREAL, None)])[0] == pytest.approx(0.9408153891563416)
    np.testing.assert_allclose(_results(M.RootMeanSquaredError(), [(YREAL, PREAL, None), (YREAL, PREAL, SW)]),
                               [0.5322906374931335, 0.555177628993988], rtol=2e-6)
    top2 = M.TopKCategoricalAccuracy(k=2)
    assert top2.name == "top_k_categorical_accuracy" and top2.get_config() == {
        "name": "top_k_categorical_accuracy", "dtype": "float32", "k": 2}
    np.testing.assert_allclose(_results(top2, [(ONE_HOT, PREAL, None), (ONE_HOT, PREAL, SW)]), [0.5, 0.6], rtol=1e-6)
    assert _results(M.TopKCategoricalAccuracy(), [(ONE_HOT, PREAL, None)]) == [1.0]
    top1 = M.SparseTopKCategoricalAccuracy(k=1)
    assert top1.get_config() == {"name": "sparse_top_k_categorical_accuracy", "dtype": "float32", "k": 1}
    np.testing.assert_allclose(_results(top1, [(SPARSE, PREAL, None), (SPARSE, PREAL, SW), (SPARSE[:, None], PREAL,
                                                                                           None)]),
                               [0.25, 0.4000000059604645, 0.3478260934352875], rtol=1e-6)
    assert M.top_k_categorical_accuracy(ONE_HOT, PREAL, k=2).numpy().tolist() == [0.0, 1.0, 0.0, 1.0]
    assert M.sparse_top_k_categorical_accuracy(SPARSE, PREAL, k=2).numpy().tolist() == [0.0, 1.0, 0.0, 1.0]


YB = np.array([[1, 0, 1, 1], [0, 1, 0, 0]], np.float32)
PB = np.array([[0.8, 0.6, 0.3, 0.51], [0.2, 0.9, 0.5, 0.1]], np.float32)
WB = np.array([[1, 2, 3, 4], [0.5, 0.5, 1, 1]], np.float32)


@pytest.mark.parametrize("cls,name,running,multi", [
    (M.TruePositives, "true_positives", [3.0, 8.5], [4.0, 3.0, 2.0]),
    (M.TrueNegatives, "true_negatives", [3.0, 5.5], [2.0, 3.0, 4.0]),
    (M.FalsePositives, "false_positives", [1.0, 3.0], [2.0, 1.0, 0.0]),
    (M.FalseNegatives, "false_negatives", [1.0, 4.0], [0.0, 1.0, 2.0]),
])
def test_confusion_counts(cls, name, running, multi):
    keras.backend.clear_session()
    metric = cls()
    assert metric.name == name and metric.get_config() == {"name": name, "dtype": "float32", "thresholds": None}
    assert [v.name.split(":")[0] for v in metric.variables] == ["accumulator"]
    assert _results(metric, [(YB, PB, None), (YB, PB, WB)]) == running
    several = cls(thresholds=[0.25, 0.5, 0.7])
    several.update_state(YB, PB)
    assert several.result().numpy().tolist() == multi
    assert several.get_config() == {"name": f"{name}_1", "dtype": "float32", "thresholds": [0.25, 0.5, 0.7]}


def test_r2_score():
    r2 = M.R2Score()
    assert r2.get_config() == {"name": "r2_score", "dtype": "float32", "class_aggregation": "uniform_average",
                               "num_regressors": 0}
    np.testing.assert_allclose(_results(r2, [(YREAL, PREAL, None), (YREAL[:2], PREAL[:2], None)]),
                               [0.8276378512382507, 0.820426881313324], rtol=2e-6)
    assert [v.name.split(":")[0] for v in r2.variables] == ["num_samples", "squared_sum", "sum", "residual", "count"]
    assert _results(M.R2Score(), [(YREAL, PREAL, SW)])[0] == pytest.approx(0.7765603065490723, rel=2e-6)
    vwa = M.R2Score(class_aggregation="variance_weighted_average")
    assert _results(vwa, [(YREAL, PREAL, None)])[0] == pytest.approx(0.8594896197319031, rel=2e-6)
    per_class = M.R2Score(class_aggregation=None)
    per_class.update_state(YREAL, PREAL)
    np.testing.assert_allclose(per_class.result().numpy(), [0.891117513179779, 0.9030541777610779,
                                                            0.6887417435646057], rtol=2e-6)
    # adjusted R2: Keras counts every element of y_true as a sample (12 here)
    assert _results(M.R2Score(num_regressors=1), [(YREAL, PREAL, None)])[0] == pytest.approx(0.8104016184806824,
                                                                                             rel=2e-6)
    assert _results(M.R2Score(), [(YREAL[:, :1], PREAL[:, :1], None)])[0] == pytest.approx(0.891117513179779,
                                                                                           rel=2e-6)
    with pytest.raises(ValueError, match="Invalid value for argument `class_aggregation`"):
        M.R2Score(class_aggregation="nope")
    with pytest.raises(ValueError, match="Expected a value >= 0. Received: num_regressors=-1"):
        M.R2Score(num_regressors=-1)


def test_f1_and_fbeta_scores():
    f1 = M.F1Score()
    f1.update_state(Y01, PROBS)
    np.testing.assert_allclose(f1.result().numpy(), [0.666666567325592, 0.666666567325592, 1.0], rtol=1e-6)
    assert f1.get_config() == {"name": "f1_score", "dtype": "float32", "average": None, "threshold": None}
    assert [v.name.split(":")[0] for v in f1.variables] == ["true_positives", "false_positives", "false_negatives",
                                                           "intermediate_weights"]
    macro = M.F1Score(average="macro", threshold=0.5)
    macro.update_state(Y01, PROBS)
    macro.update_state(Y01, PROBS, sample_weight=SW)
    assert float(macro.result()) == pytest.approx(0.8571428656578064, rel=1e-6)
    micro = M.F1Score(average="micro")
    micro.update_state(Y01, PROBS)
    assert float(micro.result()) == pytest.approx(0.7999999523162842, rel=1e-6)
    assert all(v.shape.rank == 0 for v in micro.variables)
    weighted = M.F1Score(average="weighted", threshold=0.4)
    weighted.update_state(Y01, PROBS)
    assert float(weighted.result()) == pytest.approx(0.8888888359069824, rel=1e-6)
    fb = M.FBetaScore(beta=2.0)
    fb.update_state(Y01, PROBS)
    np.testing.assert_allclose(fb.result().numpy(), [0.5555555820465088, 0.5555555820465088, 1.0], rtol=1e-6)
    assert fb.get_config() == {"name": "fbeta_score", "dtype": "float32", "average": None, "beta": 2.0,
                               "threshold": None}
    with pytest.raises(ValueError, match=r"Invalid `average` argument value. Expected one of: \{None, 'micro', "
                                         r"'macro', 'weighted'\}. Received: average=nope"):
        M.F1Score(average="nope")
    with pytest.raises(ValueError, match="It should verify 0 < threshold <= 1. Received: threshold=1.5"):
        M.F1Score(threshold=1.5)
    with pytest.raises(ValueError, match="It should be a Python float. Received: beta=0 of type"):
        M.FBetaScore(beta=0)


def test_metric_updates_in_a_tf_function_match_eager():
    eager, traced = M.RootMeanSquaredError(), M.RootMeanSquaredError()

    @tf.function
    def step(y, p, w):
        traced.update_state(y, p, sample_weight=w)
        return traced.result()

    for w in (np.ones(4, np.float32), SW):
        eager.update_state(YREAL, PREAL, sample_weight=w)
        assert float(step(YREAL, PREAL, w)) == pytest.approx(float(eager.result()), rel=1e-6)


def test_get_resolves_keras_names():
    for name, cls in (("mse", M.MeanSquaredError), ("mape", M.MeanAbsolutePercentageError),
                      ("msle", M.MeanSquaredLogarithmicError), ("hinge", M.Hinge), ("poisson", M.Poisson),
                      ("top_k_categorical_accuracy", M.TopKCategoricalAccuracy), ("RootMeanSquaredError",
                                                                                 M.RootMeanSquaredError),
                      ("root_mean_squared_error", M.RootMeanSquaredError), ("cosine_similarity", M.CosineSimilarity),
                      ("binary_crossentropy", M.BinaryCrossentropy)):
        metric = M.get(name)
        assert type(metric) is cls and metric.name == cls().name
    for refused in ("kld", "logcosh", "log_cosh"):  # Keras 3.15 refuses these as metric names
        with pytest.raises(ValueError, match=f"Could not interpret metric identifier: {refused}"):
            M.get(refused)


def test_compile_names_metrics_as_given_and_they_survive_saving(tmp_path):
    keras.utils.set_random_seed(0)
    x = np.random.RandomState(0).rand(8, 3).astype(np.float32)
    y = np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2, 0, 1]]
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
    model.compile("sgd", "categorical_crossentropy",
                  metrics=["mse", "RootMeanSquaredError", "top_k_categorical_accuracy", "auc", M.mape, "hinge",
                           M.F1Score(average="macro")])
    history = model.fit(x, y, verbose=0)
    assert sorted(history.history) == ["RootMeanSquaredError", "auc", "f1_score", "hinge", "loss",
                                       "mean_absolute_percentage_error", "mse", "top_k_categorical_accuracy"]
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    probs = model.predict(x, verbose=0)
    assert logs["mse"] == pytest.approx(float(np.mean((probs - y) ** 2)), rel=1e-5)
    assert logs["RootMeanSquaredError"] == pytest.approx(float(np.sqrt(np.mean((probs - y) ** 2))), rel=1e-5)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    again = loaded.evaluate(x, y, verbose=0, return_dict=True)
    assert again == pytest.approx(logs, rel=1e-6)


def test_mean_iou_and_iou():
    keras.backend.clear_session()
    miou = M.MeanIoU(num_classes=3)
    assert miou.get_config() == {"num_classes": 3, "name": "mean_io_u", "dtype": "int64", "ignore_class": None,
                                 "sparse_y_true": True, "sparse_y_pred": True, "axis": -1}
    yt, yp = np.array([[1, 0], [2, 1], [0, 2]]), np.array([[1, 2], [2, 0], [0, 2]])
    miou.update_state(yt, yp)
    assert float(miou.result()) == pytest.approx(0.5)
    miou.update_state([0, 0, 1], [0, 1, 1])
    assert float(miou.result()) == pytest.approx(0.5222222208976746, rel=1e-6)  # TF 2.21
    assert miou.variables[0].numpy().tolist() == [[2, 1, 1], [1, 2, 0], [0, 0, 2]]
    assert miou.variables[0].dtype == tf.int64
    ignoring = M.MeanIoU(num_classes=3, ignore_class=0)
    ignoring.update_state(yt, yp)
    assert float(ignoring.result()) == pytest.approx(0.5)
    assert ignoring.variables[0].numpy().tolist() == [[0, 0, 0], [1, 1, 0], [0, 0, 2]]
    with pytest.warns(UserWarning, match="You are passing weight as `float`, but dtype is `int`"):
        truncated = M.MeanIoU(num_classes=3)
        truncated.update_state([1, 0, 2, 1], [1, 2, 2, 0], sample_weight=[1., 2., 0.5, 1.])
    assert float(truncated.result()) == pytest.approx(0.1666666716337204, rel=1e-6)  # 0.5 truncated to 0
    floating = M.MeanIoU(num_classes=3, dtype="float32")
    floating.update_state([1, 0, 2, 1], [1, 2, 2, 0], sample_weight=[1., 2., 0.5, 1.])
    assert float(floating.result()) == pytest.approx(0.23333333432674408, rel=1e-6)
    probs = np.array([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]], np.float32)
    dense = M.MeanIoU(num_classes=3, sparse_y_pred=False)
    dense.update_state([1, 0, 2, 1], probs)
    assert float(dense.result()) == pytest.approx(0.6666666269302368, rel=1e-6)
    absent = M.MeanIoU(num_classes=4)  # a class never seen does not count
    absent.update_state([1, 0, 2, 1], [1, 2, 2, 0])
    assert float(absent.result()) == pytest.approx(0.3333333432674408, rel=1e-6)
    iou = M.IoU(num_classes=3, target_class_ids=[0, 2])
    iou.update_state(SPARSE, np.array([1, 2, 2, 0]))
    assert float(iou.result()) == pytest.approx(0.25)
    assert iou.get_config() == {"name": "io_u", "dtype": "int64", "num_classes": 3, "target_class_ids": [0, 2],
                                "ignore_class": None, "sparse_y_true": True, "sparse_y_pred": True, "axis": -1}
    one = M.IoU(num_classes=3, target_class_ids=[1])
    one.update_state([1, 0, 2, 1], [1, 2, 2, 0])
    assert float(one.result()) == pytest.approx(0.5, rel=1e-6)


def test_mean_counts_samples_not_elements():
    # Keras 3 averages each row first: [[1, 2], [3, 5]] then [1] -> (1.5 + 4 + 1) / 3
    mean = M.Mean()
    mean.update_state([[1., 2.], [3., 5.]])
    mean.update_state([1.])
    assert float(mean.result()) == pytest.approx(2.1666667461395264, rel=1e-6)  # TF 2.21
    weighted = M.Mean()
    weighted.update_state([[1., 2.], [3., 5.]], sample_weight=[1., 3.])
    weighted.update_state([[1., 1.]])
    assert float(weighted.result()) == pytest.approx(2.9000000953674316, rel=1e-6)
    total = M.Sum()
    total.update_state([1., 2., 3.])
    total.update_state([[1., 2.], [3., 4.]], sample_weight=[1., 0.5])
    assert float(total.result()) == 12.5 and total.get_config() == {"name": "sum", "dtype": "float32"}


def test_one_hot_iou_and_serialization():
    keras.backend.clear_session()
    probs = np.array([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]], np.float32)
    iou = M.OneHotIoU(num_classes=3, target_class_ids=[0, 1])
    iou.update_state(ONE_HOT, probs)
    assert float(iou.result()) == pytest.approx(0.5)
    assert iou.get_config() == {"num_classes": 3, "target_class_ids": [0, 1], "name": "one_hot_io_u",
                                "dtype": "int64", "ignore_class": None, "sparse_y_pred": False, "axis": -1}
    miou = M.OneHotMeanIoU(num_classes=3)
    miou.update_state(ONE_HOT, probs, sample_weight=[1, 2, 1, 1])
    assert float(miou.result()) == pytest.approx(0.7222221493721008, rel=1e-6)  # TF 2.21
    assert miou.get_config() == {"num_classes": 3, "name": "one_hot_mean_io_u", "dtype": "int64",
                                 "ignore_class": None, "sparse_y_pred": False, "axis": -1}
    assert M.serialize(M.TopKCategoricalAccuracy(k=2)) == {
        "module": "keras.metrics", "class_name": "TopKCategoricalAccuracy",
        "config": {"name": "top_k_categorical_accuracy", "dtype": "float32", "k": 2}, "registered_name": None}
    again = M.deserialize({"module": "keras.metrics", "class_name": "TopKCategoricalAccuracy",
                           "config": {"name": "t", "dtype": "float32", "k": 2}, "registered_name": None})
    assert again.get_config() == {"name": "t", "dtype": "float32", "k": 2}
    assert type(M.deserialize("mse")) is M.MeanSquaredError
