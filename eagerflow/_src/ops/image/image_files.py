"""LoadImageBatch: a batch of image files read, decoded and brought to one size in a single op, what
`keras.utils.image_dataset_from_directory` computes for each batch.

Keras builds each image with a chain of ops per file (ReadFile, DecodeImage, an optional centred crop,
a resize, or ResizeWithPad's resize and zero padding). Run per file, that chain costs more in op
dispatch, tracing machinery and per-element dataset bookkeeping than Pillow needs to decode a small
JPEG; here one kernel runs the same kernels over the whole batch: each file through ReadFile's and
DecodeImage's kernels, the crop and padding sizes computed in float32 as the traced chain computes
them (the image sizes are only known when the file is decoded), and images of one size resized
together by the resize op's own kernel (each plane's product is the same as image by image). The
pixels are the chain's, bit for bit (tests/keras/utils/test_image_batches.py).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..io.files import _read_kernel
from ..operands import as_tensor
from ..registry import FILES, NO_GRADIENT, Spec, bind, defop
from .decode_image import _decode_image_kernel
from .resizing import ResizeArea, ResizeBicubic, ResizeBilinear, ResizeNearestNeighbor

_F32 = np.float32
# interpolation -> (resize op, its attributes), as tf.image.resize binds them (no antialiasing)
_RESIZES = {"bilinear": (ResizeBilinear, {"half_pixel_centers": True}),
            "nearest": (ResizeNearestNeighbor, {"half_pixel_centers": True}),
            "bicubic": (ResizeBicubic, {"half_pixel_centers": True}),
            "area": (ResizeArea, {})}
INTERPOLATIONS = tuple(_RESIZES)


def _resized(images: np.ndarray, size, interpolation: str) -> np.ndarray:
    """The resize op's kernel on decoded [n, h, w, c] pixels. At the same size every method's weights are
    the identity (one weight 1, the rest exactly 0), so its result is the pixels themselves, as float32
    but for nearest: that is returned without the two products (the pixels are finite integers)."""
    if images.shape[1:3] == tuple(size):
        return images if interpolation == "nearest" else images.astype(np.float32)
    op, attrs = _RESIZES[interpolation]
    return op.kernel(images, np.array(size, np.int32), **attrs)


def _crop_box(height: int, width: int, size):
    """Keras' smart_resize crop: the largest centred box with the target's aspect ratio, in the traced
    chain's arithmetic (int32 products, float32 quotients truncated to int32)."""
    target_height, target_width = size
    crop_height = max(min(height, int(_F32(width * target_height) / _F32(target_width))), 1)
    crop_width = max(min(width, int(_F32(height * target_width) / _F32(target_height))), 1)
    top = int(_F32(height - crop_height) / _F32(2))
    left = int(_F32(width - crop_width) / _F32(2))
    return top, left, crop_height, crop_width


def _padded(image: np.ndarray, size, interpolation: str) -> np.ndarray:
    """ResizeWithPad: resized to fit inside `size` keeping its aspect ratio, then zero-padded, centred;
    the sizes and offsets in float32 as the traced chain computes them."""
    target_height, target_width = size
    height, width = _F32(image.shape[0]), _F32(image.shape[1])
    ratio = max(width / _F32(target_width), height / _F32(target_height))
    fit_height, fit_width = height / ratio, width / ratio
    inner = (int(np.floor(fit_height)), int(np.floor(fit_width)))
    top = max(0, int(np.floor((_F32(target_height) - fit_height) / _F32(2))))
    left = max(0, int(np.floor((_F32(target_width) - fit_width) / _F32(2))))
    resized = _resized(image[None], inner, interpolation)[0]
    return np.pad(resized, [(top, target_height - top - inner[0]), (left, target_width - left - inner[1]), (0, 0)])


def _decoded(path, channels: int, size, crop: bool) -> np.ndarray:
    pixels = _decode_image_kernel(_read_kernel(path), channels=channels, dtype=_dt.uint8, expand_animations=False)
    if crop:
        top, left, height, width = _crop_box(pixels.shape[0], pixels.shape[1], size)
        pixels = pixels[top:top + height, left:left + width]
    return pixels


def _load_kernel(paths, image_size=(256, 256), channels=3, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, data_format="channels_last"):
    size = tuple(int(v) for v in image_size)
    images = [_decoded(path, channels, size, crop_to_aspect_ratio) for path in paths.reshape(-1)]
    if pad_to_aspect_ratio:
        batch = [_padded(image, size, interpolation) for image in images]
    elif len({image.shape for image in images}) == 1:  # one size (the common case): one resize
        batch = _resized(np.stack(images), size, interpolation)
    else:
        batch = [_resized(image[None], size, interpolation)[0] for image in images]
    dtype = np.uint8 if interpolation == "nearest" else np.float32
    out = np.stack(batch) if len(batch) else np.zeros((0,) + size + (channels,), dtype)
    if data_format == "channels_first":
        out = np.ascontiguousarray(out.transpose(0, 3, 1, 2))
    return out


