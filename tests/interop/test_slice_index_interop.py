"""Slices with int64 bounds saved by eagerflow load and run in real TensorFlow 2.21 (before, TensorFlow refused the
graph: a StridedSlice mixing int32 and int64 begin/end/strides)."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_slice_index_export import X, Slicer


def test_tensorflow_runs_int64_bounded_slices(tmp_path, run_tf):
    tf.saved_model.save(Slicer(), str(tmp_path / "m"))
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        x = tf.constant({X.tolist()!r})
        print(json.dumps([m.bounded(x).numpy().tolist(), m.picked(x).numpy().tolist(),
                          m.from_index(x, tf.constant(1, tf.int64)).numpy().tolist()]))
    """)
    assert answer == [X[1:4, :2].tolist(), X[2].tolist(), X[1:, 1:].tolist()]
