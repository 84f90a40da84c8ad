"""MutableHashTable checkpoints against real TensorFlow: TensorFlow restores the table eagerflow saved (and the
other way round), entries and default intact."""
import numpy as np

import eagerflow as tf


def test_tables_travel_both_ways(tmp_path, run_tf):
    m = tf.Module()
    m.mut = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    m.mut.insert(tf.constant(["b", "a", "c"]), tf.constant([2, 1, 3], tf.int64))
    m.v = tf.Variable(np.float32(4.5))
    tf.train.Checkpoint(m=m).write(str(tmp_path / "ours"))
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.Module()
        m.mut = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        m.v = tf.Variable(np.float32(0))
        tf.train.Checkpoint(m=m).read("ours").assert_consumed()
        got = m.mut.lookup(tf.constant(["a", "b", "c", "d"])).numpy().tolist()
        m.mut.insert(tf.constant(["e"]), tf.constant([5], tf.int64))
        tf.train.Checkpoint(m=m).write("theirs")
        print(json.dumps({"lookup": got, "v": float(m.v.numpy())}))
    """)
    assert answer == {"lookup": [1, 2, 3, -1], "v": 4.5}
    back = tf.Module()
    back.mut = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    back.v = tf.Variable(np.float32(0))
    tf.train.Checkpoint(m=back).read(str(tmp_path / "theirs")).assert_consumed()
    assert back.mut.lookup(tf.constant(["a", "b", "c", "e", "z"])).numpy().tolist() == [1, 2, 3, 5, -1]
