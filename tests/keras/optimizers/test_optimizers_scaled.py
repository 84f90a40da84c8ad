"""Adafactor, Lamb and LossScaleOptimizer against Keras 3.15 (TF 2.21).

Variables of four ranks (3x4, 4, 2x3x2, scalar) and five gradient steps come from a fixed NumPy
RandomState stream rebuilt here; EXPECTED holds the variables Keras 3.15 produced after the first
and the fifth step. The LossScaleOptimizer trace is Keras' (variable, dynamic_scale, step_counter,
iterations) after each of a sequence of finite / inf / NaN gradients.
"""
import json

import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras
SHAPES = [(3, 4), (4,), (2, 3, 2), ()]


def _data():
    rng = np.random.RandomState(5)
    init = [np.asarray(rng.randn(*s), dtype="float32") for s in SHAPES]
    grads = [[np.asarray(rng.randn(*s), dtype="float32") for s in SHAPES] for _ in range(5)]
    return init, grads


MAKERS = {
    "adafactor": lambda: keras.optimizers.Adafactor(learning_rate=0.1),
    "adafactor_norel": lambda: keras.optimizers.Adafactor(learning_rate=0.5, relative_step=False, clip_threshold=0.5,
                                                          beta_2_decay=-0.5),
    "adafactor_default": lambda: keras.optimizers.Adafactor(),
    "lamb": lambda: keras.optimizers.Lamb(learning_rate=0.1),
    "lamb_wd": lambda: keras.optimizers.Lamb(learning_rate=0.05, beta_1=0.8, beta_2=0.9, epsilon=1e-4, weight_decay=0.1),
}
EXPECTED = json.loads('''
{"adafactor": {"step1": [[[0.45359912514686584, -0.48643553256988525, 2.4889419078826904, -0.24942459166049957], [0.14522559940814972, 1.6134413480758667, -0.9784928560256958, -0.8484501242637634], [0.11115725338459015, -0.32151344418525696, -1.2632907629013062, -0.1402956247329712]], [-0.26194363832473755, 0.5065862536430359, -1.7616738080978394, -0.7970643639564514], [[[1.0290910005569458, 1.7763099670410156], [-1.6460057497024536, 0.7137446999549866], [-0.9690293669700623, -0.9790400862693787]], [[-0.8955804705619812, -0.2894720733165741], [1.1056100130081177, 0.7990478873252869], [-0.08264343440532684, -0.35081639885902405]]], 0.002959958743304014], "step5": [[[0.25252047181129456, -0.5205029249191284, 2.705681562423706, -0.5303352475166321], [0.3242744207382202, 1.6253952980041504, -0.9622666835784912, -0.44372135400772095], [0.04534725472331047, -0.23175455629825592, -1.1764432191848755, -0.2828352451324463]], [-0.0762118250131607, 0.41176852583885193, -1.8410009145736694, -0.41424083709716797], [[[1.037280559539795, 1.8836169242858887], [-2.0478339195251465, 0.7855967283248901], [-1.203274130821228, -0.8456012010574341]], [[-1.2332621812820435, -0.4155753552913666], [1.0639399290084839, 0.3807796239852905], [-0.1769864857196808, -0.3950931429862976]]], 0.0035562976263463497]}, "adafactor_norel": {"step1": [[[0.4721565544605255, -0.7197835445404053, 2.576198101043701, -0.24542328715324402], [0.19864924252033234, 1.6598817110061646, -1.082383632659912, -1.2336703538894653], [-0.0035116970539093018, -0.3089786767959595, -1.3690799474716187, -0.04342427849769592]], [-0.11661562323570251, 0.36125823855400085, -1.9070018529891968, -0.9423923492431641], [[[0.845641016960144, 1.654778242111206], [-1.8482449054718018, 0.8170904517173767], [-0.9516615867614746, -1.1623204946517944]], [[-0.9311323761940002, -0.08991828560829163], [1.2693653106689453, 0.9289877414703369], [-0.2953249216079712, -0.33207467198371887]]], 0.0024666322860866785], "step5": [[[-0.1009606420993805, -0.7957109808921814, 3.285140037536621, -0.9989285469055176], [0.6784710884094238, 1.7354340553283691, -1.002906084060669, -0.1718636453151703], [-0.20002645254135132, -0.015775486826896667, -1.1376547813415527, -0.39605146646499634]], [0.44289371371269226, 0.07141879200935364, -2.066800594329834, 0.2710183262825012], [[[0.7050154209136963, 1.9052914381027222], [-2.934748649597168, 1.1359540224075317], [-1.6058404445648193, -0.7073590755462646]], [[-2.021284341812134, -0.4123207926750183], [1.3544211387634277, -0.2636467516422272], [-0.4681464433670044, -0.6397361755371094]]], 0.003956757951527834]}, "adafactor_default": {"step1": [[[0.4413512051105499, -0.3324258029460907, 2.4313528537750244, -0.2520654499530792], [0.10996600240468979, 1.582790732383728, -0.9099249839782715, -0.5942047834396362], [0.186838760972023, -0.32978639006614685, -1.1934698820114136, -0.20423069596290588]], [-0.35786011815071106, 0.602502703666687, -1.6657572984695435, -0.7011479139328003], [[[1.1501680612564087, 1.8565207719802856], [-1.5125278234481812, 0.645536482334137], [-0.9804920554161072, -0.8580750226974487]], [[-0.8721161484718323, -0.42117759585380554], [0.997531533241272, 0.7132875919342041], [0.05772636830806732, -0.36318594217300415]]], 0.003285554237663746], "step5": [[[0.43948081135749817, -0.3327425718307495, 2.4333479404449463, -0.25471025705337524], [0.11162327229976654, 1.5830051898956299, -0.9097968339920044, -0.5905036330223083], [0.18620894849300385, -0.32896140217781067, -1.192640781402588, -0.20555830001831055]], [-0.35605698823928833, 0.6016545295715332, -1.6665164232254028, -0.6974478960037231], [[[1.150299072265625, 1.8575671911239624], [-1.516349196434021, 0.646228015422821], [-0.9826381802558899, -0.8568143248558044]], [[-0.8753165602684021, -0.4223707616329193], [0.997086226940155, 0.7093328833580017], [0.05679459497332573, -0.36361241340637207]]], 0.003291900036856532]}, "lamb": {"step1": [[[0.5394536256790161, -0.4290963411331177, 2.5289974212646484, -0.15386748313903809], [0.20783597230911255, 1.6807072162628174, -1.0074585676193237, -0.689862847328186], [0.0893770158290863, -0.23164385557174683, -1.2909908294677734, -0.10665033012628555]], [-0.26194360852241516, 0.5065863132476807, -1.7616738080978394, -0.7970643639564514], [[[1.0524580478668213, 1.7583980560302734], [-1.6101125478744507, 0.7437804937362671], [-0.8816749453544617, -0.9557861089706421]], [[-0.9708120822906494, -0.323574960231781], [1.0953727960586548, 0.8113542795181274], [-0.039788730442523956, -0.26437798142433167]]], 0.002959958743304014], "step5": [[[0.1311807483434677, -0.7479127645492554, 3.2269840240478516, -0.5976147651672363], [0.4655780792236328, 1.81178617477417, -1.1071608066558838, -0.36818113923072815], [-0.29997965693473816, 0.3364236354827881, -1.0637869834899902, -0.23931428790092468]], [0.16093206405639648, 0.11269760131835938, -2.1353654861450195, -0.3923490643501282], [[[0.9556670188903809, 1.8335827589035034], [-2.365670680999756, 1.037658452987671], [-1.1240538358688354, -1.034058690071106]], [[-1.5937840938568115, -0.26894500851631165], [1.0358973741531372, 0.36266183853149414], [-0.5677236914634705, -0.19868522882461548]]], 0.0029010556172579527]}, "lamb_wd": {"step1": [[[0.4879341125488281, -0.3781685531139374, 2.4675683975219727, -0.20265047252178192], [0.1579723358154297, 1.62343430519104, -0.953625500202179, -0.6376126408576965], [0.13770993053913116, -0.2793179750442505, -1.2357566356658936, -0.1549091935157776]], [-0.3088220953941345, 0.5522792339324951, -1.7046737670898438, -0.7448830604553223], [[[1.096403956413269, 1.7988147735595703], [-1.5528476238250732, 0.6908425092697144], [-0.9265198707580566, -0.9017992615699768]], [[-0.9167313575744629, -0.37116527557373047], [1.0406843423843384, 0.7580845952033997], [0.009618908166885376, -0.31230634450912476]]], 0.0031087789684534073], "step5": [[[0.2901049256324768, -0.5057194232940674, 2.7256596088409424, -0.3870142996311188], [0.2704777717590332, 1.6342835426330566, -0.9690353274345398, -0.4709315001964569], [-0.02112468332052231, -0.022367317229509354, -1.10304856300354, -0.2170780450105667]], [-0.10926438868045807, 0.36690211296081543, -1.8349114656448364, -0.529973566532135], [[[1.0389432907104492, 1.8096966743469238], [-1.866149663925171, 0.8074079155921936], [-1.0238035917282104, -0.9015381336212158]], [[-1.185181736946106, -0.35877886414527893], [0.9859665632247925, 0.521381676197052], [-0.2187916338443756, -0.2784564197063446]]], 0.0033509943168610334]}}
''')


