"""A `for` loop over a shuffled dataset made inside a tf.function, saved by eagerflow (the shuffle order as
Philox draws and a ring buffer in a While loop), runs in real TensorFlow 2.21 with eagerflow's orders."""
import eagerflow as tf

from tests.saved_model.test_shuffle_order_export import Shuffled


def test_tensorflow_runs_eagerflows_shuffled_loop(tmp_path, run_tf):
    m = Shuffled()
    expected = [int(m.weighted()), m.sequence().numpy().tolist()]
    tf.saved_model.save(m, str(tmp_path / "m"))
    answer = run_tf("""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        print(json.dumps([int(m.weighted()), m.sequence().numpy().tolist(), int(m.weighted())]))
    """)
    assert answer == expected + [expected[0]]  # each call draws its orders afresh from the same seeds
