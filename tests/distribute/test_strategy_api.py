"""The strategy API against TensorFlow 2.21's answers (recorded with MirroredStrategy on two logical CPUs)."""
import numpy as np
import pytest

import eagerflow as tf


def _lists(values):
    return [np.asarray(v).tolist() for v in values]


def test_logical_devices_split_the_cpu(two_cpus):
    assert [d.name for d in tf.config.list_logical_devices()] == ["/device:CPU:0", "/device:CPU:1"]
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert repr(tf.config.get_logical_device_configuration(cpu)[0]) == \
        "LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, experimental_device_ordinal=None)"


def test_default_strategy_and_context():
    s = tf.distribute.get_strategy()
    assert s.num_replicas_in_sync == 1
    assert not tf.distribute.has_strategy() and not tf.distribute.in_cross_replica_context()
    ctx = tf.distribute.get_replica_context()
    assert (ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync) == (0, 1)


def test_mirrored_on_one_cpu_has_one_replica():
    assert tf.distribute.MirroredStrategy().num_replicas_in_sync == 1


def test_mirrored_on_two_logical_cpus(two_cpus):
    s = two_cpus
    assert s.num_replicas_in_sync == 2
    assert s.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",
                                         "/job:localhost/replica:0/task:0/device:CPU:1")
    with s.scope():
        assert tf.distribute.has_strategy() and tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        assert tf.distribute.get_strategy() is s
    assert not tf.distribute.has_strategy()


def _replica_fn(x):
    ctx = tf.distribute.get_replica_context()
    assert not tf.distribute.in_cross_replica_context()
    scale = tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    y = ctx.all_reduce(tf.distribute.ReduceOp.SUM, x * scale)
    return x + tf.cast(ctx.replica_id_in_sync_group, tf.float32), y


def test_run_all_reduce_reduce_gather(two_cpus):
    s = two_cpus
    first, summed = s.run(_replica_fn, args=(tf.constant([1.0, 2.0]),))
    assert type(first).__name__ == "PerReplica"
    assert repr(first).startswith("PerReplica:{\n  0: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.]")
    assert _lists(s.experimental_local_results(first)) == [[1.0, 2.0], [2.0, 3.0]]
    assert _lists(s.experimental_local_results(summed)) == [[3.0, 6.0], [3.0, 6.0]]
    assert s.reduce("SUM", first, axis=None).numpy().tolist() == [3.0, 5.0]
    assert s.reduce(tf.distribute.ReduceOp.MEAN, first, axis=0).numpy().tolist() == 2.0
    assert s.reduce("SUM", first, axis=0).numpy().tolist() == 8.0
    assert s.reduce("MEAN", first, axis=None).numpy().tolist() == [1.5, 2.5]
    assert s.gather(first, axis=0).numpy().tolist() == [1.0, 2.0, 2.0, 3.0]


def test_a_plain_value_cannot_be_summed_over_replicas(two_cpus):
    with pytest.raises(ValueError, match="A non-DistributedValues value .* cannot be reduced with the given reduce op "
                                         "ReduceOp.SUM"):
        two_cpus.reduce("SUM", tf.constant(3.0), axis=None)


def test_merge_call_runs_once_in_cross_replica_context(two_cpus):
    s, calls = two_cpus, []

    def merge(strategy, value):
        calls.append(tf.distribute.in_cross_replica_context())
        assert type(value).__name__ == "PerReplica"
        return strategy.reduce("SUM", value, axis=None)

    def fn(x):
        ctx = tf.distribute.get_replica_context()
        return ctx.merge_call(merge, args=(x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32),))

    assert _lists(s.experimental_local_results(s.run(fn, args=(tf.constant(3.0),)))) == [9.0]
    assert calls == [True]


def test_a_failing_replica_stops_the_others(two_cpus):
    def fn():
        ctx = tf.distribute.get_replica_context()
        if ctx.replica_id_in_sync_group == 1:
            raise KeyError("replica 1 fails")
        return ctx.all_reduce("SUM", tf.constant(1.0))

    with pytest.raises(KeyError, match="replica 1 fails"):
        two_cpus.run(fn)


def test_distribute_dataset_splits_each_global_batch(two_cpus):
    s = two_cpus
    batches = [_lists(s.experimental_local_results(b))
               for b in s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))]
    assert batches == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
    uneven = [_lists(s.experimental_local_results(b))
              for b in s.experimental_distribute_dataset(tf.data.Dataset.range(5).batch(5))]
    assert uneven == [[[0, 1, 2], [3, 4]]]


def test_datasets_from_function_with_input_context(two_cpus):
    s, seen = two_cpus, []

    def dataset_fn(ctx):
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                     ctx.get_per_replica_batch_size(8)))
        return tf.data.Dataset.range(4).batch(ctx.get_per_replica_batch_size(4))

    batches = [_lists(s.experimental_local_results(b)) for b in s.distribute_datasets_from_function(dataset_fn)]
    assert seen == [(1, 0, 2, 4)] and batches == [[[0, 1], [2, 3]]]