def _load_infer(inputs, attrs):
    R.check_input_dtype("LoadImageBatch", inputs, 0, _dt.string)
    paths = inputs[0].shape
    if paths.rank is not None and paths.rank != 1:
        raise InvalidArgumentError(None, None, f"paths must be a vector, got shape {paths.as_list()}")
    height, width = attrs.get("image_size", (256, 256))
    channels = attrs.get("channels", 3)
    dims = [channels, height, width] if attrs.get("data_format") == "channels_first" else [height, width, channels]
    dtype = _dt.uint8 if attrs.get("interpolation", "bilinear") == "nearest" else _dt.float32
    return [Spec(TensorShape([paths[0] if paths.rank else None] + dims), dtype)]


LoadImageBatch = defop("LoadImageBatch", inputs=("paths",), kernel=_load_kernel, infer=_load_infer,
                       grad=NO_GRADIENT, doc="Image files [n] read, decoded and resized (or cropped or padded "
                                             "to size) as keras.utils.image_dataset_from_directory's images.")
LoadImageBatch.effects = FILES


def crop_box(height, width, size):
    """(top, left, crop height, crop width): the largest centred box with the aspect ratio of `size`
    (Keras' smart_resize); works on Python ints and on scalar tensors alike."""
    from ..array.basic import cast
    from ..math.elementwise import maximum, minimum
    target_height, target_width = size
    if isinstance(height, int) and isinstance(width, int):
        crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
        crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
        return int(float(height - crop_height) / 2), int(float(width - crop_width) / 2), crop_height, crop_width
    crop_height = maximum(minimum(height, cast(cast(width * target_height, "float32") / target_width, "int32")), 1)
    crop_width = maximum(minimum(width, cast(cast(height * target_width, "float32") / target_height, "int32")), 1)
    top = cast(cast(height - crop_height, "float32") / 2, "int32")
    left = cast(cast(width - crop_width, "float32") / 2, "int32")
    return top, left, crop_height, crop_width


def image_file_loader(image_size, channels, interpolation, data_format, crop, pad):
    """The per-file chain LoadImageBatch stands for, as ordinary ops: `load(path)` reads and decodes one file
    (ReadFile, DecodeImage), crops it to the target's aspect ratio (`crop`) or resizes and pads it to `image_size`
    keeping its own (`pad`, ResizeWithPad), else resizes it, and moves channels first when asked. The dataset
    runs it per file without a batch size (keras/utils/image_dataset.py), and LoadImageBatch is saved as it,
    mapped over the paths (formats/graph_export/image_batch_export.py)."""
    from ..array.basic import shape, transpose
    from ..io.files import read_file
    from .decode_image import decode_image
    from .geometry import resize_with_pad
    from .resizing import resize

    def load(path):
        image = decode_image(read_file(path), channels=channels, expand_animations=False)
        if crop:
            top, left, height, width = crop_box(shape(image)[0], shape(image)[1], image_size)
            image = resize(image[top:top + height, left:left + width], image_size, method=interpolation)
        elif pad:
            image = resize_with_pad(image, image_size[0], image_size[1], method=interpolation)
        else:
            image = resize(image, image_size, method=interpolation)
        if data_format == "channels_first":
            image = transpose(image, (2, 0, 1))
            image.set_shape((channels, image_size[0], image_size[1]))
        else:
            image.set_shape((image_size[0], image_size[1], channels))
        return image
    return load


def load_image_batch(paths, image_size, channels, interpolation="bilinear", crop_to_aspect_ratio=False,
                     pad_to_aspect_ratio=False, data_format="channels_last", name=None):
    """The images of the files `paths` [n] as one [n, height, width, channels] batch (channels first
    with data_format="channels_first"): float32, uint8 for nearest interpolation."""
    if interpolation not in _RESIZES:
        raise ValueError(f"load_image_batch: interpolation must be one of {INTERPOLATIONS}, got {interpolation!r}")
    attrs = {"image_size": tuple(int(v) for v in image_size), "channels": int(channels),
             "interpolation": str(interpolation), "crop_to_aspect_ratio": bool(crop_to_aspect_ratio),
             "pad_to_aspect_ratio": bool(pad_to_aspect_ratio), "data_format": str(data_format)}
    return bind(LoadImageBatch, [as_tensor(paths, _dt.string)], attrs, name=name)