@pytest.mark.parametrize("name", list(MAKERS))
def test_update_rule_matches_keras3(name):
    init, grads = _data()
    variables = [tf.Variable(a) for a in init]
    optimizer = MAKERS[name]()
    for step, step_grads in enumerate(grads):
        optimizer.apply(step_grads, variables)
        if step in (0, 4):
            for got, want in zip(variables, EXPECTED[name][f"step{step + 1}"]):
                np.testing.assert_allclose(got.numpy(), np.asarray(want, np.float32), rtol=1e-5, atol=1e-6)


def test_update_rule_under_tf_function_matches_eager():
    init, grads = _data()
    for name in ("adafactor", "lamb"):
        eager_vars = [tf.Variable(a) for a in init]
        graph_vars = [tf.Variable(a) for a in init]
        eager_opt, graph_opt = MAKERS[name](), MAKERS[name]()
        graph_opt.build(graph_vars)
        step = tf.function(lambda *g: graph_opt.apply(list(g), graph_vars))
        for step_grads in grads:
            eager_opt.apply(step_grads, eager_vars)
            step(*[tf.constant(g) for g in step_grads])
        for a, b in zip(eager_vars, graph_vars):
            np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-7)


def test_lamb_trust_ratio_is_one_for_a_zero_variable():
    v = tf.Variable(np.zeros((2, 2), np.float32))
    keras.optimizers.Lamb(learning_rate=0.1).apply([np.ones((2, 2), np.float32)], [v])
    np.testing.assert_allclose(v.numpy(), np.full((2, 2), -0.0999993234872818, np.float32), rtol=1e-6)


