"""LoadImageBatch (keras.utils.image_dataset_from_directory's batch of image files, ops/image/image_files.py)
written as TensorFlow's ops: the per-file chain that the op's kernel stands for (ReadFile, DecodeImage, Keras'
centred crop or ResizeWithPad's padding, the resize; ops/image/image_files.py's `image_file_loader`, the
same code the dataset runs per file without a batch size) mapped over the paths with tf.map_fn, a While loop
writing each image into a TensorList, traced into a called function (traced_call_export.py). The kernel's
pixels are that chain's, bit for bit, so the saved function gives the op's batch.

TensorFlow itself saves such a pipeline as dataset ops (a MapDataset whose function holds the same ReadFile,
DecodeImage and resize); eagerflow's function holds the batch its loop reads, not the dataset, so the chain
is written where the op was. A loaded model runs the chain (eagerflow's loader does not rebuild the one op)."""
from __future__ import annotations

from ...core.tensor import TensorSpec
from .traced_call_export import export_traced


def export_load_image_batch(builder, op):
    from ...control_flow.functional import map_fn
    from ...ops.image.image_files import image_file_loader
    attrs = op.attrs
    size = tuple(int(v) for v in attrs.get("image_size", (256, 256)))
    load = image_file_loader(size, int(attrs.get("channels", 3)), attrs.get("interpolation", "bilinear"),
                             attrs.get("data_format", "channels_last"), bool(attrs.get("crop_to_aspect_ratio", False)),
                             bool(attrs.get("pad_to_aspect_ratio", False)))
    image = TensorSpec(op.outputs[0].shape[1:], op.outputs[0].dtype)

    def computation(paths):
        return map_fn(load, paths, fn_output_signature=image)

    export_traced(builder, op, computation)
