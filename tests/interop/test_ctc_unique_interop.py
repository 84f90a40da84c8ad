"""tf.nn.ctc_unique_labels saved by eagerflow (as TensorFlow ops without a loop) runs in real TensorFlow
2.21 with the values TensorFlow's own tf.nn.ctc_unique_labels gives."""
import eagerflow as tf

from tests.saved_model.test_ctc_unique_export import INDEX, LABELS, UNIQUE, _Unique


def test_tensorflow_runs_eagerflows_ctc_unique_labels(tmp_path, run_tf):
    tf.saved_model.save(_Unique(), str(tmp_path / "m"))
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        out = {{}}
        for dtype in (tf.int32, tf.int64):
            labels = tf.constant({LABELS!r}, dtype)
            unique, index = getattr(m, dtype.name)(labels)
            own = tf.nn.ctc_unique_labels(labels)
            out[dtype.name] = [unique.dtype.name, unique.numpy().tolist(), index.dtype.name, index.numpy().tolist(),
                               own[0].numpy().tolist(), own[1].numpy().tolist()]
        print(json.dumps(out))
    """)
    for name in ("int32", "int64"):
        assert answer[name] == ["int64", UNIQUE, "int32", INDEX, UNIQUE, INDEX], name
