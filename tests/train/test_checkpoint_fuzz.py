"""Fuzzing checkpoint restoration: random mutations of a checkpoint's `.index`, its `.data-K-of-N` files (one, or
many with tensors in slices and a lookup table's entries) and the object graph inside it.

Each case copies a checkpoint of a Keras model with an optimizer and a tf.Module, applies one mutation (a byte
flip, a truncation, an insertion, a zeroed run; or, as a hostile author would, a rewritten object graph with its
checksum made valid: node numbers out of range or pointing back at the root, checkpoint keys renamed, nodes
dropped or repeated) and restores it into fresh objects. Every case must end in one of two ways:
- the restore succeeds (a mutation may leave the values whole, or rename a value so it is not matched);
- it raises tf.errors.DataLossError naming a file of the checkpoint, or the TensorFlow errors a mismatch gives
  (NotFoundError for a missing file, InvalidArgumentError for another dtype, ValueError for another shape).
No other exception, no hang (each case is bounded by an alarm), no large allocation.

FUZZ_CASES cases run in the normal suite; set EAGERFLOW_FUZZ_CASES (e.g. 5000) for a long run.
"""
import os
import random
import shutil
import signal

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow._src.formats import tensor_bundle

FUZZ_CASES = int(os.environ.get("EAGERFLOW_FUZZ_CASES", "200"))
CASE_SECONDS = 10
GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"


def _objects(with_table=False):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.BatchNormalization(),
                              keras.layers.Dense(2)])
    model.compile(keras.optimizers.Adam(0.01), "mse")
    module = tf.Module()
    module.words = tf.Variable([b"a", b"bc"])
    module.table = [tf.Variable(np.arange(6, dtype=np.int64).reshape(2, 3))]
    if with_table:
        module.lookup = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        module.lookup.insert(tf.constant([b"k", b"l"]), tf.constant([1, 2], tf.int64))
    return model, module


@pytest.fixture(scope="module", params=["one_shard", "sharded"])
def original(request, tmp_path_factory):
    """The checkpoint to mutate: in one data file, or spread over many with tensors cut in slices (and a
    MutableHashTable saved as TensorFlow saves tables)."""
    model, module = _objects(with_table=request.param == "sharded")
    x, y = np.random.default_rng(0).random((4, 3), np.float32), np.ones((4, 2), np.float32)
    model.fit(x, y, epochs=1, verbose=0)
    prefix = str(tmp_path_factory.mktemp("fuzz") / "ck")
    options = None
    if request.param == "sharded":
        options = tf.train.CheckpointOptions(
            experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(max_shard_size=40))
    tf.train.Checkpoint(model=model, optimizer=model.optimizer, module=module).write(prefix, options=options)
    return prefix


def _mutate_bytes(data: bytes, rng) -> bytes:
    data = bytearray(data)
    kind = rng.choice(["flip", "truncate", "insert", "zero"])
    at = rng.randrange(max(len(data), 1))
    if kind == "flip" and data:
        data[at] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        del data[at:]
    elif kind == "insert":
        data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    else:
        data[at:at + rng.randrange(1, 17)] = bytes(len(data[at:at + 16]))
    return bytes(data)


def _mutate_graph(prefix, rng) -> None:
    """Rewrite the object graph (a hostile author): the bundle is written anew, so its checksums are valid."""
    from eagerflow._src.formats.protos import trackable_object_graph_pb2
    reader = tensor_bundle.BundleReader(prefix)
    tensors = {key: (reader.read(key), reader.dtype(key)) for key in reader.keys()}
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(bytes(tensors[GRAPH_KEY][0].item()))
    node = graph.nodes[rng.randrange(len(graph.nodes))]
    kind = rng.choice(["child_out_of_range", "child_to_root", "rename_key", "drop_node", "repeat_child",
                       "negative_child", "rename_child"])
    if kind in ("child_out_of_range", "child_to_root", "negative_child"):
        target = {"child_out_of_range": len(graph.nodes) + rng.randrange(1, 10 ** 6), "child_to_root": 0,
                  "negative_child": -rng.randrange(1, 100)}[kind]
        node.children.add(node_id=target, local_name=rng.choice(["x", "_kernel", "0", "optimizer"]))
    elif kind == "rename_key" and node.attributes:
        node.attributes[0].checkpoint_key = rng.choice(["", "nothere", GRAPH_KEY, "x" * 1000])
    elif kind == "drop_node" and len(graph.nodes) > 1:
        del graph.nodes[rng.randrange(1, len(graph.nodes))]
    elif kind == "repeat_child" and node.children:
        child = node.children[rng.randrange(len(node.children))]
        for _ in range(rng.randrange(1, 50)):
            node.children.add(node_id=child.node_id, local_name=child.local_name)
    elif kind == "rename_child" and node.children:
        node.children[rng.randrange(len(node.children))].local_name = rng.choice(["", "..", "/", "é", "_kernel"])
    tensors[GRAPH_KEY] = (np.array(graph.SerializeToString(), object), tf.string)
    tensor_bundle.write_bundle(prefix, tensors)


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def test_mutated_checkpoints_restore_or_raise_framework_errors(original, tmp_path):
    folder = os.path.dirname(original)
    files = sorted(os.path.join(folder, name) for name in os.listdir(folder))
    with_table = len(files) > 2
    rng = random.Random(1234)
    outcomes = {"restored": 0, "refused": 0}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        for case in range(FUZZ_CASES):
            prefix = str(tmp_path / f"case{case % 4}" / "ck")
            os.makedirs(os.path.dirname(prefix), exist_ok=True)
            for path in files:
                shutil.copyfile(path, prefix + path[len(original):])
            if rng.random() < 0.3:
                _mutate_graph(prefix, rng)
            else:
                target = prefix + rng.choice(files)[len(original):]
                with open(target, "rb") as fh:
                    data = fh.read()
                with open(target, "wb") as fh:
                    fh.write(_mutate_bytes(data, rng))
            model, module = _objects(with_table)
            signal.alarm(CASE_SECONDS)
            try:
                status = tf.train.Checkpoint(model=model, optimizer=model.optimizer, module=module).read(prefix)
                model.optimizer.build(model.trainable_variables)
                status.expect_partial()
                outcomes["restored"] += 1
            except tf.errors.DataLossError as err:
                assert str(err).startswith(os.path.dirname(prefix)), (case, str(err)[:300])
                outcomes["refused"] += 1
            except (tf.errors.NotFoundError, tf.errors.InvalidArgumentError) as err:
                assert "not found" in str(err) or "does not equal original dtype" in str(err) or \
                    "do not fit its value shape" in str(err), (case, str(err))
                outcomes["refused"] += 1
            except ValueError as err:
                assert str(err).startswith("Received incompatible tensor with shape"), (case, str(err)[:300])
                outcomes["refused"] += 1
            except _Timeout:
                pytest.fail(f"case {case}: restoring took over {CASE_SECONDS} s")
            finally:
                signal.alarm(0)
            shutil.rmtree(os.path.dirname(prefix))
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert outcomes["refused"] > FUZZ_CASES // 4 and outcomes["restored"] > 0, outcomes
