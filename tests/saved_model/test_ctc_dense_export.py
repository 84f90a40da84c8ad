"""tf.nn.ctc_loss with dense labels (eagerflow's CTCLossDense) saves in TensorFlow's format as TensorFlow
writes its dense CTC loss: ordinary ops with the forward-backward in While loops (here a called function,
no eagerflow op), and loads back with the same loss and gradient. Expected values recorded from TensorFlow
2.21 on the same inputs (tf.nn.ctc_loss, and tf.GradientTape's gradient of a weighted sum of the losses):
the third label cannot fit its 4 frames, and TensorFlow's dense loss is then a large finite number."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

T, B, C = 5, 3, 4
LOGITS = (np.sin(np.arange(T * B * C, dtype=np.float32).reshape(T, B, C) * 0.7) * 2).astype(np.float32)
LABELS = [[1, 2, 2], [3, 1, 0], [1, 1, 1]]
LABEL_LENGTH, LOGIT_LENGTH = [3, 2, 3], [5, 5, 4]
WEIGHTS = [1.0, 2.0, 0.5]
TF_LOSS = [7.55109167098999, 4.135276794433594, 711.9932861328125]
TF_LOSS_BLANK_2 = [9.255585670471191, 5.487466812133789, 710.6956787109375]  # batch-major, blank_index=2
TF_GRADIENT_STEP_0 = [[0.04083021730184555, -0.7752821445465088, 0.411893367767334, 0.32255828380584717],
                      [-0.44471442699432373, 0.3586136996746063, 0.1265529990196228, -0.04045230150222778],
                      [-0.09585835039615631, -0.3504026234149933, 0.1518210768699646, 0.2944372296333313]]


class Ctc(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, None, C], tf.float32), tf.TensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)])
    def loss(self, logits, labels, label_length, logit_length):
        return tf.nn.ctc_loss(labels, logits, label_length, logit_length, blank_index=0)

    @tf.function(input_signature=[tf.TensorSpec([None, None, C], tf.float32), tf.TensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)])
    def batch_major(self, logits, labels, label_length, logit_length):
        return tf.nn.ctc_loss(labels, logits, label_length, logit_length, logits_time_major=False, blank_index=2)

    @tf.function(input_signature=[tf.TensorSpec([None, None, C], tf.float32), tf.TensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None], tf.int32), tf.TensorSpec([None], tf.int32)])
    def gradient(self, logits, labels, label_length, logit_length):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            loss = tf.nn.ctc_loss(labels, logits, label_length, logit_length, blank_index=0)
            total = tf.reduce_sum(loss * tf.constant(WEIGHTS))
        return tape.gradient(total, logits)


def inputs():
    return (tf.constant(LOGITS), tf.constant(LABELS, tf.int32), tf.constant(LABEL_LENGTH, tf.int32),
            tf.constant(LOGIT_LENGTH, tf.int32))


def check(module):
    np.testing.assert_allclose(module.loss(*inputs()).numpy(), TF_LOSS, rtol=1e-5)
    logits, *rest = inputs()
    np.testing.assert_allclose(module.batch_major(tf.transpose(logits, [1, 0, 2]), *rest).numpy(), TF_LOSS_BLANK_2,
                               rtol=1e-5)
    gradient = module.gradient(*inputs()).numpy()
    np.testing.assert_allclose(gradient[0], TF_GRADIENT_STEP_0, rtol=1e-4, atol=1e-6)
    assert np.all(gradient[4, 2] == 0.0)  # past the third sequence's 4 frames


def test_dense_ctc_loss_saves_as_tensorflow_ops_and_loads_back(tmp_path):
    m = Ctc()
    check(m)
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = {n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert "CTCLossDense" not in ops and {"PartitionedCall", "StatelessWhile", "TensorScatterUpdate"} <= ops
    check(tf.saved_model.load(str(tmp_path / "m")))
