"""tf.nn.ctc_loss with dense labels saved by eagerflow (ordinary ops with the forward-backward in While
loops, no eagerflow op) runs in real TensorFlow 2.21: the loss, the batch-major loss with another blank,
and a gradient through it equal TensorFlow's own tf.nn.ctc_loss on the same inputs."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_ctc_dense_export import LABEL_LENGTH, LABELS, LOGIT_LENGTH, LOGITS, TF_LOSS, WEIGHTS, \
    Ctc


def test_tensorflow_runs_eagerflows_dense_ctc_loss(tmp_path, run_tf):
    tf.saved_model.save(Ctc(), str(tmp_path / "m"))
    answer = run_tf(f"""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("m")
        logits = tf.constant(np.array({LOGITS.tolist()!r}, np.float32))
        rest = (tf.constant({LABELS!r}), tf.constant({LABEL_LENGTH!r}), tf.constant({LOGIT_LENGTH!r}))
        out = {{"loss": m.loss(logits, *rest).numpy().tolist(),
                "batch_major": m.batch_major(tf.transpose(logits, [1, 0, 2]), *rest).numpy().tolist(),
                "gradient": m.gradient(logits, *rest).numpy().tolist()}}
        with tf.GradientTape() as tape:
            tape.watch(logits)
            own = tf.nn.ctc_loss(rest[0], logits, rest[1], rest[2], blank_index=0)
            total = tf.reduce_sum(own * tf.constant({WEIGHTS!r}))
        out["own_loss"] = own.numpy().tolist()
        out["own_gradient"] = tape.gradient(total, logits).numpy().tolist()
        out["own_batch_major"] = tf.nn.ctc_loss(rest[0], tf.transpose(logits, [1, 0, 2]), rest[1], rest[2],
                                                logits_time_major=False, blank_index=2).numpy().tolist()
        print(json.dumps(out))
    """)
    np.testing.assert_allclose(answer["loss"], TF_LOSS, rtol=1e-5)
    np.testing.assert_allclose(answer["loss"], answer["own_loss"], rtol=1e-5)
    np.testing.assert_allclose(answer["batch_major"], answer["own_batch_major"], rtol=1e-5)
    np.testing.assert_allclose(answer["gradient"], answer["own_gradient"], rtol=1e-4, atol=1e-5)
