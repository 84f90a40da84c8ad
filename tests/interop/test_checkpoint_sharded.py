"""Sharded and sliced checkpoints against real TensorFlow: a checkpoint TensorFlow spreads over many data files
(MaxShardSizePolicy) and a tf.compat.v1 partitioned variable restore into eagerflow with TensorFlow's values, and
TensorFlow reads and restores the sharded checkpoints eagerflow writes."""
import os

import numpy as np

import eagerflow as tf


def test_eagerflow_restores_a_checkpoint_tensorflow_sharded(tmp_path, run_tf):
    run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        ck = tf.train.Checkpoint(m=tf.Variable(np.arange(60, dtype=np.float32).reshape(6, 10)),
                                 s=tf.Variable([b"ab" * 50, b"c" * 70, b"d"]),
                                 i=tf.Variable(np.arange(40, dtype=np.int64).reshape(2, 4, 5)))
        policy = tf.train.experimental.MaxShardSizePolicy(max_shard_size=100)
        ck.write("sharded", options=tf.train.CheckpointOptions(experimental_sharding_callback=policy))
        print(json.dumps(None))
    """)
    assert len([f for f in os.listdir(tmp_path) if f.startswith("sharded.data-")]) > 5
    ck = tf.train.Checkpoint(m=tf.Variable(np.zeros((6, 10), np.float32)), s=tf.Variable([b"", b"", b""]),
                             i=tf.Variable(np.zeros((2, 4, 5), np.int64)))
    ck.read(str(tmp_path / "sharded")).assert_consumed()
    np.testing.assert_array_equal(ck.m.numpy(), np.arange(60, dtype=np.float32).reshape(6, 10))
    np.testing.assert_array_equal(ck.i.numpy(), np.arange(40).reshape(2, 4, 5))
    assert ck.s.numpy().tolist() == [b"ab" * 50, b"c" * 70, b"d"]


def test_eagerflow_reads_a_tf1_partitioned_variable(tmp_path, run_tf):
    expected = run_tf("""
        import json
        import tensorflow as tf
        tf.compat.v1.disable_eager_execution()
        with tf.Graph().as_default():
            emb = tf.compat.v1.get_variable("emb", shape=[7, 3],
                                            partitioner=tf.compat.v1.fixed_size_partitioner(3, axis=0))
            w = tf.compat.v1.get_variable("w", shape=[2, 5],
                                          partitioner=tf.compat.v1.fixed_size_partitioner(2, axis=1))
            with tf.compat.v1.Session() as session:
                session.run(tf.compat.v1.global_variables_initializer())
                tf.compat.v1.train.Saver().save(session, "./model", write_meta_graph=False)
                values = session.run([tf.convert_to_tensor(emb), tf.convert_to_tensor(w)])
        print(json.dumps({"emb": values[0].tolist(), "w": values[1].tolist()}))
    """)
    prefix = str(tmp_path / "model")
    assert tf.train.list_variables(prefix) == [("emb", [7, 3]), ("w", [2, 5])]
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "emb"), np.float32(expected["emb"]))
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "w"), np.float32(expected["w"]))


def test_tensorflow_restores_a_checkpoint_eagerflow_sharded(tmp_path, run_tf):
    ck = tf.train.Checkpoint(m=tf.Variable(np.arange(60, dtype=np.float32).reshape(6, 10)),
                             s=tf.Variable([b"ab" * 50, b"c"]), n=tf.Variable(np.int64(9)))
    policy = tf.train.experimental.MaxShardSizePolicy(max_shard_size=64)
    ck.write(str(tmp_path / "ours"), options=tf.train.CheckpointOptions(experimental_sharding_callback=policy))
    assert len([f for f in os.listdir(tmp_path) if f.startswith("ours.data-")]) > 3
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        ck = tf.train.Checkpoint(m=tf.Variable(np.zeros((6, 10), np.float32)), s=tf.Variable([b"", b""]),
                                 n=tf.Variable(np.int64(0)))
        ck.read("ours").assert_consumed()
        shapes = tf.train.load_checkpoint("ours").get_variable_to_shape_map()
        print(json.dumps({"m": ck.m.numpy().tolist(), "s": [v.decode() for v in ck.s.numpy()],
                          "n": int(ck.n.numpy()), "shape": shapes["m/.ATTRIBUTES/VARIABLE_VALUE"]}))
    """)
    assert answer == {"m": np.arange(60).reshape(6, 10).tolist(), "s": ["ab" * 50, "c"], "n": 9, "shape": [6, 10]}