def test_input_context_and_options():
    ctx = tf.distribute.InputContext(num_input_pipelines=2, input_pipeline_id=1, num_replicas_in_sync=4)
    assert str(ctx) == "tf.distribute.InputContext(input pipeline id 1, total: 2)"
    assert ctx.get_per_replica_batch_size(8) == 2
    with pytest.raises(ValueError, match="The `global_batch_size` 7 is not divisible by `num_replicas_in_sync` 4 "):
        ctx.get_per_replica_batch_size(7)
    assert repr(tf.distribute.InputOptions()) == (
        "InputOptions(experimental_fetch_to_device=True, experimental_replication_mode=<InputReplicationMode."
        "PER_WORKER: 'PER_WORKER'>, experimental_place_dataset_on_device=False, "
        "experimental_per_replica_buffer_size=1)")
    assert [m.value for m in tf.distribute.InputReplicationMode] == ["PER_WORKER", "PER_REPLICA"]
    assert (str(tf.distribute.ReduceOp.SUM), repr(tf.distribute.ReduceOp.MEAN)) == \
        ("ReduceOp.SUM", "<ReduceOp.MEAN: 'MEAN'>")


def test_one_device_strategy_returns_plain_values():
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    assert s.num_replicas_in_sync == 1
    assert s.run(lambda: tf.constant(1.0)).numpy() == 1.0


def test_two_strategies_cannot_nest(two_cpus):
    other = tf.distribute.OneDeviceStrategy("/cpu:0")
    with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
        with two_cpus.scope():
            with other.scope():
                pass


def test_losses_average_over_every_replicas_examples(two_cpus):
    s = two_cpus

    def fn():
        return (tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0])),
                tf.nn.scale_regularization_loss(tf.constant(4.0)))

    average, regularization = s.run(fn)
    assert _lists(s.experimental_local_results(average)) == [1.0, 1.0]  # 6 / (3 examples * 2 replicas)
    assert _lists(s.experimental_local_results(regularization)) == [2.0, 2.0]
    with s.scope():
        with pytest.raises(RuntimeError, match="You are calling `compute_average_loss` in cross replica context, "
                                               "while it was expected to be called in replica context."):
            tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))
    assert float(tf.nn.compute_average_loss(tf.constant([1.0, 2.0, 3.0]))) == 2.0


def test_values_from_function_all_gather_and_iterators(two_cpus):
    s = two_cpus
    values = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([ctx.replica_id_in_sync_group * 10.0]))
    assert type(values).__name__ == "PerReplica" and _lists(s.experimental_local_results(values)) == [[0.0], [10.0]]
    gathered = s.run(lambda x: tf.distribute.get_replica_context().all_gather(x, axis=0), args=(values,))
    assert _lists(s.experimental_local_results(gathered)) == [[0.0, 10.0], [0.0, 10.0]]
    iterator = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(4)))
    assert _lists(s.experimental_local_results(iterator.get_next())) == [[0, 1], [2, 3]]
    with pytest.raises(tf.errors.OutOfRangeError):
        iterator.get_next()
    optional = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(4))).get_next_as_optional()
    assert optional.has_value().numpy()
    assert _lists(s.experimental_local_results(optional.get_value())) == [[0, 1], [2, 3]]
    assert not iterator.get_next_as_optional().has_value().numpy()


def test_one_input_pipeline_per_replica(two_cpus):
    s, seen = two_cpus, []

    def dataset_fn(ctx):
        seen.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync))
        return tf.data.Dataset.range(4).shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(1)

    options = tf.distribute.InputOptions(experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA,
                                         experimental_fetch_to_device=False)
    batches = [_lists(s.experimental_local_results(b))
               for b in s.distribute_datasets_from_function(dataset_fn, options)]
    assert seen == [(2, 0, 2), (2, 1, 2)] and batches == [[[0], [1]], [[2], [3]]]


def test_a_traced_step_takes_and_returns_per_replica_values_with_one_trace(two_cpus):
    s = two_cpus

    @tf.function
    def step(x):
        return s.run(lambda v: tf.distribute.get_replica_context().all_reduce("SUM", v * 2.0), args=(x,))

    dataset = tf.data.Dataset.range(12).map(lambda v: tf.cast(v, tf.float32)).batch(4)
    results = [_lists(s.experimental_local_results(step(batch)))
               for batch in s.experimental_distribute_dataset(dataset)]
    assert results == [[[4.0, 8.0]] * 2, [[20.0, 24.0]] * 2, [[36.0, 40.0]] * 2]
    assert step.experimental_get_tracing_count() == 1
    assert repr(next(iter(s.experimental_distribute_dataset(dataset)))._type_spec) == \
        "PerReplicaSpec([TensorSpec(shape=(2,), dtype=tf.float32, name=None), " \
        "TensorSpec(shape=(2,), dtype=tf.float32, name=None)])"
