"""The regression, margin, divergence and focal losses against TensorFlow 2.21 (Keras 3.15): values
with and without sample weights, names, configs, string identifiers and serialization."""
import numpy as np
import pytest

from eagerflow import keras

L = keras.losses
Y01 = np.array([[0., 1., 0.], [1., 0., 1.], [0., 0., 1.], [1., 1., 0.]], np.float32)
PROBS = np.array([[0.2, 0.7, 0.1], [0.6, 0.3, 0.9], [0.05, 0.15, 0.8], [0.9, 0.4, 0.3]], np.float32)
YREAL = np.array([[1.5, -2., 0.3], [0.2, 3., -1.], [2.5, 0.5, 0.5], [-1., 1., 2.]], np.float32)
PREAL = np.array([[1., -1.5, 0.8], [0.1, 2.2, -0.4], [3., 0.2, 0.1], [-0.5, 1.5, 1.2]], np.float32)
SW = np.array([1., 0.5, 0., 2.], np.float32)

# class, default name, (mean, weighted) on (Y01, PROBS), (YREAL, PREAL), (Y01, PREAL): TF 2.21
CASES = [
    (L.Huber, "huber_loss", (0.03854166716337204, 0.04958333447575569), (0.14166666567325592, 0.1472916603088379),
     (0.8812499642372131, 0.6643750071525574)),
    (L.Hinge, "hinge", (0.7333332896232605, 0.625), (0.39083331823349, 0.21250000596046448),
     (1.7999999523162842, 1.370833396911621)),
    (L.SquaredHinge, "squared_hinge", (0.7604166269302368, 0.6491667032241821),
     (0.3217083215713501, 0.14481666684150696), (4.320000171661377, 2.847916603088379)),
    (L.CategoricalHinge, "categorical_hinge", (0.21250002086162567, 0.1250000298023224), (0.0, 0.0),
     (3.0249998569488525, 1.912500023841858)),
    (L.KLDivergence, "kl_divergence", (0.5544118881225586, 0.677016019821167),
     (0.27681124210357666, -0.056233517825603485), (13.239862442016602, 14.391154289245605)),
    (L.CosineSimilarity, "cosine_similarity", (-0.9428392648696899, -0.8026806116104126),
     (-0.9570026993751526, -0.8148212432861328), (0.11645685136318207, 0.02386164665222168)),
    (L.LogCosh, "log_cosh", (0.03735663369297981, 0.047648221254348755), (0.1333012878894806, 0.13793742656707764),
     (0.7867620587348938, 0.5832479596138)),
    (L.MeanAbsolutePercentageError, "mean_absolute_percentage_error", (91666680.0, 87500016.0),
     (55.13888931274414, 47.77777862548828), (700000064.0, 441666720.0)),
    (L.MeanSquaredLogarithmicError, "mean_squared_logarithmic_error", (0.03514117747545242, 0.043894410133361816),
     (0.04357214272022247, 0.039696089923381805), (0.5801293849945068, 0.39213424921035767)),
    (L.Poisson, "poisson", (0.6348046064376831, 0.6506724953651428), (np.nan, np.nan), (np.nan, np.nan)),
    (L.BinaryFocalCrossentropy, "binary_focal_crossentropy", (0.04439134895801544, 0.06879677623510361),
     (-610.7225952148438, -354.4376220703125), (36.075538635253906, 24.288740158081055)),
    (L.CategoricalFocalCrossentropy, "categorical_focal_crossentropy", (0.09953150898218155, 0.1339198648929596),
     (-3.798236846923828, -4.480541229248047), (3.395219326019287, 3.613262176513672)),
]


@pytest.mark.parametrize("cls,name,probs,real,mixed", CASES, ids=[c[0].__name__ for c in CASES])
def test_values_and_sample_weights_match_keras(cls, name, probs, real, mixed):
    loss = cls()
    assert loss.name == name
    for (y, p), (mean, weighted) in (((Y01, PROBS), probs), ((YREAL, PREAL), real), ((Y01, PREAL), mixed)):
        np.testing.assert_allclose(float(loss(y, p)), mean, rtol=2e-6)
        np.testing.assert_allclose(float(loss(y, p, sample_weight=SW)), weighted, rtol=2e-6)


