"""PrecisionAtRecall, RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity against
Keras 3.15 (TF 2.21). The data come from a fixed NumPy RandomState stream rebuilt here; each row is
what Keras gave for (metric, target value, num_thresholds): the result after one batch, then after a
second, weighted batch."""
import numpy as np
import pytest

import eagerflow as tf

M = tf.keras.metrics


def _data():
    rng = np.random.RandomState(3)
    yt = (rng.rand(50) > 0.6).astype("float32")
    yp = np.clip(yt * 0.3 + rng.rand(50) * 0.7, 0, 1).astype("float32")
    sw = rng.rand(50).astype("float32")
    yt2 = (rng.rand(20, 3) > 0.5).astype("float32")
    yp2 = rng.rand(20, 3).astype("float32")
    return yt, yp, sw, yt2, yp2


ROWS = [
    ('PrecisionAtRecall', 0.0, 200, 1.0, 1.0),
    ('PrecisionAtRecall', 0.0, 1, 0.529411792755127, 0.5504593849182129),
    ('PrecisionAtRecall', 0.0, 7, 1.0, 1.0),
    ('PrecisionAtRecall', 0.3, 200, 1.0, 1.0),
    ('PrecisionAtRecall', 0.3, 1, 0.529411792755127, 0.5504593849182129),
    ('PrecisionAtRecall', 0.3, 7, 0.8333333134651184, 0.8333333134651184),
    ('PrecisionAtRecall', 0.5, 200, 0.692307710647583, 0.7221173644065857),
    ('PrecisionAtRecall', 0.5, 1, 0.529411792755127, 0.5504593849182129),
    ('PrecisionAtRecall', 0.5, 7, 0.529411792755127, 0.5504593849182129),
    ('PrecisionAtRecall', 0.8, 200, 0.4000000059604645, 0.41764965653419495),
    ('PrecisionAtRecall', 0.8, 1, 0.0, 0.0),
    ('PrecisionAtRecall', 0.8, 7, 0.3888888955116272, 0.3912736475467682),
    ('PrecisionAtRecall', 1.0, 200, 0.4000000059604645, 0.4010069668292999),
    ('PrecisionAtRecall', 1.0, 1, 0.0, 0.0),
    ('PrecisionAtRecall', 1.0, 7, 0.3888888955116272, 0.3912736475467682),
    ('RecallAtPrecision', 0.0, 200, 1.0, 1.0),
    ('RecallAtPrecision', 0.0, 1, 0.6428571343421936, 0.6448147296905518),
    ('RecallAtPrecision', 0.0, 7, 1.0, 1.0),
    ('RecallAtPrecision', 0.3, 200, 1.0, 1.0),
    ('RecallAtPrecision', 0.3, 1, 0.6428571343421936, 0.6448147296905518),
    ('RecallAtPrecision', 0.3, 7, 1.0, 1.0),
    ('RecallAtPrecision', 0.5, 200, 0.6428571343421936, 0.6448147296905518),
    ('RecallAtPrecision', 0.5, 1, 0.6428571343421936, 0.6448147296905518),
    ('RecallAtPrecision', 0.5, 7, 0.6428571343421936, 0.6448147296905518),
    ('RecallAtPrecision', 0.8, 200, 0.3571428656578064, 0.31016916036605835),
    ('RecallAtPrecision', 0.8, 1, 0.0, 0.0),
    ('RecallAtPrecision', 0.8, 7, 0.3571428656578064, 0.31016916036605835),
    ('RecallAtPrecision', 1.0, 200, 0.3571428656578064, 0.31016916036605835),
    ('RecallAtPrecision', 1.0, 1, 0.0, 0.0),
    ('RecallAtPrecision', 1.0, 7, 0.1428571492433548, 0.12406766414642334),
    ('SensitivityAtSpecificity', 0.0, 200, 1.0, 1.0),
    ('SensitivityAtSpecificity', 0.0, 1, 0.6428571343421936, 0.6448147296905518),
    ('SensitivityAtSpecificity', 0.0, 7, 1.0, 1.0),
    ('SensitivityAtSpecificity', 0.3, 200, 1.0, 1.0),
    ('SensitivityAtSpecificity', 0.3, 1, 0.6428571343421936, 0.6448147296905518),
    ('SensitivityAtSpecificity', 0.3, 7, 1.0, 1.0),
    ('SensitivityAtSpecificity', 0.5, 200, 0.7857142686843872, 0.813898503780365),
    ('SensitivityAtSpecificity', 0.5, 1, 0.6428571343421936, 0.6448147296905518),
    ('SensitivityAtSpecificity', 0.5, 7, 0.6428571343421936, 0.6448147296905518),
    ('SensitivityAtSpecificity', 0.8, 200, 0.6428571343421936, 0.6448147296905518),
    ('SensitivityAtSpecificity', 0.8, 1, 0.0, 0.0),
    ('SensitivityAtSpecificity', 0.8, 7, 0.3571428656578064, 0.31016916036605835),
    ('SensitivityAtSpecificity', 1.0, 200, 0.3571428656578064, 0.31016916036605835),
    ('SensitivityAtSpecificity', 1.0, 1, 0.0, 0.0),
    ('SensitivityAtSpecificity', 1.0, 7, 0.1428571492433548, 0.12406766414642334),
    ('SpecificityAtSensitivity', 0.0, 200, 1.0, 1.0),
    ('SpecificityAtSensitivity', 0.0, 1, 0.7777777910232544, 0.7890613675117493),
    ('SpecificityAtSensitivity', 0.0, 7, 1.0, 1.0),
    ('SpecificityAtSensitivity', 0.3, 200, 1.0, 1.0),
    ('SpecificityAtSensitivity', 0.3, 1, 0.7777777910232544, 0.7890613675117493),
    ('SpecificityAtSensitivity', 0.3, 7, 0.9722222089767456, 0.9751511812210083),
    ('SpecificityAtSensitivity', 0.5, 200, 0.8888888955116272, 0.9006046056747437),
    ('SpecificityAtSensitivity', 0.5, 1, 0.7777777910232544, 0.7890613675117493),
    ('SpecificityAtSensitivity', 0.5, 7, 0.7777777910232544, 0.7890613079071045),
    ('SpecificityAtSensitivity', 0.8, 200, 0.4722222089767456, 0.5454099178314209),
    ('SpecificityAtSensitivity', 0.8, 1, 0.0, 0.0),
    ('SpecificityAtSensitivity', 0.8, 7, 0.3888888955116272, 0.3768121004104614),
    ('SpecificityAtSensitivity', 1.0, 200, 0.4166666567325592, 0.4016609191894531),
    ('SpecificityAtSensitivity', 1.0, 1, 0.0, 0.0),
    ('SpecificityAtSensitivity', 1.0, 7, 0.3888888955116272, 0.3768121004104614),
]
# (class_id=1 on the (20, 3) data, all three columns pooled without class_id), target 0.5
TWO_D = {
    'PrecisionAtRecall': (0.6666666865348816, 0.5348837375640869),
    'RecallAtPrecision': (1.0, 0.931034505367279),
    'SensitivityAtSpecificity': (0.7272727489471436, 0.4137931168079376),
    'SpecificityAtSensitivity': (0.6666666865348816, 0.3870967626571655),
}
ARG = {'PrecisionAtRecall': 'recall', 'RecallAtPrecision': 'precision', 'SensitivityAtSpecificity': 'specificity', 'SpecificityAtSensitivity': 'sensitivity'}


