"""A function iterating keras.utils.image_dataset_from_directory (batches loaded by eagerflow's LoadImageBatch)
saves in TensorFlow's format as TensorFlow's ops: the per-file chain the op stands for (ReadFile, DecodeImage,
the crop or padding, the resize) mapped over each batch's paths in a While loop writing a TensorList. Loaded back,
the function gives the same sums bit for bit, for each interpolation the op runs, with a crop, with padding and
channels first. (TensorFlow runs the saved function too: tests/interop/test_image_batch_interop.py.)"""
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow._src.formats.protos import saved_model_pb2

SHAPES = [(10, 14), (7, 7), (12, 9), (9, 16), (5, 6)]
CONFIGS = [dict(interpolation="bilinear"), dict(interpolation="nearest", crop_to_aspect_ratio=True),
           dict(interpolation="area", pad_to_aspect_ratio=True),
           dict(interpolation="bicubic", data_format="channels_first")]
TRUSTED = tf.saved_model.LoadOptions(eagerflow_allow_file_access=True)  # the loaded function reads image files


def write_folder(root, jpeg=True):
    """Two classes of PNG files (and JPEG files, every other one, when `jpeg`), of mixed sizes."""
    rng = np.random.default_rng(0)
    for i, (h, w) in enumerate(SHAPES):
        pixels = tf.constant(rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
        as_jpeg = jpeg and i % 2 == 0
        data = (tf.io.encode_jpeg(pixels) if as_jpeg else tf.io.encode_png(pixels)).numpy()
        os.makedirs(os.path.join(root, "ab"[i % 2]), exist_ok=True)
        with open(os.path.join(root, "ab"[i % 2], f"{i}.{'jpg' if as_jpeg else 'png'}"), "wb") as f:
            f.write(data)
    return root


class Summed(tf.Module):
    """Each batch's images summed over the batch, weighted by its labels, then summed over the batches."""

    def __init__(self, root, config):
        super().__init__()
        self.root, self.config = root, config
        height, width = 8, 10
        self.shape = [3, height, width] if config.get("data_format") == "channels_first" else [height, width, 3]

    @tf.function(input_signature=[])
    def total(self):
        images = keras.utils.image_dataset_from_directory(self.root, batch_size=2, image_size=(8, 10), shuffle=False,
                                                          verbose=False, **self.config)
        s = tf.zeros(self.shape)
        for batch, labels in images:
            s += tf.reduce_sum(tf.cast(batch, tf.float32), 0) * tf.cast(tf.reduce_sum(labels) + 1, tf.float32)
        return s


def _per_file_sum(root, config):
    """The same sum from the dataset without a batch size, whose map runs the per-file chain eagerly."""
    images = keras.utils.image_dataset_from_directory(root, batch_size=None, image_size=(8, 10), shuffle=False,
                                                      verbose=False, **config).batch(2)
    return sum(np.sum(np.asarray(b, np.float32), 0) * np.float32(np.sum(np.asarray(labels)) + 1)
               for b, labels in images.as_numpy_iterator())


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return write_folder(str(tmp_path_factory.mktemp("images")))


@pytest.mark.parametrize("config", CONFIGS, ids=["bilinear", "nearest-crop", "area-pad", "bicubic-channels-first"])
def test_a_function_iterating_image_batches_saves_as_tensorflow_ops(tmp_path, folder, config):
    pytest.importorskip("PIL")  # the JPEG decoder
    m = Summed(folder, config)
    want = m.total().numpy()
    np.testing.assert_array_equal(want, _per_file_sum(folder, config))
    tf.saved_model.save(m, str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = {n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def}
    assert "LoadImageBatch" not in ops and {"ReadFile", "DecodeImage", "TensorListSetItem", "TensorListStack"} <= ops
    np.testing.assert_array_equal(tf.saved_model.load(str(tmp_path / "m"), options=TRUSTED).total().numpy(), want)
