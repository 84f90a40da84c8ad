"""Adagrad, Adadelta, Adamax, Nadam, Ftrl and Lion against TensorFlow 2.21 (Keras 3.15): variable
values after each of three steps, slot variables (names, order, count), get_config, string names,
schedules, the compiled train step and saving with the optimizer state."""
import re
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

O = keras.optimizers
W0 = np.array([[0.5, -1.0], [1.5, 0.2]], np.float32)
B0 = np.array([0.1, -0.3], np.float32)
GRADS = [(np.array([[0.3, -0.2], [0.05, 0.4]], np.float32), np.array([-0.1, 0.2], np.float32)),
         (np.array([[-0.1, 0.5], [0.2, 0.0]], np.float32), np.array([0.3, -0.05], np.float32)),
         (np.array([[0.2, 0.2], [-0.3, 0.1]], np.float32), np.array([0.0, 0.1], np.float32))]

MAKERS = {
    "adagrad": lambda: O.Adagrad(learning_rate=0.1),
    "adadelta": lambda: O.Adadelta(learning_rate=1.0),
    "adamax": lambda: O.Adamax(learning_rate=0.1),
    "nadam": lambda: O.Nadam(learning_rate=0.1),
    "ftrl": lambda: O.Ftrl(learning_rate=0.1),
    "ftrl_regularized": lambda: O.Ftrl(learning_rate=0.1, l1_regularization_strength=0.01,
                                       l2_regularization_strength=0.02, l2_shrinkage_regularization_strength=0.03,
                                       beta=0.5, learning_rate_power=-0.6),
    "lion": lambda: O.Lion(learning_rate=0.1),
}
# [kernel, bias] after each step: TF 2.21
STEPS = {
    'adagrad': [[[[0.4311752915382385, -0.9465477466583252], [1.4843826293945312, 0.12155356258153915]], [0.13015112280845642, -0.35345223546028137]], [[[0.4535359740257263, -1.0266118049621582], [1.4314013719558716, 0.12155356258153915]], [0.06306909769773483, -0.34020692110061646]], [[[0.41271114349365234, -1.0571115016937256], [1.4936184883117676, 0.10230855643749237]], [0.06306909769773483, -0.36581429839134216]]],
    'adadelta': [[[[0.4985857903957367, -0.9985858201980591], [1.4985862970352173, 0.19858579337596893]], [0.10141407698392868, -0.3014141917228699]], [[[0.4992329776287079, -1.0004491806030273], [1.4966435432434082, 0.19858579337596893]], [0.09951206296682358, -0.30091729760169983]], [[[0.4980834126472473, -1.0014188289642334], [1.498945951461792, 0.19808320701122284]], [0.09951206296682358, -0.30184218287467957]]],
    'adamax': [[[[0.40000003576278687, -0.9000000953674316], [1.4000002145767212, 0.1000000461935997]], [0.1999998837709427, -0.3999999165534973]], [[[0.37014564871788025, -0.9336842894554138], [1.3355265855789185, 0.05258423089981079]], [0.16315779089927673, -0.43424466252326965]], [[[0.3266392648220062, -0.9697350859642029], [1.3453052043914795, 0.013391513377428055]], [0.13988730311393738, -0.47436171770095825]]],
    'nadam': [[[[0.39372122287750244, -0.8937212824821472], [1.3937214612960815, 0.09372124075889587]], [0.20627868175506592, -0.40627872943878174]], [[[0.41920289397239685, -0.9859102964401245], [1.2928540706634521, 0.08650998026132584]], [0.11162926256656647, -0.3884837031364441]], [[[0.35814929008483887, -1.0279096364974976], [1.3751640319824219, 0.053076326847076416]], [0.10593259334564209, -0.4400242567062378]]],
    'ftrl': [[[[0.06843715161085129, -0.10139351338148117], [0.0027882608119398355, -0.002481169532984495]], [0.034804876893758774, -0.09990597516298294]], [[[0.09079783409833908, -0.18145759403705597], [-0.05019303783774376, -0.002481169532984495]], [-0.03227716684341431, -0.08666064590215683]], [[[0.049973003566265106, -0.21195730566978455], [0.01202406920492649, -0.021726179867982864]], [-0.03227716684341431, -0.11226802319288254]]],
    'ftrl_regularized': [[[[0.028632452711462975, -0.035978443920612335], [-0.009719125926494598, -0.0013792149256914854]], [0.012829454615712166, -0.04197494313120842]], [[[0.039741151034832, -0.08240241557359695], [-0.03419759124517441, -0.0013705006567761302]], [-0.018905598670244217, -0.035528283566236496]], [[[0.01794993318617344, -0.10002785176038742], [-0.0013918629847466946, -0.011780270375311375]], [-0.018777387216687202, -0.04735433682799339]]],
    'lion': [[[[0.4000000059604645, -0.8999999761581421], [1.399999976158142, 0.10000000149011612]], [0.20000000298023224, -0.4000000059604645]], [[[0.5, -1.0], [1.2999999523162842, 0.0]], [0.10000000149011612, -0.30000001192092896]], [[[0.4000000059604645, -1.100000023841858], [1.399999976158142, -0.10000000149011612]], [0.0, -0.4000000059604645]]],
}
SLOTS = {"adagrad": ["accumulator"], "adadelta": ["accumulated_grad", "accumulated_delta_var"],
         "adamax": ["momentum", "norm"], "nadam": ["momentum", "velocity"], "ftrl": ["accumulator", "linear"],
         "ftrl_regularized": ["accumulator", "linear"], "lion": ["momentum"]}


