"""keras.optimizers.schedules against Keras 3.15 (its values at these steps, configs and messages
written in), eagerly, in a tf.function, and inside an optimizer."""
import numpy as np
import pytest

import eagerflow as tf

S = tf.keras.optimizers.schedules
STEPS = (0, 1, 3, 5, 6, 10, 11, 17, 25, 40)
# Keras 3.15: [round(float(schedule(step)), 6) for step in STEPS]
CASES = [
    (lambda: S.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]), [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.1, 0.1, 0.1, 0.1]),
    (lambda: S.PolynomialDecay(0.1, 10),
     [0.1, 0.09001, 0.07003, 0.05005, 0.04006, 0.0001, 0.0001, 0.0001, 0.0001, 0.0001]),
    (lambda: S.PolynomialDecay(0.1, 10, end_learning_rate=0.01, power=2.0, cycle=True),
     [0.1, 0.0829, 0.0541, 0.0325, 0.0244, 0.01, 0.028225, 0.012025, 0.0125, 0.01]),
    (lambda: S.InverseTimeDecay(0.1, 4, 0.5),
     [0.1, 0.088889, 0.072727, 0.061538, 0.057143, 0.044444, 0.042105, 0.032, 0.024242, 0.016667]),
    (lambda: S.InverseTimeDecay(0.1, 4, 0.5, staircase=True),
     [0.1, 0.1, 0.1, 0.066667, 0.066667, 0.05, 0.05, 0.033333, 0.025, 0.016667]),
    (lambda: S.CosineDecay(1.0, 10, alpha=0.1), [1.0, 0.977975, 0.814503, 0.55, 0.410942, 0.1, 0.1, 0.1, 0.1, 0.1]),
    (lambda: S.CosineDecay(0.0, 10, alpha=0.1, warmup_target=1.0, warmup_steps=5),
     [0.0, 0.2, 0.6, 1.0, 0.977975, 0.55, 0.410942, 0.1, 0.1, 0.1]),
    (lambda: S.CosineDecayRestarts(1.0, 4),
     [1.0, 0.853553, 0.146447, 0.96194, 0.853553, 0.146447, 0.03806, 0.777785, 0.084265, 0.691342]),
    (lambda: S.CosineDecayRestarts(1.0, 4, t_mul=1.0, m_mul=0.5, alpha=0.1),
     [1.0, 0.868198, 0.231802, 0.484099, 0.325, 0.2125, 0.13295, 0.148012, 0.112003, 0.100879]),
]


@pytest.mark.parametrize("make, want", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_values_as_keras(make, want):
    schedule = make()
    np.testing.assert_allclose([float(schedule(s)) for s in STEPS], want, atol=2e-6)
    traced = tf.function(lambda s: schedule(s))
    np.testing.assert_allclose([float(traced(tf.constant(s, tf.int64))) for s in STEPS], want, atol=2e-6)
    assert schedule(3).dtype == tf.float32


def test_configs_and_names_as_keras():
    assert S.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1]).get_config() == {
        "boundaries": [5, 10], "values": [1.0, 0.5, 0.1], "name": "PiecewiseConstant"}
    assert S.PolynomialDecay(0.1, 10).get_config() == {
        "initial_learning_rate": 0.1, "decay_steps": 10, "end_learning_rate": 0.0001, "power": 1.0, "cycle": False,
        "name": "PolynomialDecay"}
    assert S.InverseTimeDecay(0.1, 4, 0.5).get_config() == {
        "initial_learning_rate": 0.1, "decay_steps": 4, "decay_rate": 0.5, "staircase": False,
        "name": "InverseTimeDecay"}
    assert S.CosineDecay(1.0, 10).get_config() == {
        "initial_learning_rate": 1.0, "decay_steps": 10, "alpha": 0.0, "name": "CosineDecay", "warmup_target": None,
        "warmup_steps": 0}
    assert S.CosineDecayRestarts(1.0, 4).get_config() == {
        "initial_learning_rate": 1.0, "first_decay_steps": 4, "t_mul": 2.0, "m_mul": 1.0, "alpha": 0.0,
        "name": "SGDRDecay"}
    assert sorted(n for n in dir(S) if not n.startswith("_")) == [
        "CosineDecay", "CosineDecayRestarts", "ExponentialDecay", "InverseTimeDecay", "LearningRateSchedule",
        "PiecewiseConstantDecay", "PolynomialDecay", "deserialize", "serialize"]


def test_bad_boundaries_as_keras():
    with pytest.raises(ValueError, match=r"The length of boundaries should be 1 less than the length of values\. "
                                         r"Received: boundaries=\[5, 10\] of length 2, and values=\[1\.0, 0\.5\] of "
                                         r"length 2\."):
        S.PiecewiseConstantDecay([5, 10], [1.0, 0.5])


def test_serialize_round_trip_and_optimizer_config():
    assert S.serialize(S.PolynomialDecay(0.1, 10)) == {
        "module": "keras.optimizers.schedules", "class_name": "PolynomialDecay",
        "config": {"initial_learning_rate": 0.1, "decay_steps": 10, "end_learning_rate": 0.0001, "power": 1.0,
                   "cycle": False, "name": "PolynomialDecay"}, "registered_name": None}
    assert type(S.deserialize(S.serialize(S.CosineDecay(1.0, 10)))) is S.CosineDecay
    opt = tf.keras.optimizers.SGD(S.CosineDecay(1.0, 10))
    config = opt.get_config()
    assert config["learning_rate"]["class_name"] == "CosineDecay"
    again = tf.keras.optimizers.SGD.from_config(config)
    assert type(again._schedule) is S.CosineDecay


def test_a_schedule_drives_the_optimizer_steps():
    """SGD on f(w) = w (gradient 1) moves w by the schedule's rate at each iteration: 1.0, 1.0, 0.5, 0.5."""
    w = tf.Variable(0.0)
    opt = tf.keras.optimizers.SGD(S.PiecewiseConstantDecay([1], [1.0, 0.5]))
    seen = []
    for _ in range(4):
        before = float(w.numpy())
        opt.apply_gradients([(tf.constant(1.0), w)])
        seen.append(round(before - float(w.numpy()), 6))
    assert seen == [1.0, 1.0, 0.5, 0.5]