def test_configs_and_names_match_keras3():
    assert keras.optimizers.Adafactor(learning_rate=0.5, relative_step=False, clip_threshold=0.5, beta_2_decay=-0.5,
                                      name="a").get_config() == {
        "name": "a", "learning_rate": 0.5, "weight_decay": None, "clipnorm": None, "global_clipnorm": None,
        "clipvalue": None, "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
        "loss_scale_factor": None, "gradient_accumulation_steps": None, "beta_2_decay": -0.5, "epsilon_1": 1e-30,
        "epsilon_2": 0.001, "clip_threshold": 0.5, "relative_step": False}
    config = keras.optimizers.Lamb(learning_rate=0.05, beta_1=0.8, beta_2=0.9, epsilon=1e-4, weight_decay=0.1,
                                   name="l").get_config()
    assert config == {"name": "l", "learning_rate": 0.05000000074505806, "weight_decay": 0.1, "clipnorm": None,
                      "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
                      "ema_overwrite_frequency": None, "loss_scale_factor": None,
                      "gradient_accumulation_steps": None, "beta_1": 0.8, "beta_2": 0.9, "epsilon": 0.0001}
    assert keras.optimizers.get("lamb").__class__ is keras.optimizers.Lamb
    # Keras 3.15: default names are the snake-case class name numbered per session; a given name is kept
    keras.backend.clear_session()
    names = [keras.optimizers.SGD().name, keras.optimizers.SGD().name, keras.optimizers.Adam().name,
             keras.optimizers.Adam(name="x").name, keras.optimizers.Adam(name="x").name,
             keras.optimizers.AdamW().name, keras.optimizers.Ftrl().name, keras.optimizers.Adafactor().name,
             keras.optimizers.Lamb().name, keras.optimizers.RMSprop().name, keras.optimizers.Adam().name]
    assert names == ["sgd", "sgd_1", "adam", "x", "x", "adam_w", "ftrl", "adafactor", "lamb", "rm_sprop", "adam_1"]


LSO_GRADS = [[8.0, 16.0], [np.inf, 1.0], [4.0, 4.0], [2.0, 2.0], [np.nan, 0.0], [8.0, 8.0], [8.0, 8.0]]
LSO_TRACE = [[[0.8999999761581421, 1.7999999523162842], 8.0, 1, 1], [[0.8999999761581421, 1.7999999523162842], 4.0, 0, 1], [[0.7999999523162842, 1.6999999284744263], 4.0, 1, 2], [[0.7499999403953552, 1.649999976158142], 8.0, 0, 3], [[0.7499999403953552, 1.649999976158142], 4.0, 0, 3], [[0.5499999523162842, 1.4499999284744263], 4.0, 1, 4], [[0.34999996423721313, 1.2499998807907104], 8.0, 0, 5]]


@pytest.mark.parametrize("traced", [False, True])
def test_loss_scale_optimizer_trace_matches_keras3(traced):
    lso = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(learning_rate=0.1), initial_scale=8.0,
                                              dynamic_growth_steps=2)
    v = tf.Variable(np.array([1.0, 2.0], np.float32))
    apply = lambda g: lso.apply([g], [v])  # noqa: E731
    if traced:
        lso.build([v])
        apply = tf.function(apply)
    for g, (value, scale, counter, iterations) in zip(LSO_GRADS, LSO_TRACE):
        apply(tf.constant(np.array(g, np.float32)))
        np.testing.assert_allclose(v.numpy(), value, rtol=1e-6)
        assert (float(lso.dynamic_scale.numpy()), int(lso.step_counter.numpy()),
                int(lso.iterations.numpy())) == (scale, counter, iterations)