def test_per_sample_values_and_options():
    np.testing.assert_allclose(L.Huber(reduction=None)(YREAL, PREAL).numpy(),
                               [0.125, 0.16833333671092987, 0.0833333358168602, 0.18999998271465302], rtol=1e-6)
    np.testing.assert_allclose(L.poisson(YREAL, PREAL).numpy(), [np.nan, np.nan, 0.8364933133125305, np.nan],
                               rtol=1e-6)
    np.testing.assert_allclose(L.kld(YREAL, PREAL).numpy(),
                               [-0.2942487895488739, 0.13862943649291992, 1.262864351272583, 0.0], rtol=1e-6, atol=1e-7)
    assert float(L.Huber(delta=0.5)(YREAL, PREAL)) == pytest.approx(0.13374999165534973, rel=1e-6)
    assert float(L.CosineSimilarity(axis=0)(YREAL, PREAL)) == pytest.approx(-0.9408153891563416, rel=1e-6)
    bfc = L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, gamma=1.5, from_logits=True,
                                    label_smoothing=0.1)
    assert float(bfc(Y01, PREAL)) == pytest.approx(0.4530152678489685, rel=1e-6)
    cfc = L.CategoricalFocalCrossentropy(alpha=0.3, gamma=1.5, from_logits=True, label_smoothing=0.1)
    assert float(cfc(Y01, PREAL)) == pytest.approx(0.9014081954956055, rel=1e-6)
    # hinge: 0/1 labels count as -1/+1
    assert float(L.Hinge()(2 * Y01 - 1, PREAL)) == pytest.approx(1.7999999523162842, rel=1e-6)


def test_function_forms_and_aliases():
    assert L.kld is L.KLD is L.kullback_leibler_divergence is L.kl_divergence
    assert L.mape is L.MAPE is L.mean_absolute_percentage_error and L.msle is L.MSLE
    assert L.logcosh is L.log_cosh
    names = {"huber": "huber", "hinge": "hinge", "kld": "kl_divergence", "logcosh": "log_cosh",
             "mape": "mean_absolute_percentage_error", "msle": "mean_squared_logarithmic_error",
             "binary_focal_crossentropy": "binary_focal_crossentropy"}
    for attr, fn_name in names.items():
        assert getattr(L, attr).__name__ == fn_name
    np.testing.assert_allclose(L.msle(YREAL, PREAL).numpy(), [0.05189761519432068, 0.01912134699523449,
                                                            0.054606568068265915, 0.04866303876042366], rtol=1e-5)


def test_get_configs_and_round_trip():
    assert L.Huber(delta=2.0).get_config() == {"name": "huber_loss", "reduction": "sum_over_batch_size"}
    assert L.BinaryFocalCrossentropy(apply_class_balancing=True).get_config() == {
        "name": "binary_focal_crossentropy", "reduction": "sum_over_batch_size", "from_logits": False,
        "label_smoothing": 0.0, "axis": -1, "apply_class_balancing": True, "alpha": 0.25, "gamma": 2.0}
    assert L.CategoricalFocalCrossentropy().get_config() == {
        "name": "categorical_focal_crossentropy", "reduction": "sum_over_batch_size", "from_logits": False,
        "label_smoothing": 0.0, "axis": -1, "alpha": 0.25, "gamma": 2.0}
    for cls, *_ in CASES:
        again = cls.from_config(cls().get_config())
        assert type(again) is cls and again.get_config() == cls().get_config()


