"""sample_weight and class_weight with a two-output model, by Keras 3.15.1's recorded answers: one
array weighs every output, a list gives one per output, a dict for list targets is refused, and
class_weight is refused for several outputs."""
import numpy as np
import pytest

from eagerflow import keras

from .test_multi_output_compile import SCCE, assert_history, data, two_output_model


def weighted_fit(**fit_kwargs):
    x, ya, yb = data()
    model = two_output_model()
    model.compile(keras.optimizers.SGD(0.1), loss=[SCCE, "mse"], loss_weights=[1.0, 0.5],
                  metrics=[["accuracy"], ["mae"]], weighted_metrics=[["accuracy"], ["mae"]])
    return model.fit(x, [ya, yb], batch_size=4, epochs=2, verbose=0, shuffle=False, **fit_kwargs).history


SW = np.linspace(0.5, 2.0, 8).astype("float32")


def test_one_sample_weight_array_weighs_every_output():
    assert_history(weighted_fit(sample_weight=SW), {
        "loss": [2.0733556747436523, 1.8228718042373657], "out_a_accuracy": [0.375, 0.375],
        "out_a_loss": [1.1457023620605469, 1.0476000308990479],
        "out_a_weighted_accuracy": [0.4285714030265808, 0.4285714030265808],
        "out_b_loss": [1.8553063869476318, 1.5505435466766357],
        "out_b_mae": [0.9168483018875122, 0.8182739615440369],
        "out_b_weighted_mae": [0.9494832754135132, 0.838152289390564]})


def test_a_list_of_sample_weights_gives_one_per_output():
    assert_history(weighted_fit(sample_weight=[SW, SW[::-1].copy()]), {
        "loss": [2.0071206092834473, 1.8152456283569336], "out_a_accuracy": [0.375, 0.375],
        "out_a_loss": [1.1455459594726562, 1.0453453063964844],
        "out_a_weighted_accuracy": [0.4285714030265808, 0.4285714030265808],
        "out_b_loss": [1.723149299621582, 1.5398006439208984],
        "out_b_mae": [0.8920391798019409, 0.8089771270751953],
        "out_b_weighted_mae": [0.8745332956314087, 0.784797191619873]})


def test_sample_weights_as_a_dict_for_list_targets_are_refused():
    with pytest.raises(ValueError, match="You should provide one `sample_weight` array per output in `y`. "
                                         "The two structures did not match"):
        weighted_fit(sample_weight={"out_a": SW, "out_b": SW})


@pytest.mark.parametrize("class_weight", [{0: 1.0, 1: 3.0}, {"out_a": {0: 1.0, 1: 3.0}}])
def test_class_weight_is_refused_for_several_outputs(class_weight):
    with pytest.raises(ValueError, match="`class_weight` is only supported for Models with a single output."):
        weighted_fit(class_weight=class_weight)


def test_evaluate_with_sample_weight_on_two_outputs():
    x, ya, yb = data()
    model = two_output_model()
    model.compile(keras.optimizers.SGD(0.1), loss=[SCCE, "mse"])
    logs = model.evaluate(x, [ya, yb], sample_weight=SW, verbose=0, return_dict=True)
    np.testing.assert_allclose([logs["loss"], logs["out_a_loss"], logs["out_b_loss"]],
                               [3.075507402420044, 1.1732306480407715, 1.9022767543792725], rtol=2e-5)
