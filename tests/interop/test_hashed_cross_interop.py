"""keras.layers.HashedCrossing saved by eagerflow (as TensorFlow's SparseCross) runs in real
TensorFlow 2.21 and gives the bins Keras 3's own HashedCrossing gives there."""
import eagerflow as tf

from tests.saved_model.test_hashed_cross_export import A, B, C, TF_COLUMNS, TF_ONE_HOT, TF_SCALAR, TF_THREE, \
    TF_TWO, Crosses


def test_tensorflow_runs_eagerflows_hashed_crossing(tmp_path, run_tf):
    m = Crosses()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures=m.cross)
    answer = run_tf(f"""
        import json
        import keras
        import tensorflow as tf
        m = tf.saved_model.load("m")
        a, b, c = tf.constant({A!r}), tf.constant({B!r}, tf.int64), tf.constant({C!r})
        out = {{k: v.numpy().tolist() for k, v in m.signatures["serving_default"](a=a, b=b, c=c).items()}}
        out["scalar"] = int(m.scalar(tf.constant("A"), tf.constant(3, tf.int64)))
        out["own_three"] = keras.layers.HashedCrossing(num_bins=1000)((a, b, c)).numpy().tolist()
        print(json.dumps(out))
    """)
    assert answer["two"] == TF_TWO and answer["three"] == TF_THREE == answer["own_three"]
    assert answer["columns"] == TF_COLUMNS and answer["one_hot"] == TF_ONE_HOT and answer["scalar"] == TF_SCALAR
