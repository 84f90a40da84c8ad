"""`keras.preprocessing.image`: smart_resize (resizing without distorting the aspect ratio), the PIL
helpers of keras.utils (load_img, img_to_array, array_to_img, save_img: the `image` extra), and the legacy
augmentation API that tutorials still use: ImageDataGenerator, its iterators and the NumPy transforms
(apply_affine_transform, random_rotation, ...), written in affine.py, image_generator.py and
image_iterators.py beside this module."""
from __future__ import annotations

from ..._src.core.convert import convert_to_tensor
from ..._src.ops.image.resizing import resize
from ..utils.image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: F401
from .affine import (apply_affine_transform, apply_brightness_shift, apply_channel_shift,  # noqa: F401
                     random_brightness, random_channel_shift, random_rotation, random_shear, random_shift,
                     random_zoom)
from .image_generator import ImageDataGenerator  # noqa: F401
from .image_iterators import DirectoryIterator, Iterator, NumpyArrayIterator  # noqa: F401


def smart_resize(x, size, interpolation="bilinear", data_format="channels_last", **kwargs):
    """One image (rank 3) or a batch (rank 4) resized to `size` = (height, width): the largest centred
    box with the target's aspect ratio is cut out first, then resized, so nothing is stretched."""
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers, but got: {size}.")
    images = convert_to_tensor(x)
    rank = images.shape.rank
    if rank not in (3, 4):
        raise ValueError(f"Expected an image array with shape `(height, width, channels)`, or "
                         f"`(batch_size, height, width, channels)`, but got input with incorrect rank, of shape "
                         f"{images.shape}.")
    first = data_format == "channels_first"
    if first:  # work channels-last
        images = _transpose(images, rank, to_last=True)
    height, width = images.shape.as_list()[-3:-1]
    target_h, target_w = int(size[0]), int(size[1])
    crop_h = min(height, int(width * target_h / target_w))
    crop_w = min(width, int(height * target_w / target_h))
    top, left = (height - crop_h) // 2, (width - crop_w) // 2
    images = images[..., top:top + crop_h, left:left + crop_w, :]
    out = resize(images, (target_h, target_w), method=interpolation)
    return _transpose(out, rank, to_last=False) if first else out


def _transpose(images, rank, to_last):
    from ..._src.ops.array.basic import transpose
    if rank == 3:
        return transpose(images, [1, 2, 0] if to_last else [2, 0, 1])
    return transpose(images, [0, 2, 3, 1] if to_last else [0, 3, 1, 2])
