"""MirroredVariable and SyncOnReadVariable against TensorFlow 2.21's answers (recorded with
MirroredStrategy on two logical CPUs; replica r writes values made from r)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

ON_READ = tf.VariableSynchronization.ON_READ
SUM, MEAN, FIRST = tf.VariableAggregation.SUM, tf.VariableAggregation.MEAN, tf.VariableAggregation.ONLY_FIRST_REPLICA


def _replica_number():
    return tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)


def test_a_variable_made_in_scope_is_a_mirrored_variable(two_cpus):
    with two_cpus.scope():
        v = tf.Variable(1.0, name="x")
    assert type(v).__name__ == "MirroredVariable"
    assert isinstance(v, tf.Variable) and isinstance(v, tf.distribute.DistributedValues)
    assert repr(v) == str(v) == ("MirroredVariable:{\n  0: <tf.Variable 'x:0' shape=() dtype=float32, numpy=1.0>,\n"
                                 "  1: <tf.Variable 'x/replica_1:0' shape=() dtype=float32, numpy=1.0>\n}")
    assert [c.name for c in v.values] == ["x:0", "x/replica_1:0"]
    assert two_cpus.experimental_local_results(v) == v.values
    assert (v.aggregation, v.synchronization) == (tf.VariableAggregation.NONE, tf.VariableSynchronization.ON_WRITE)
    assert v.name == "x:0" and v.trainable
    v.assign(5.0)  # across replicas: every copy
    assert [float(c.numpy()) for c in v.values] == [5.0, 5.0]
    assert two_cpus.run(lambda x: x is v, args=(v,)) is True  # each replica gets the variable itself


def test_one_replica_strategies(two_cpus):
    with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
        one = tf.Variable(1.0, name="x")
    assert repr(one) == "MirroredVariable:{\n  0: <tf.Variable 'x:0' shape=() dtype=float32, numpy=1.0>\n}"
    with tf.distribute.MultiWorkerMirroredStrategy().scope():  # one worker
        assert type(tf.Variable(1.0)).__name__ == "MirroredVariable"
    with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
        plain = tf.Variable(1.0, name="x")
    assert not isinstance(plain, tf.distribute.DistributedValues)
    assert repr(plain) == "<tf.Variable 'x:0' shape=() dtype=float32, numpy=1.0>"


def test_writes_in_replicas_are_combined_by_the_aggregation(two_cpus):
    with two_cpus.scope():
        none = tf.Variable(1.0)
        mean = tf.Variable(2.0, aggregation=MEAN)
        first = tf.Variable(1.0, aggregation=FIRST)
        total = tf.Variable(1.0, aggregation=SUM)
        count = tf.Variable(3, aggregation=SUM, dtype=tf.int32)

    def step():
        r = _replica_number()
        none.assign(3.0)  # no aggregation: each replica writes its own copy (no error in TF 2.21)
        mean.assign(r + 3.0)
        first.assign(r + 7.0)
        total.assign(r + 1.0)
        count.assign_add(tf.constant(2))

    two_cpus.run(step)
    assert [float(c.numpy()) for c in none.values] == [3.0, 3.0]
    assert [float(c.numpy()) for c in mean.values] == [3.5, 3.5]
    assert float(first.numpy()) == 7.0 and float(total.numpy()) == 3.0
    assert int(count.numpy()) == 7  # 3 + 2 from each replica


def test_sync_on_read_keeps_a_value_per_replica(two_cpus):
    with two_cpus.scope():
        total = tf.Variable(0.0, synchronization=ON_READ, aggregation=SUM)
        mean = tf.Variable(1.0, synchronization=ON_READ, aggregation=MEAN)
        first = tf.Variable(1.0, synchronization=ON_READ, aggregation=FIRST)
    assert type(total).__name__ == "SyncOnReadVariable" and not total.trainable
    assert repr(total) == ("SyncOnReadVariable:{\n  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>,\n"
                           "  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=0.0>\n}")

    def step():
        r = _replica_number()
        total.assign_add(r + 1.0)
        mean.assign(r * 4.0)
        first.assign(r + 5.0)
        return total.read_value(), total.numpy()  # in a replica: its own value

    local_reads, local_numpy = two_cpus.run(step)
    assert [float(t) for t in local_reads.values] == [1.0, 2.0]
    assert [float(n) for n in local_numpy.values] == [1.0, 2.0]
    assert [float(c.numpy()) for c in total.values] == [1.0, 2.0]
    assert float(total.numpy()) == 3.0 and float(total.read_value()) == 3.0  # across replicas: combined
    assert float(mean.numpy()) == 2.0 and float(first.numpy()) == 5.0
    assert float(tf.add(total, 1.0)) == 4.0
    total.assign(10.0)  # SUM: each replica keeps a share, so it reads back whole
    assert [float(c.numpy()) for c in total.values] == [5.0, 5.0] and float(total.numpy()) == 10.0
    first.assign(9.0)
    mean.assign_add(1.0)
    assert [float(c.numpy()) for c in first.values] == [9.0, 9.0]
    assert [float(c.numpy()) for c in mean.values] == [1.0, 5.0]


def test_sync_on_read_refusals(two_cpus):
    with two_cpus.scope():
        total = tf.Variable([1.0, 2.0], synchronization=ON_READ, aggregation=SUM)
        unaggregated = tf.Variable(1.0, synchronization=ON_READ)
    for method in ("assign_add", "assign_sub"):
        with pytest.raises(ValueError, match=f"SyncOnReadVariable does not support `{method}` in cross-replica "
                                             "context when aggregation is set to `tf.VariableAggregation.SUM`"):
            getattr(total, method)([1.0, 1.0])
    with pytest.raises(NotImplementedError, match="Variables with `synchronization=ON_READ` doesn't support "
                                                  "`scatter_add`"):
        total.scatter_add(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])))
    assert unaggregated.aggregation == tf.VariableAggregation.NONE
    with pytest.raises(ValueError, match="Could not convert from `tf.VariableAggregation` VariableAggregation.NONE "
                                         "to`tf.distribute.ReduceOp` type"):
        unaggregated.numpy()


def test_variables_a_strategy_refuses(two_cpus):
    with two_cpus.scope():
        with pytest.raises(ValueError, match="`NONE` variable synchronization mode is not supported with "
                                             "tf.distribute strategy"):
            tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE)
        with pytest.raises(ValueError, match="creating distributed tf.Variable with aggregation=MEAN and a "
                                             "non-floating dtype is not supported"):
            tf.Variable(1, aggregation=MEAN)


def test_writes_in_a_traced_step(two_cpus):
    with two_cpus.scope():
        total = tf.Variable(0.0, aggregation=SUM)

    @tf.function
    def step():
        two_cpus.run(lambda: total.assign_add(_replica_number() + 1.0))

    step()
    step()
    assert float(total.numpy()) == 6.0


def test_keras_weights_made_in_scope_stay_keras_weights(two_cpus):
    with two_cpus.scope():
        layer = keras.layers.Dense(2)
        layer.build((None, 3))
    kernel = layer.kernel
    assert isinstance(kernel, tf.distribute.DistributedValues) and type(kernel).__name__ == "KerasVariable"
    assert kernel.name == "kernel" and len(kernel.values) == 2
    np.testing.assert_array_equal(kernel.values[1].numpy(), kernel.numpy())


def test_checkpoints_hold_the_combined_value(two_cpus, tmp_path):
    with two_cpus.scope():
        mirrored = tf.Variable(2.0)
        total = tf.Variable(0.0, synchronization=ON_READ, aggregation=SUM)
    two_cpus.run(lambda: total.assign_add(_replica_number() + 1.0))  # replica copies 1 and 2
    path = tf.train.Checkpoint(m=mirrored, s=total).save(str(tmp_path / "c"))
    assert tf.train.load_variable(path, "s/.ATTRIBUTES/VARIABLE_VALUE") == 3.0
    assert tf.train.load_variable(path, "m/.ATTRIBUTES/VARIABLE_VALUE") == 2.0
    mirrored.assign(0.0)
    total.assign(0.0)
    tf.train.Checkpoint(m=mirrored, s=total).restore(path)
    assert float(mirrored.numpy()) == 2.0
    assert [float(c.numpy()) for c in total.values] == [1.5, 1.5] and float(total.numpy()) == 3.0
