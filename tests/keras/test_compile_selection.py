"""compile()'s 'accuracy' / 'acc' metric and 'crossentropy' / 'ce' loss chosen from the shapes of
targets and predictions, as Keras 3.15 chooses them (binary when the prediction's last axis is 1,
sparse categorical for lower-rank or width-1 integer targets, else categorical), not from the loss.

Each row: target kind, Dense units and activation (kernel of ones, so the outputs are fixed), the
compiled loss, then Keras 3.15's evaluate() loss and accuracy (the same under 'accuracy', 'acc' and
'Accuracy'). Data from a fixed NumPy RandomState stream rebuilt here.
"""
import numpy as np
import pytest

import eagerflow as tf

keras = tf.keras


def _data():
    rng = np.random.RandomState(11)
    x = rng.rand(20, 4).astype("float32")
    ys = {"bin": (rng.rand(20, 1) > 0.5).astype("float32"), "sparse1d": rng.randint(0, 3, size=(20,)),
          "sparse2d": rng.randint(0, 3, size=(20, 1)), "onehot": np.eye(3, dtype="float32")[rng.randint(0, 3, size=20)],
          "multilabel": (rng.rand(20, 3) > 0.5).astype("float32")}
    return x, ys


ROWS = [
    ('bin', 1, 'sigmoid', 'mse', 0.3184475898742676, 0.6000000238418579),
    ('bin', 1, 'sigmoid', 'crossentropy', 0.9743345379829407, 0.6000000238418579),
    ('sparse1d', 3, 'softmax', 'sparse_categorical_crossentropy', 1.0986123085021973, 0.20000000298023224),
    ('sparse1d', 3, 'softmax', 'crossentropy', 1.0986123085021973, 0.20000000298023224),
    ('sparse2d', 3, 'softmax', 'ce', 1.0986123085021973, 0.20000000298023224),
    ('onehot', 3, 'softmax', 'categorical_crossentropy', 1.0986123085021973, 0.3499999940395355),
    ('onehot', 3, 'softmax', 'crossentropy', 1.0986123085021973, 0.3499999940395355),
    ('multilabel', 3, 'sigmoid', 'binary_crossentropy', 1.3185975551605225, 0.6499999761581421),
    ('bin', 1, 'sigmoid', 'binary_crossentropy', 0.9743345379829407, 0.6000000238418579),
]


@pytest.mark.parametrize("target,units,activation,loss,expected_loss,expected_accuracy", ROWS)
def test_accuracy_and_crossentropy_follow_the_shapes(target, units, activation, loss, expected_loss,
                                                     expected_accuracy):
    x, ys = _data()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(units, activation=activation,
                                                                    kernel_initializer="ones",
                                                                    bias_initializer="zeros")])
    model.compile("sgd", loss, metrics=["accuracy", "acc", "Accuracy"])
    logs = model.evaluate(x, ys[target], verbose=0, return_dict=True)
    assert logs["loss"] == pytest.approx(expected_loss, rel=1e-5)
    for name in ("accuracy", "acc", "Accuracy"):
        assert logs[name] == pytest.approx(expected_accuracy, rel=1e-6)


def test_crossentropy_alias_is_compile_only():
    with pytest.raises(ValueError, match="Could not interpret loss identifier: crossentropy"):
        keras.losses.get("crossentropy")