@pytest.mark.parametrize("name,value,num_thresholds,first,second", ROWS)
def test_results_match_keras3(name, value, num_thresholds, first, second):
    yt, yp, sw, _, _ = _data()
    metric = getattr(M, name)(value, num_thresholds=num_thresholds)
    metric.update_state(yt, yp)
    assert float(metric.result()) == pytest.approx(first, abs=1e-6)
    metric.update_state(yt[:10], yp[:10], sample_weight=sw[:10])
    assert float(metric.result()) == pytest.approx(second, abs=1e-6)


@pytest.mark.parametrize("name", list(TWO_D))
def test_class_id_and_pooled_columns(name):
    _, _, _, yt2, yp2 = _data()
    by_class = getattr(M, name)(0.5, class_id=1)
    by_class.update_state(yt2, yp2)
    pooled = getattr(M, name)(0.5)
    pooled.update_state(yt2, yp2)
    assert (float(by_class.result()), float(pooled.result())) == pytest.approx(TWO_D[name], abs=1e-6)


@pytest.mark.parametrize("name", list(TWO_D))
def test_config_thresholds_names_and_errors(name):
    cls = getattr(M, name)
    metric = cls(0.5, name="x")
    assert metric.get_config() == {"name": "x", "dtype": "float32", "class_id": None, "num_thresholds": 200,
                                   ARG[name]: 0.5}
    assert float(metric.result()) == 0.0 and metric._direction == "up"
    assert cls(0.5, num_thresholds=5).thresholds == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert cls.from_config(metric.get_config()).get_config() == metric.get_config()
    assert [v.path for v in metric.variables] == ["x/true_positives", "x/false_positives", "x/true_negatives",
                                                  "x/false_negatives"]
    for bad in (1.5, -0.1):
        with pytest.raises(ValueError, match=fr"Argument `{ARG[name]}` must be in the range \[0, 1\]. "
                                             fr"Received: {ARG[name]}={bad}"):
            cls(bad)
    with pytest.raises(ValueError, match="Argument `num_thresholds` must be an integer > 0. Received: "
                                         "num_thresholds=0"):
        cls(0.5, num_thresholds=0)


def test_in_compiled_fit():
    """The metric updates inside fit's traced step and matches a direct computation."""
    yt, yp, _, _, _ = _data()
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    metric = M.PrecisionAtRecall(0.5, name="p_at_r")
    model.compile("sgd", "binary_crossentropy", metrics=[metric])
    x = yp.reshape(-1, 1)
    logs = model.evaluate(x, yt, verbose=0, return_dict=True, batch_size=16)
    direct = M.PrecisionAtRecall(0.5)
    direct.update_state(yt, model.predict(x, verbose=0))
    assert logs["p_at_r"] == pytest.approx(float(direct.result()), abs=1e-6)
