"""A hashed feature cross (keras.layers.HashedCrossing; eagerflow's chain of HashedCrossStep ops) saves in
TensorFlow's format as the op Keras' HashedCrossing runs on TensorFlow, SparseCross, and loads back
with the same bins. Expected values recorded from TensorFlow 2.21 with Keras 3.15 (HashedCrossing on the
same inputs, and tf.sparse.cross_hashed with num_buckets=0)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow._src.formats.protos import saved_model_pb2

A = ["A", "B", "A", "C", "B"]
B = [101, 102, 101, 7, -3]
C = ["x", "y", "z", "x", "y"]
TF_TWO = [1, 1, 1, 2, 3]                         # HashedCrossing(num_bins=5)((A, B))
TF_THREE = [95, 775, 114, 449, 871]              # HashedCrossing(num_bins=1000)((A, B, C))
TF_COLUMNS = [[1], [0], [0], [4], [0]]           # HashedCrossing(num_bins=7) of A, C as [5, 1]
TF_SCALAR = 6                                    # HashedCrossing(num_bins=7)(("A", 3))
TF_ONE_HOT = [[0, 0, 0, 1], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [0, 0, 1, 0]]  # num_bins=4, one_hot
TF_UNBUCKETED = [1126068114334019084, 7874245087545633769, 1126068114334019084, 6560573991629824727,
                 1440334100282668798]        # tf.sparse.cross_hashed([A, B] as [5, 1] columns, num_buckets=0)


class Crosses(tf.Module):
    def __init__(self):
        self.two = keras.layers.HashedCrossing(num_bins=5)
        self.three = keras.layers.HashedCrossing(num_bins=1000)
        self.columns = keras.layers.HashedCrossing(num_bins=7)
        self.one_hot = keras.layers.HashedCrossing(num_bins=4, output_mode="one_hot")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.int64),
                                  tf.TensorSpec([None], tf.string)])
    def cross(self, a, b, c):
        return {"two": self.two((a, b)), "three": self.three((a, b, c)),
                "columns": self.columns((tf.reshape(a, [-1, 1]), tf.reshape(c, [-1, 1]))),
                "one_hot": self.one_hot((a, b))}

    @tf.function(input_signature=[tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.int64)])
    def scalar(self, a, b):
        return self.columns((a, b))


def _check(out):
    assert out["two"].numpy().tolist() == TF_TWO and out["three"].numpy().tolist() == TF_THREE
    assert out["columns"].numpy().tolist() == TF_COLUMNS
    np.testing.assert_array_equal(out["one_hot"].numpy(), TF_ONE_HOT)


def test_hashed_crossing_saves_as_sparse_cross_hashed_and_loads_back(tmp_path):
    m = Crosses()
    inputs = (tf.constant(A), tf.constant(B, tf.int64), tf.constant(C))
    _check(m.cross(*inputs))
    tf.saved_model.save(m, str(tmp_path / "m"), signatures=m.cross)
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = [n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def]
    assert "HashedCrossStep" not in ops and "SparseCross" in ops
    back = tf.saved_model.load(str(tmp_path / "m"))
    _check(back.cross(*inputs))
    _check(back.signatures["serving_default"](a=inputs[0], b=inputs[1], c=inputs[2]))
    assert int(back.scalar(tf.constant("A"), tf.constant(3, tf.int64))) == TF_SCALAR


def test_an_unbucketed_cross_and_a_cross_read_midway(tmp_path):
    from eagerflow._src.ops.strings.hashed_cross import hashed_cross

    class Raw(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.int64)])
        def ids(self, a, b):
            return hashed_cross([a, b], 0)

    tf.saved_model.save(Raw(), str(tmp_path / "raw"))
    back = tf.saved_model.load(str(tmp_path / "raw"))
    assert back.ids(tf.constant(A), tf.constant(B, tf.int64)).numpy().tolist() == TF_UNBUCKETED

    from eagerflow._src.ops.registry import bind
    from eagerflow._src.ops.strings.hashed_cross import HashedCrossStep, initial_cross_value

    class Midway(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def ids(self, a):
            first = bind(HashedCrossStep, (initial_cross_value(), a), {"num_buckets": -1})
            return first + bind(HashedCrossStep, (first, a), {"num_buckets": 3})

    with pytest.raises(ValueError, match=r"a part of a hashed cross is read by another op"):
        tf.saved_model.save(Midway(), str(tmp_path / "mid"))
