"""IsJpeg and UnicodeCharSplit, written as the TensorFlow ops computing them, run in real TensorFlow
2.21 with eagerflow's values."""
import eagerflow as tf

from tests.saved_model.test_composite_export import EXPECTED, STRINGS, _Characters


def test_tensorflow_runs_eagerflows_is_jpeg_and_character_split(tmp_path, run_tf):
    m = _Characters()
    tf.saved_model.save(m, str(tmp_path / "m"))
    mine = {k: v.numpy().tolist() for k, v in m.run(tf.constant(STRINGS)).items()}
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        out = m.run(tf.constant({STRINGS!r}))
        print(json.dumps({{k: v.numpy().tolist() for k, v in out.items()}}))
    """)
    assert answer == mine == EXPECTED
