"""Keras metric state under a strategy: on-read variables summed over the replicas when read outside
them. Answers recorded from TensorFlow 2.21 + Keras 3.15.1 with MirroredStrategy on two logical CPUs
(the multi-worker case, one process per worker, is in test_multi_worker.py)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras


def _values(strategy, variable):
    return [np.asarray(c).tolist() for c in strategy.experimental_local_results(variable)]


def _replica_values(strategy):
    """Replica r gets r + 1 copies of the value r + 1 (replica 0: [1.0], replica 1: [2.0, 2.0])."""
    return strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([float(ctx.replica_id_in_sync_group + 1)] * (ctx.replica_id_in_sync_group + 1)))


def test_metric_state_is_on_read_and_summed():
    # Keras 3.15: every metric variable reports aggregation "sum", synchronization "on_read", with or
    # without a strategy; a layer's weight "none" and "auto"
    mean = keras.metrics.Mean()
    assert [(v.aggregation, v.synchronization) for v in mean.variables] == [("sum", "on_read")] * 2
    dense = keras.layers.Dense(2)
    dense.build((None, 3))
    assert (dense.kernel.aggregation, dense.kernel.synchronization) == ("none", "auto")


def test_a_custom_metrics_variables_take_keras_options():
    class Custom(keras.metrics.Metric):
        def __init__(self):
            super().__init__(name="m")
            self.a = self.add_variable(shape=(2,), initializer="ones", name="a")
            self.b = self.add_variable(shape=(), initializer="zeros", name="b", aggregation="mean")

    m = Custom()
    assert (m.a.aggregation, m.a.synchronization, m.b.aggregation, m.b.synchronization) == (
        "sum", "on_read", "mean", "on_read")
    assert m.a.numpy().tolist() == [1.0, 1.0]  # the initializer is honoured


@pytest.mark.parametrize("argument, choices", [
    ("aggregation", "`None`, `'none'`, `'mean'`, `'sum'`, `'only_first_replica'`"),
    ("synchronization", "`None`, `'none'`, `'on_read'`, `'on_write'`, `'auto'`")])
def test_keras_refuses_unknown_options(argument, choices):
    for bad in ("bogus", "SUM"):  # TensorFlow 2.21 + Keras 3.15.1's message, word for word
        with pytest.raises(ValueError) as raised:
            keras.Variable(1.0, **{argument: bad})
        assert str(raised.value) == (f"Invalid value for argument `{argument}`. Expected one of {choices}. "
                                     f"Received: {argument}={bad}")


def test_metric_made_in_scope_reads_the_replicas_sum(two_cpus):
    strategy = two_cpus
    with strategy.scope():
        mean = keras.metrics.Mean()
    total, count = mean.variables
    assert isinstance(total, tf.distribute.DistributedValues) and len(total.values) == 2
    assert (total.aggregation, total.synchronization) == ("sum", "on_read")
    strategy.run(mean.update_state, args=(_replica_values(strategy),))
    # TensorFlow: each replica counted its own values; read outside them, the sums
    assert _values(strategy, total) == [1.0, 4.0] and _values(strategy, count) == [1.0, 2.0]
    assert float(mean.result()) == pytest.approx(1.6666666269302368, rel=1e-7)
    assert (float(total.numpy()), float(count.numpy())) == (5.0, 3.0)
    mean.reset_state()
    assert float(mean.result()) == 0.0 and _values(strategy, total) == [0.0, 0.0]

    def update_and_read(values):
        mean.update_state(values)
        return mean.result()  # inside a replica: that replica's own result

    per_replica = strategy.run(update_and_read, args=(_replica_values(strategy),))
    assert [float(v) for v in strategy.experimental_local_results(per_replica)] == [1.0, 2.0]


def test_metric_updated_in_a_traced_replica_function(two_cpus):
    strategy = two_cpus
    with strategy.scope():
        accuracy = keras.metrics.SparseCategoricalAccuracy()

    @tf.function
    def step(labels, predictions):
        strategy.run(accuracy.update_state, args=(labels, predictions))

    labels = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([0, 1]) if ctx.replica_id_in_sync_group == 0 else tf.constant([1, 1, 0]))
    predictions = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([[0.9, 0.1], [0.2, 0.8]]) if ctx.replica_id_in_sync_group == 0
        else tf.constant([[0.9, 0.1], [0.3, 0.7], [0.6, 0.4]]))
    step(labels, predictions)
    step(labels, predictions)
    # replica 0: 2 of 2 right, replica 1: 2 of 3, twice each
    assert _values(strategy, accuracy.variables[0]) == [4.0, 4.0]
    assert float(accuracy.result()) == pytest.approx(0.8)


def test_metric_updated_outside_the_replicas(two_cpus):
    strategy = two_cpus
    with strategy.scope():
        mean = keras.metrics.Mean()
        iou = keras.metrics.IoU(num_classes=2, target_class_ids=[0])
    # Keras 3 updates a metric outside the replicas too (a tf.Variable's assign_add refuses there):
    # TensorFlow reads 2.0 after each update, as here
    mean.update_state([1.0, 2.0, 3.0])
    assert float(mean.result()) == 2.0 and float(mean.variables[0].numpy()) == 6.0
    with strategy.scope():
        mean.update_state([1.0, 2.0, 3.0])
    assert float(mean.result()) == 2.0 and float(mean.variables[0].numpy()) == 12.0
    # Integer counts stay whole: the update goes to the first replica's copy (Keras on TensorFlow
    # divides the new sum between the two replicas and reads [[0, 0], [0, 0]] back here)
    iou.update_state([0, 0, 1], [0, 1, 1])
    assert iou.variables[0].numpy().tolist() == [[1, 1], [0, 1]]
    assert float(iou.result()) == 0.5
    iou.reset_state()
    assert _values(strategy, iou.variables[0]) == [[[0, 0], [0, 0]]] * 2


def test_a_plain_on_read_sum_variable_still_refuses_adds_outside_the_replicas(two_cpus):
    with two_cpus.scope():
        v = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=tf.VariableAggregation.SUM)
        with pytest.raises(ValueError, match="SyncOnReadVariable does not support `assign_add` in cross-replica "
                                             "context when aggregation is set to `tf.VariableAggregation.SUM`."):
            v.assign_add(1.0)
