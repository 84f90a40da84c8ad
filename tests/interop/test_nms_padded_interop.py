"""tf.image.non_max_suppression_padded saved by eagerflow (ordinary ops with the tiled suppression in While
loops) runs in real TensorFlow 2.21 and returns what TensorFlow's own non_max_suppression_padded returns."""
import eagerflow as tf

from tests.saved_model.test_nms_padded_export import (BOXES, NO_BOXES, SCORES, TF_NO_BOXES, TF_TILED, TF_WHOLE,
                                                      Detector)


def test_tensorflow_runs_eagerflows_padded_nms(tmp_path, run_tf):
    tf.saved_model.save(Detector(), str(tmp_path / "m"))
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        boxes, scores = tf.constant({BOXES.tolist()!r}), tf.constant({SCORES.tolist()!r})
        out = {{}}
        for method, tile, threshold in (("whole", 512, float("-inf")), ("tiled", 2, 0.45)):
            got = getattr(m, method)(boxes, scores)
            own = tf.image.non_max_suppression_padded(boxes, scores, 6, 0.5, threshold, pad_to_max_output_size=True,
                                                      tile_size=tile)
            out[method] = [[t.numpy().tolist() for t in got], [t.numpy().tolist() for t in own]]
            empty = getattr(m, method)(tf.zeros({list(NO_BOXES.shape)!r}), tf.zeros({list(NO_BOXES.shape[:-1])!r}))
            out[method + "_no_boxes"] = [t.numpy().tolist() for t in empty]
        print(json.dumps(out))
    """)
    for method, expected in (("whole", TF_WHOLE), ("tiled", TF_TILED)):
        ours, theirs = answer[method]
        assert ours == theirs == [expected[0], expected[1]], method
        assert answer[method + "_no_boxes"] == TF_NO_BOXES, method  # the saved graph runs on zero boxes in TensorFlow
