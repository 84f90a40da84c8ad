"""tf.linalg's diagonal ops (k, num_rows, num_cols, padding_value, align) and tf.fingerprint saved by
eagerflow run in real TensorFlow 2.21 with eagerflow's values: their attributes were written as the
Const inputs TensorFlow's ops take."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_attr_input_export import EXPECTED, _Diagonals, _inputs


def test_tensorflow_runs_eagerflows_diagonal_and_fingerprint_ops(tmp_path, run_tf):
    m = _Diagonals()
    tf.saved_model.save(m, str(tmp_path / "m"))
    assert not (tmp_path / "m" / "saved_model.json").exists()
    mine = {k: v.numpy().tolist() for k, v in m.run(*_inputs()).items()}
    answer = run_tf("""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("m")
        x = tf.constant(np.arange(1, 13, dtype=np.float32).reshape(3, 4))
        out = m.run(x, tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([-1.0, -2.0, -3.0]),
                    tf.constant(["a", "hello"]))
        print(json.dumps({k: v.numpy().tolist() for k, v in out.items()}))
    """)
    assert sorted(answer) == sorted(EXPECTED)
    for key in EXPECTED:
        np.testing.assert_array_equal(np.array(answer[key]), np.array(mine[key]), err_msg=key)
        np.testing.assert_array_equal(np.array(answer[key]), np.array(EXPECTED[key]), err_msg=key)