def test_get_serialize_deserialize():
    assert L.get("huber") is L.huber and L.get("kld") is L.kl_divergence and L.get("mape") is L.mape
    assert isinstance(L.get("Huber"), L.Huber) and isinstance(L.get("Poisson"), L.Poisson)
    for refused in ("huber_loss", "logcosh"):  # Keras 3.15 refuses these too
        with pytest.raises(ValueError, match=f"Could not interpret loss identifier: {refused}"):
            L.get(refused)
    assert L.serialize(L.Huber(delta=2.0)) == {"module": "keras.losses", "class_name": "Huber", "config": {
        "name": "huber_loss", "reduction": "sum_over_batch_size"}, "registered_name": None}
    assert L.serialize(L.huber) == {"module": "builtins", "class_name": "function", "config": "huber",
                                    "registered_name": "function"}
    assert L.deserialize("huber") is L.huber
    assert L.deserialize(L.serialize(L.huber)) is L.huber
    h = L.deserialize({"class_name": "Huber", "config": {"delta": 2.0, "name": "h", "reduction": "sum"}})
    assert isinstance(h, L.Huber) and h.get_config() == {"name": "h", "reduction": "sum"}


def test_reduction_names():
    assert L.Reduction.all() == ("auto", "none", "sum", "sum_over_batch_size")
    assert L.Reduction.SUM_OVER_BATCH_SIZE == "sum_over_batch_size" and L.Reduction.AUTO == "auto"
    L.Reduction.validate("sum")
    with pytest.raises(ValueError, match="Invalid Reduction Key"):
        L.Reduction.validate("nope")


@pytest.mark.parametrize("loss", ["huber", "kld", "log_cosh", "msle", "poisson", "Huber", "squared_hinge",
                                  "binary_focal_crossentropy"])
def test_string_losses_compile_fit_and_survive_saving(loss, tmp_path):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(3, activation="softmax")])
    model.compile(optimizer="sgd", loss=loss)
    model.fit(PROBS, Y01, epochs=1, verbose=0)
    expected = model.evaluate(PROBS, Y01, verbose=0)
    reference = L.get(loss)
    reference = reference if isinstance(reference, L.Loss) else L.LossFunctionWrapper(reference)
    assert expected == pytest.approx(float(reference(Y01, model.predict(PROBS, verbose=0))), rel=1e-5)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    assert loaded.evaluate(PROBS, Y01, verbose=0) == pytest.approx(expected, rel=1e-6)


def test_dice_and_tversky():
    yt = np.array([[[[1.0], [1.0]], [[0.0], [0.0]]], [[[1.0], [1.0]], [[0.0], [0.0]]]], np.float32)
    yp = np.array([[[[0.0], [1.0]], [[0.0], [1.0]]], [[[0.4], [0.0]], [[0.0], [0.9]]]], np.float32)
    np.testing.assert_allclose(L.dice(yt, yp, axis=(1, 2, 3)).numpy(), [0.5, 0.7575757503509521], rtol=1e-6)
    assert float(L.dice(yt, yp)) == pytest.approx(0.6164383888244629, rel=1e-6)  # TF 2.21
    np.testing.assert_allclose(L.tversky(yt, yp, alpha=0.3, beta=0.7, axis=(1, 2, 3)).numpy(),
                               [0.5, 0.7350993156433105], rtol=1e-6)
    assert L.Dice().get_config() == {"name": "dice", "reduction": "sum_over_batch_size", "axis": None}
    assert float(L.Dice()(Y01, PROBS)) == pytest.approx(0.24561399221420288, rel=1e-6)
    assert float(L.Dice(axis=-1)(Y01, PROBS)) == pytest.approx(0.24707601964473724, rel=1e-6)
    assert float(L.Dice(axis=-1)(Y01, PROBS, sample_weight=SW)) == pytest.approx(0.24020469188690186, rel=1e-6)
    tv = L.Tversky(alpha=0.3, beta=0.7)
    assert tv.get_config() == {"name": "tversky", "reduction": "sum_over_batch_size", "alpha": 0.3, "beta": 0.7,
                               "axis": None}
    assert float(tv(Y01, PROBS)) == pytest.approx(0.2293906807899475, rel=1e-6)
    assert float(L.Tversky(axis=-1)(Y01, PROBS, sample_weight=SW)) == pytest.approx(0.24020473659038544, rel=1e-6)
    assert L.get("dice") is L.dice and isinstance(L.get("Tversky"), L.Tversky)