def test_loss_scale_optimizer_config_variables_and_errors():
    lso = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(learning_rate=0.1, name="sgd"), initial_scale=8.0,
                                              dynamic_growth_steps=2, name="loss_scale_optimizer")
    config = lso.get_config()
    assert config == {"name": "loss_scale_optimizer", "inner_optimizer": {
        "module": "keras.optimizers", "class_name": "SGD", "config": {
            "name": "sgd", "learning_rate": 0.10000000149011612, "weight_decay": None, "clipnorm": None,
            "global_clipnorm": None, "clipvalue": None, "use_ema": False, "ema_momentum": 0.99,
            "ema_overwrite_frequency": None, "loss_scale_factor": None, "gradient_accumulation_steps": None,
            "momentum": 0.0, "nesterov": False}, "registered_name": None},
        "initial_scale": 8.0, "dynamic_growth_steps": 2}
    assert keras.optimizers.LossScaleOptimizer.from_config(config).get_config() == config
    lso.build([tf.Variable([1.0])])
    assert [[x.name, x.path] for x in lso.variables] == [
        ["iteration", "loss_scale_optimizer/iteration"], ["learning_rate", "loss_scale_optimizer/learning_rate"],
        ["step_counter", "loss_scale_optimizer/step_counter"], ["dynamic_scale", "loss_scale_optimizer/dynamic_scale"],
        ["iteration", "sgd/iteration"], ["learning_rate", "sgd/learning_rate"]]
    assert float(lso.learning_rate.numpy()) == pytest.approx(0.1)
    unbuilt = keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(), initial_scale=4.0)
    assert float(unbuilt.scale_loss(3.0)) == 12.0
    with pytest.raises(ValueError, match="LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply "
                                         "set `loss_scale_factor` directly on the `inner_optimizer`."):
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(), dynamic=False)
    with pytest.raises(ValueError, match="LossScaleOptimizer does not support `clipnorm`. Instead, set `clipnorm` "
                                         "on the `inner_optimizer`."):
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(), clipnorm=1.0)
    with pytest.raises(ValueError, match="LossScaleOptimizer does not support arguments: `foo`."):
        keras.optimizers.LossScaleOptimizer(keras.optimizers.SGD(), foo=1)


def test_fit_with_loss_scaling_trains_as_without():
    """Keras 3.15: the same losses with and without a LossScaleOptimizer (scale 1024, 12 good steps)."""
    x = np.random.RandomState(0).rand(32, 3).astype("float32")
    y = x.sum(1, keepdims=True)
    histories = []
    for wrap in (False, True):
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        opt = keras.optimizers.SGD(0.1)
        model.compile(keras.optimizers.LossScaleOptimizer(opt, initial_scale=1024.0) if wrap else opt, "mse")
        histories.append(model.fit(x, y, epochs=3, verbose=0, shuffle=False, batch_size=8).history["loss"])
    np.testing.assert_allclose(histories[1], histories[0], rtol=1e-6)
    assert float(model.optimizer.dynamic_scale.numpy()) == 1024.0 and int(model.optimizer.step_counter.numpy()) == 12


def test_loss_scale_factor_on_a_plain_optimizer():
    """Keras 3.15: scale_loss multiplies by loss_scale_factor and apply divides the gradients by it."""
    opt = keras.optimizers.SGD(learning_rate=0.1, loss_scale_factor=4.0)
    v = tf.Variable(np.array([1.0], np.float32))
    opt.apply([np.array([8.0], np.float32)], [v])
    np.testing.assert_allclose(v.numpy(), [0.8], rtol=1e-6)
    assert float(opt.scale_loss(2.0)) == 8.0


def test_model_with_loss_scale_optimizer_saves_and_loads(tmp_path):
    """The compile config nests the inner optimizer's config (Keras 3's layout); loading restores the
    wrapper, its dynamic scale and the inner optimizer's state."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(keras.optimizers.LossScaleOptimizer(keras.optimizers.Adam(0.01), initial_scale=64.0), "mse")
    model.fit(np.ones((4, 3), np.float32), np.ones((4, 1), np.float32), verbose=0)
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert isinstance(loaded.optimizer, keras.optimizers.LossScaleOptimizer)
    assert isinstance(loaded.optimizer.inner_optimizer, keras.optimizers.Adam)
    assert loaded.optimizer.initial_scale == 64.0
    for a, b in zip(loaded.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(np.asarray(a.numpy()), np.asarray(b.numpy()))
