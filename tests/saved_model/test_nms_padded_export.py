"""tf.image.non_max_suppression_padded (eagerflow's NonMaxSuppressionPaddedV2) saves in TensorFlow's format as
TensorFlow builds it: ordinary ops with the tiled suppression in While loops (a called function, no eagerflow
op), and loads back with the same indices and counts. Expected values recorded from TensorFlow 2.21 on the
same boxes (two images, the second the first reversed) with max_output_size=6 and iou_threshold=0.5."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

_Y = np.array([0.0, 0.05, 0.5, 0.52, 0.1, 0.6, 0.0, 0.3], np.float32)
_X = np.array([0.0, 0.02, 0.5, 0.49, 0.6, 0.0, 0.01, 0.3], np.float32)
_ONE = np.stack([_Y, _X, _Y + np.float32(0.4), _X + np.float32(0.4)], -1)
BOXES = np.stack([_ONE, _ONE[::-1]])
SCORES = np.array([[0.9, 0.8, 0.7, 0.75, 0.6, 0.5, 0.85, 0.4], [0.3, 0.9, 0.8, 0.8, 0.2, 0.6, 0.5, 0.7]], np.float32)
TF_WHOLE = ([[0, 3, 4, 5, 7, 0], [1, 2, 3, 5, 0, 0]], [5, 5])          # tile_size=512, no score threshold
TF_TILED = ([[0, 3, 4, 5, 0, 0], [1, 2, 3, 5, 0, 0]], [4, 4])          # tile_size=2, score_threshold=0.45


class Detector(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, None, 4]), tf.TensorSpec([None, None])])
    def whole(self, boxes, scores):
        return tf.image.non_max_suppression_padded(boxes, scores, 6, 0.5, pad_to_max_output_size=True)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 4]), tf.TensorSpec([None, None])])
    def tiled(self, boxes, scores):
        return tf.image.non_max_suppression_padded(boxes, scores, 6, 0.5, 0.45, pad_to_max_output_size=True,
                                                   tile_size=2)


def check(module):
    for method, (indices, valid) in (("whole", TF_WHOLE), ("tiled", TF_TILED)):
        got = getattr(module, method)(tf.constant(BOXES), tf.constant(SCORES))
        assert got[0].dtype == tf.int32 and got[0].numpy().tolist() == indices, method
        assert got[1].numpy().tolist() == valid, method


def test_padded_nms_saves_as_tensorflow_ops_and_loads_back(tmp_path):
    m = Detector()
    check(m)
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = {n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert "NonMaxSuppressionPaddedV2" not in ops and {"PartitionedCall", "StatelessWhile", "TopKV2"} <= ops
    check(tf.saved_model.load(str(tmp_path / "m")))


# Two images of zero boxes: TensorFlow 2.21's answer where its own non_max_suppression_padded runs on zero boxes
# (sorted_input and canonicalized_coordinates set; tests/ops/test_image_nms.py), indices zero-padded to 6.
NO_BOXES, NO_SCORES = np.zeros((2, 0, 4), np.float32), np.zeros((2, 0), np.float32)
TF_NO_BOXES = [[[0] * 6, [0] * 6], [0, 0]]


def check_no_boxes(module):
    for method in ("whole", "tiled"):
        got = getattr(module, method)(tf.constant(NO_BOXES), tf.constant(NO_SCORES))
        assert [t.numpy().tolist() for t in got] == TF_NO_BOXES, method


def test_padded_nms_on_zero_boxes_saves_and_loads_back(tmp_path):
    m = Detector()
    check_no_boxes(m)
    tf.saved_model.save(m, str(tmp_path / "m"))
    check_no_boxes(tf.saved_model.load(str(tmp_path / "m")))
