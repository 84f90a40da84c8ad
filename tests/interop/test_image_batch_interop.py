"""A function iterating keras.utils.image_dataset_from_directory, saved by eagerflow (LoadImageBatch written as
ReadFile, DecodeImage and the resize mapped over the paths), runs in real TensorFlow 2.21 with TensorFlow's own
kernels and gives eagerflow's sums. PNG files only: TensorFlow's default JPEG decoding (its fast integer IDCT)
differs from eagerflow's by a few levels (tests/interop/test_jpeg_against_tensorflow.py)."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_image_batch_export import CONFIGS, Summed, write_folder


def test_tensorflow_runs_eagerflows_image_batches(tmp_path, run_tf):
    root = write_folder(str(tmp_path / "images"), jpeg=False)
    expected = {}
    for i, config in enumerate(CONFIGS):
        m = Summed(root, config)
        expected[i] = m.total().numpy()
        tf.saved_model.save(m, str(tmp_path / f"m{i}"))
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        print(json.dumps([tf.saved_model.load(f"m{{i}}").total().numpy().tolist() for i in range({len(CONFIGS)})]))
    """)
    for i, got in enumerate(answer):
        np.testing.assert_allclose(np.array(got, np.float32), expected[i], rtol=1e-5, atol=1e-3, err_msg=str(CONFIGS[i]))
