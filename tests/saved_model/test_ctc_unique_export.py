"""tf.nn.ctc_unique_labels (CTCUniqueLabels) saves in TensorFlow's format as TensorFlow ops without a loop
(comparisons of every pair of positions, a cumulative sum, sums of masked products) and loads back with
TensorFlow 2.21's values, for int32 and int64 labels."""
import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

LABELS = [[3, 4, 4, 3, 7], [1, 1, 2, 0, 0], [5, 5, 5, 5, 5], [0, 9, 8, 9, 0]]
# Recorded from TensorFlow 2.21: tf.nn.ctc_unique_labels(LABELS), the same for int32 and int64.
UNIQUE = [[3, 4, 7, 0, 0], [1, 2, 0, 0, 0], [5, 0, 0, 0, 0], [0, 9, 8, 0, 0]]
INDEX = [[0, 1, 1, 0, 2], [0, 0, 1, 2, 2], [0, 0, 0, 0, 0], [0, 1, 2, 1, 0]]


class _Unique(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def int32(self, labels):
        return tf.nn.ctc_unique_labels(labels)

    @tf.function(input_signature=[tf.TensorSpec([None, 5], tf.int64)])
    def int64(self, labels):
        return tf.nn.ctc_unique_labels(labels)


def _check(unique, index):
    assert unique.dtype == tf.int64 and index.dtype == tf.int32
    assert unique.numpy().tolist() == UNIQUE and index.numpy().tolist() == INDEX


def test_ctc_unique_labels_save_in_tensorflows_format_and_load_back(tmp_path, caplog):
    m = _Unique()
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text
    assert not (tmp_path / "m" / "saved_model.json").exists()
    back = tf.saved_model.load(str(tmp_path / "m"))
    for module in (m, back):
        _check(*module.int32(tf.constant(LABELS, tf.int32)))
        _check(*module.int64(tf.constant(LABELS, tf.int64)))
    single = back.int32(tf.constant([[2]], tf.int32))
    assert single[0].numpy().tolist() == [[2]] and single[1].numpy().tolist() == [[0]]
    empty = back.int32(tf.zeros([2, 0], tf.int32))
    assert empty[0].shape == (2, 0) == empty[1].shape


def test_the_rule_writes_no_eagerflow_op(tmp_path):
    tf.saved_model.save(_Unique(), str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = {n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert "CTCUniqueLabels" not in ops and {"Equal", "Cumsum", "Sum", "SelectV2"} <= ops
