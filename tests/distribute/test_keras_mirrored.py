"""Keras fit/evaluate/predict under MirroredStrategy on two logical CPUs, and the custom-loop guide's
step: TensorFlow 2.21's recorded numbers, and the same weights as one replica on the global batch."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

RNG = np.random.default_rng(0)
X = RNG.normal(size=(16, 3)).astype("float32")
Y = RNG.normal(size=(16, 2)).astype("float32")
W0 = RNG.normal(size=(3, 4)).astype("float32")
W1 = RNG.normal(size=(4, 2)).astype("float32")

# TensorFlow 2.21 + Keras 3.15.1, MirroredStrategy over two logical CPUs, fit(batch_size=8, epochs=2, shuffle=False).
TF_WEIGHTS = [[[0.3076675236225128, -0.7777154445648193, -0.35894304513931274, -0.8144476413726807],
               [-1.2780423164367676, 0.6761884093284607, 0.5363529920578003, 1.3001915216445923],
               [-0.744320273399353, 1.6108156442642212, -0.2932843267917633, 1.6419488191604614]],
              [[-0.4271303415298462, -0.8191115260124207], [0.4155445396900177, 1.0382235050201416],
               [0.0987687036395073, -0.4621620178222656], [-1.2206302881240845, -1.282443642616272]]]
TF_HISTORY = {"loss": [1.7351645231246948, 1.4177314043045044], "mae": [1.098732590675354, 1.0104215145111084]}
TF_EVALUATE = [1.3105947971343994, 0.962090015411377]
TF_PREDICT = [[-0.425752192735672, 0.23090100288391113], [0.06476175785064697, 0.22523820400238037],
              [0.6883211135864258, 0.1441003382205963], [-0.25357329845428467, -0.12494684010744095]]


def _model():
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="tanh", use_bias=False),
                          keras.layers.Dense(2, use_bias=False)])
    m.set_weights([W0, W1])
    m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return m


def test_fit_evaluate_predict_match_tensorflow(two_cpus):
    with two_cpus.scope():
        model = _model()
    history = model.fit(X, Y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    for got, want in zip(model.get_weights(), TF_WEIGHTS):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    for name, values in TF_HISTORY.items():
        np.testing.assert_allclose(history.history[name], values, rtol=1e-6)
    np.testing.assert_allclose(model.evaluate(X, Y, batch_size=8, verbose=0), TF_EVALUATE, rtol=1e-6)
    np.testing.assert_allclose(model.predict(X[:4], verbose=0), TF_PREDICT, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("traced", [False, True], ids=["eager", "tf.function"])
def test_custom_loop_in_two_replica_threads_matches_one_replica_on_the_global_batch(two_cpus, traced):
    """TensorFlow's custom-loop guide: per-example losses averaged over the GLOBAL batch, gradients
    applied in the replica (summed over the replicas by the optimizer); the distributed step run as
    it is, or traced by tf.function (the replicas take turns recording into one graph)."""
    strategy, global_batch = two_cpus, 8

    def train(strategy_or_none):
        model = _model()
        optimizer = keras.optimizers.SGD(0.1)

        def step(x, y):
            with tf.GradientTape() as tape:
                per_example = tf.reduce_mean(tf.square(model(x, training=True) - y), axis=-1)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        dataset = tf.data.Dataset.from_tensor_slices((X, Y)).batch(global_batch)
        losses = []
        if strategy_or_none is None:
            for x, y in dataset:
                losses.append(float(step(x, y)))
        else:
            with strategy_or_none.scope():
                model = _model()
                optimizer = keras.optimizers.SGD(0.1)
            def distributed_step(x, y):
                per_replica = strategy_or_none.run(step, args=(x, y))
                return strategy_or_none.reduce("SUM", per_replica, axis=None)

            if traced:
                distributed_step = tf.function(distributed_step)
            for x, y in strategy_or_none.experimental_distribute_dataset(dataset):
                losses.append(float(distributed_step(x, y)))
        return model.get_weights(), losses, int(optimizer.iterations.numpy())

    alone, distributed = train(None), train(strategy)
    for a, b in zip(alone[0], distributed[0]):
        np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(distributed[1], alone[1], rtol=1e-6)
    assert distributed[2] == alone[2] == 2  # one update per step, not one per replica