def _run(opt, in_function=False):
    w, b = tf.Variable(W0, name="kernel"), tf.Variable(B0, name="bias")

    def step(gw, gb):
        opt.apply_gradients([(gw, w), (gb, b)])

    step = tf.function(step) if in_function else step
    out = []
    for gw, gb in GRADS:
        step(tf.constant(gw), tf.constant(gb))
        out.append([w.numpy(), b.numpy()])
    return out


@pytest.mark.parametrize("in_function", [False, True])
@pytest.mark.parametrize("which", sorted(MAKERS))
def test_three_steps_match_keras(which, in_function):
    got = _run(MAKERS[which](), in_function)
    for (w, b), (w_ref, b_ref) in zip(got, STEPS[which]):
        np.testing.assert_allclose(w, w_ref, rtol=2e-5, atol=2e-6)
        np.testing.assert_allclose(b, b_ref, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("which", sorted(MAKERS))
def test_slot_variables_as_keras_lists_them(which):
    keras.backend.clear_session()
    opt = MAKERS[which]()
    _run(opt)
    name = opt.name
    expected = ["iteration", "learning_rate"] + [f"{v}_0_{s}" for v in ("kernel", "bias") for s in SLOTS[which]]
    if which == "nadam":
        expected.append("variable")  # the running product of the momentum schedule
    assert [v.name for v in opt.variables] == expected
    assert [v.path for v in opt.variables] == [f"{name}/{n}" for n in expected]
    assert int(opt.iterations.numpy()) == 3


def test_initial_accumulators_and_nadam_product():
    opt = O.Adagrad()
    w = tf.Variable(W0)
    opt.build([w])
    np.testing.assert_array_equal(opt.variables[2].numpy(), np.full((2, 2), 0.1, np.float32))
    ftrl = O.Ftrl(initial_accumulator_value=0.3)
    ftrl.build([w])
    np.testing.assert_allclose(ftrl.variables[2].numpy(), np.full((2, 2), 0.3, np.float32))
    np.testing.assert_array_equal(ftrl.variables[3].numpy(), np.zeros((2, 2), np.float32))


COMMON = {"clipnorm": None, "clipvalue": None, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
          "global_clipnorm": None, "gradient_accumulation_steps": None, "loss_scale_factor": None, "use_ema": False,
          "weight_decay": None}


def test_get_config_keys_and_values():
    keras.backend.clear_session()
    assert O.Adagrad(learning_rate=0.1).get_config() == {**COMMON, "name": "adagrad",
                                                         "learning_rate": 0.10000000149011612,
                                                         "initial_accumulator_value": 0.1, "epsilon": 1e-07}
    assert O.Adadelta().get_config() == {**COMMON, "name": "adadelta", "learning_rate": 0.0010000000474974513,
                                         "rho": 0.95, "epsilon": 1e-07}
    assert O.Adamax().get_config() == {**COMMON, "name": "adamax", "learning_rate": 0.0010000000474974513,
                                       "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07}
    assert O.Nadam().get_config() == {**COMMON, "name": "nadam", "learning_rate": 0.0010000000474974513,
                                      "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07}
    assert O.Ftrl().get_config() == {**COMMON, "name": "ftrl", "learning_rate": 0.0010000000474974513,
                                     "learning_rate_power": -0.5, "initial_accumulator_value": 0.1,
                                     "l1_regularization_strength": 0.0, "l2_regularization_strength": 0.0,
                                     "l2_shrinkage_regularization_strength": 0.0, "beta": 0.0}
    assert O.Lion().get_config() == {**COMMON, "name": "lion", "learning_rate": 0.0010000000474974513,
                                     "beta_1": 0.9, "beta_2": 0.99}
    assert O.Nadam().name == "nadam_1"  # names are unique, as Keras makes them
    for cls in (O.Adagrad, O.Adadelta, O.Adamax, O.Nadam, O.Ftrl, O.Lion):
        again = cls.from_config(cls(learning_rate=0.5).get_config())
        assert type(again) is cls and again.get_config()["learning_rate"] == 0.5


def test_schedule_drives_the_new_rules():
    opt = O.Adagrad(learning_rate=O.schedules.ExponentialDecay(0.1, 2, 0.5))
    w = tf.Variable(W0)
    for gw, _ in GRADS:
        opt.apply_gradients([(tf.constant(gw), w)])
    np.testing.assert_allclose(w.numpy(), [[0.4265742599964142, -1.01841139793396],
                                           [1.4780277013778687, 0.11193105578422546]], rtol=1e-6)
    assert opt.get_config()["learning_rate"] == {
        "module": "keras.optimizers.schedules", "class_name": "ExponentialDecay", "config": {
            "initial_learning_rate": 0.1, "decay_steps": 2, "decay_rate": 0.5, "staircase": False,
            "name": "ExponentialDecay"}, "registered_name": None}


def test_bad_arguments():
    with pytest.raises(ValueError, match=r"Argument `beta_1` must be in the \[0, 1\] range. Otherwise, the "
                                         r"optimizer degenerates to SignSGD. Received: beta_1=0."):
        O.Lion(beta_1=0)
    for kw, wanted in ((dict(initial_accumulator_value=-1.), "positive or zero"),
                       (dict(learning_rate_power=0.5), "negative or zero"),
                       (dict(l1_regularization_strength=-1.), "positive or zero"),
                       (dict(l2_regularization_strength=-1.), "positive or zero"),
                       (dict(l2_shrinkage_regularization_strength=-1.), "positive or zero")):
        (arg, value), = kw.items()
        with pytest.raises(ValueError, match=f"`{arg}` needs to be {wanted}. Received: {arg}={value}."):
            O.Ftrl(**kw)


def test_names_and_fit_with_saved_state(tmp_path):
    assert [type(O.get(n)).__name__ for n in ("adagrad", "adadelta", "adamax", "nadam", "ftrl", "lion", "Nadam")] == \
        ["Adagrad", "Adadelta", "Adamax", "Nadam", "Ftrl", "Lion", "Nadam"]
    x = np.array([[0.1, 0.2], [0.3, -0.1], [0.5, 0.5], [-0.2, 0.4]], np.float32)
    y = np.array([[0.3], [0.1], [0.9], [0.2]], np.float32)
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(O.Nadam(learning_rate=0.05), "mse")
    model.fit(x, y, verbose=0, batch_size=2, epochs=2, shuffle=False)
    # TF 2.21, same data and order
    np.testing.assert_allclose(model.get_weights()[0], [[0.15147748589515686], [0.1525668352842331]], rtol=1e-5)
    np.testing.assert_allclose(model.get_weights()[1], [0.152763232588768], rtol=1e-5)
    names = [v.name for v in model.optimizer.variables]
    assert names[2:] == ["sequential_dense_kernel_momentum", "sequential_dense_kernel_velocity",
                         "sequential_dense_bias_momentum", "sequential_dense_bias_velocity", "variable"]
    assert float(model.optimizer.variables[-1].numpy()) == pytest.approx(0.05901813507080078, rel=1e-5)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert type(loaded.optimizer) is O.Nadam
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    for opt in ("adagrad", "adadelta", "adamax", "ftrl", "lion"):
        model.compile(opt, "mse")
        model.fit(x, y, verbose=0, epochs=1)
        model.save(tmp_path / f"{opt}.keras")
        assert type(keras.models.load_model(tmp_path / f"{opt}.keras").optimizer).__name__.lower() == opt


# Keras 3.15 (optimizers/base_optimizer.py's constructor): Keras 2's `decay=` warns and is ignored (any value
# but None, 0.0 included); any other unknown keyword is a ValueError naming it with its value.
@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "Adamax", "Adadelta", "Adagrad", "Adafactor", "Ftrl",
                                  "Lion", "Lamb", "Nadam", "RMSprop"])
def test_keras2_decay_warns_and_unknown_arguments_are_value_errors(name):
    cls = getattr(keras.optimizers, name)
    for decay in (0.5, 0.0):
        with pytest.warns(UserWarning, match=re.escape("Argument `decay` is no longer supported and will be ignored.")):
            opt = cls(decay=decay)
        assert "decay" not in opt.get_config()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cls(decay=None)
    with pytest.raises(ValueError, match=re.escape("Argument(s) not recognized: {'lr': 0.1}")):
        cls(lr=0.1)


def test_an_ignored_decay_leaves_the_updates_alone():
    def trained(**kwargs):
        v = tf.Variable([1.0, -2.0])
        opt = keras.optimizers.SGD(learning_rate=0.1, **kwargs)
        for _ in range(3):
            opt.apply_gradients([(tf.constant([0.5, 1.0]), v)])
        return v.numpy()
    with pytest.warns(UserWarning):
        np.testing.assert_array_equal(trained(decay=0.9), trained())
    np.testing.assert_allclose(trained(), [1.0 - 0.15, -2.0 - 0.3], rtol=1e-6)
