"""`keras.utils.image_dataset_from_directory`: a batched dataset of (image, label) from a folder of image
files, one sub-folder per class, with Keras 3's file order, split, label forms and resizing.

Each file is read and decoded inside the dataset's map (tf.io.read_file + tf.io.decode_image, so PNG,
JPEG, GIF and BMP, the JPEG/GIF/BMP decoders needing the `image` extra), then resized to `image_size`
(float32), or first centre-cropped to the target aspect ratio (`crop_to_aspect_ratio`, Keras'
smart_resize) or padded to it (`pad_to_aspect_ratio`). With a batch size the dataset batches the paths
first and loads each batch with one op (LoadImageBatch) that runs that same chain's kernels: the same
batches, without the per-file op and dataset overhead that would cost more than decoding a small JPEG.
"""
from __future__ import annotations

import numpy as np

from .directory_index import check_labels_argument, check_split_arguments, index_directory, split_datasets

IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")
_CHANNELS = {"rgb": 3, "rgba": 4, "grayscale": 1}


def _image_loader(image_size, channels, interpolation, data_format, crop, pad):
    from ..._src.ops.image.image_files import image_file_loader
    return image_file_loader(image_size, channels, interpolation, data_format, crop, pad)


def _batch_loader(image_size, channels, interpolation, data_format, crop, pad):
    """The images of a batch of paths in one op (ops/image/image_files.py): the batch `_image_loader`'s
    per-file chain gives, without its per-file cost; None for an interpolation that op does not run
    (the per-file chain then refuses it, as before)."""
    from ..._src.ops.image.image_files import INTERPOLATIONS as BATCHED, load_image_batch
    if interpolation not in BATCHED:
        return None

    def load_batch(paths):
        return load_image_batch(paths, image_size, channels, interpolation, crop, pad, data_format)
    return load_batch


def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, color_mode="rgb",
                                 batch_size=32, image_size=(256, 256), shuffle=True, seed=None, validation_split=None,
                                 subset=None, interpolation="bilinear", follow_links=False,
                                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, data_format=None,
                                 format="tf", verbose=True):
    """Images [batch, height, width, channels] float32 and labels, from `directory/<class>/<file>`; a pair
    of datasets (training, validation) for `subset="both"`. The datasets carry `class_names` and
    `file_paths`."""
    check_labels_argument(labels, label_mode, class_names, "image")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    if color_mode not in _CHANNELS:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. Received: color_mode={color_mode}')
    channels = _CHANNELS[color_mode]
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(f"Invalid `image_size` value. Expected a tuple of 2 integers. Received: image_size={image_size}")
    interpolation = interpolation.lower()
    if interpolation not in INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {INTERPOLATIONS}. Received: "
                         f"interpolation={interpolation}")
    if format != "tf":
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}'
                         if format != "grain" else "format='grain' needs the grain package, which eagerflow does not use")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.")
    check_split_arguments(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, IMAGE_FORMATS, class_names, shuffle, seed,
                                                 follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")
    data_format = data_format or "channels_last"
    load = _image_loader(tuple(image_size), channels, interpolation, data_format, crop_to_aspect_ratio,
                         pad_to_aspect_ratio)
    return split_datasets(directory, paths, labels, class_names, label_mode, validation_split, subset, shuffle, seed,
                          batch_size, load, "images", f"Allowed formats: {IMAGE_FORMATS}",
                          load_batch=_batch_loader(tuple(image_size), channels, interpolation, data_format,
                                                   crop_to_aspect_ratio, pad_to_aspect_ratio))
