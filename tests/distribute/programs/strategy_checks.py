"""The strategy API across processes, for the multi-process tests: `mpiexec -n N python strategy_checks.py OUT`.
Each worker writes what it saw to OUT/rank<r>.json (test output)."""
import json
import os
import sys

import numpy as np

import eagerflow as tf

out = sys.argv[1]
strategy = tf.distribute.MultiWorkerMirroredStrategy()
rank = strategy.cluster_resolver.task_id or 0
seen = {"num_replicas_in_sync": strategy.num_replicas_in_sync, "devices": list(strategy.extended.worker_devices),
        "should_checkpoint": strategy.extended.should_checkpoint}

with strategy.scope():
    v = tf.Variable(np.float32(rank + 10))  # every worker gets the chief's initial value
seen["variable"] = float(v.numpy())


def replica_fn(x):
    ctx = tf.distribute.get_replica_context()
    scaled = x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
    return ctx.replica_id_in_sync_group, ctx.all_reduce("SUM", scaled), ctx.all_reduce("MEAN", scaled)


replica_id, summed, mean = strategy.run(replica_fn, args=(tf.constant([1.0, 2.0]),))
seen.update(replica_id=int(replica_id), all_reduce_sum=summed.numpy().tolist(), all_reduce_mean=mean.numpy().tolist())
local = tf.constant([float(rank)] * (rank + 1))
seen["reduce_sum_axis0"] = float(strategy.reduce("SUM", local, axis=0))
seen["reduce_mean_axis0"] = float(strategy.reduce("MEAN", local, axis=0))
seen["reduce_sum"] = strategy.reduce("SUM", tf.constant([float(rank), 1.0]), axis=None).numpy().tolist()
seen["gather"] = strategy.gather(local, axis=0).numpy().tolist()


@tf.function
def traced(x):
    return strategy.run(lambda y: tf.distribute.get_replica_context().all_reduce("SUM", y), args=(x,))


seen["traced"] = [traced(tf.constant([float(rank), 1.0])).numpy().tolist() for _ in range(2)]

ON_READ, SUM, MEAN = tf.VariableSynchronization.ON_READ, tf.VariableAggregation.SUM, tf.VariableAggregation.MEAN
with strategy.scope():
    counted = tf.Variable(0.0, synchronization=ON_READ, aggregation=SUM)
    averaged = tf.Variable(0.0, synchronization=ON_READ, aggregation=MEAN)
    summed_on_write = tf.Variable(0.0, aggregation=SUM)
    mean_on_write = tf.Variable(0.0, aggregation=MEAN)


def update_variables():
    r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0
    counted.assign_add(r)
    averaged.assign(r)
    summed_on_write.assign(r)
    mean_on_write.assign(r)
    return counted.read_value()  # in the replica: its own value


seen["variable_types"] = [type(counted).__name__, type(summed_on_write).__name__]
seen["on_read_local"] = float(strategy.run(update_variables))
seen["on_read"] = [float(counted.numpy()), float(averaged.numpy())]  # across the replicas: SUM, MEAN
seen["on_write"] = [float(summed_on_write.numpy()), float(mean_on_write.numpy())]
counted.assign(10.0)  # a SUM variable assigned across replicas: each keeps its share
seen["on_read_assigned"] = [float(strategy.experimental_local_results(counted)[0].numpy()), float(counted.numpy())]


@tf.function
def add_one_in_each_replica():
    strategy.run(lambda: summed_on_write.assign_add(1.0))


add_one_in_each_replica()
add_one_in_each_replica()
seen["traced_on_write"] = float(summed_on_write.numpy())


def elements(dataset):
    return [b.numpy().tolist() for b in strategy.experimental_distribute_dataset(dataset)]


def with_policy(dataset, policy):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = policy
    return dataset.with_options(options)


policies = tf.data.experimental.AutoShardPolicy
seen["data"] = elements(with_policy(tf.data.Dataset.range(20).batch(4), policies.DATA))
seen["auto"] = elements(tf.data.Dataset.range(20).batch(4))
seen["off"] = elements(with_policy(tf.data.Dataset.range(8).batch(4), policies.OFF))
files = sorted(os.path.join(out, name) for name in os.listdir(out) if name.endswith(".tfrecord"))
records = tf.data.TFRecordDataset(files).map(lambda r: tf.strings.to_number(r, tf.int64)).batch(2)
seen["file"] = elements(with_policy(records, policies.FILE))
seen["file_auto"] = elements(records)
try:
    elements(with_policy(tf.data.Dataset.range(4).batch(2), policies.FILE))
except tf.errors.NotFoundError as error:
    seen["file_error"] = str(error)
seen["from_function"] = [b.numpy().tolist() for b in strategy.distribute_datasets_from_function(
    lambda ctx: tf.data.Dataset.range(12).shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(
        ctx.get_per_replica_batch_size(4)))]
with open(os.path.join(out, f"rank{rank}.json"), "w") as f:
    json.dump(seen, f)
