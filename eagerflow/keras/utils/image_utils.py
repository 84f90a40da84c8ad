"""`keras.utils` image helpers: load_img, img_to_array, array_to_img, save_img (PIL images, as Keras 3's,
so they need the `image` extra: Pillow). The centre crop box of Keras' smart_resize, which
image_dataset_from_directory's `crop_to_aspect_ratio` uses, is ops/image/image_files.py's crop_box."""
from __future__ import annotations

import numpy as np

_RESAMPLING = {"nearest": 0, "bilinear": 2, "bicubic": 3, "hamming": 5, "box": 4, "lanczos": 1}


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("Could not import PIL.Image. The use of `load_img`, `img_to_array`, `array_to_img` and "
                          "`save_img` requires PIL: pip install \"eagerflow[image]\" (or pip install Pillow)") from None
    return Image


def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest", keep_aspect_ratio=False):
    """A PIL image of the file at `path` (a path or a file-like object), converted to `color_mode` and
    resized to `target_size` (height, width), centre-cropped first with `keep_aspect_ratio`."""
    Image = _pillow()
    if isinstance(path, (bytes, str)) or hasattr(path, "__fspath__"):
        import io
        import os
        with open(os.fsdecode(path) if not isinstance(path, str) else path, "rb") as f:
            image = Image.open(io.BytesIO(f.read()))
    elif hasattr(path, "read"):
        image = Image.open(path)
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    modes = {"grayscale": ("L",), "rgba": ("RGBA",), "rgb": ("RGB",)}
    if color_mode not in modes:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if color_mode == "grayscale":
        if image.mode not in ("L", "I;16", "I"):
            image = image.convert("L")
    elif image.mode != modes[color_mode][0]:
        image = image.convert(modes[color_mode][0])
    if target_size is not None:
        width_height = (target_size[1], target_size[0])
        if image.size != width_height:
            if interpolation not in _RESAMPLING:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. Supported methods are "
                                 f"{', '.join(_RESAMPLING)}")
            if keep_aspect_ratio:
                width, height = image.size
                target_width, target_height = width_height
                crop_height = (width * target_height) // target_width
                crop_width = (height * target_width) // target_height
                crop_height, crop_width = min(height, crop_height), min(width, crop_width)
                top, left = (height - crop_height) // 2, (width - crop_width) // 2
                image = image.crop((left, top, left + crop_width, top + crop_height))
            image = image.resize(width_height, _RESAMPLING[interpolation])
    return image


def img_to_array(img, data_format=None, dtype=None):
    """A float32 (or `dtype`) array [height, width, channels] of a PIL image."""
    data_format = data_format or "channels_last"
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. Received: "
                         f"data_format={data_format}")
    array = np.asarray(img, dtype=dtype or "float32")
    if array.ndim == 3:
        return array.transpose(2, 0, 1) if data_format == "channels_first" else array
    if array.ndim == 2:
        return array[None] if data_format == "channels_first" else array[..., None]
    raise ValueError(f"Unsupported image shape: {array.shape}")


def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A PIL image of a [height, width, 1|3|4] array; `scale` maps the values' range onto 0-255."""
    Image = _pillow()
    data_format = data_format or "channels_last"
    array = np.asarray(x, dtype=dtype or "float32")
    if array.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with shape: {array.shape}")
    if data_format == "channels_first":
        array = array.transpose(1, 2, 0)
    if scale:
        array = array - np.min(array)
        top = np.max(array)
        if top != 0:
            array = array / top
        array = array * 255
    channels = array.shape[2]
    if channels == 4:
        return Image.fromarray(array.astype("uint8"), "RGBA")
    if channels == 3:
        return Image.fromarray(array.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(array) > 255:
            return Image.fromarray(array[:, :, 0].astype("int32"), "I")
        return Image.fromarray(array[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Writes an image array to `path` (through a temporary file renamed into place)."""
    from ..._src.io.atomic import atomic_file
    image = array_to_img(x, data_format=data_format, scale=scale)
    if image.mode == "RGBA" and (file_format == "jpg" or file_format == "jpeg" or
                                 str(path).lower().endswith((".jpg", ".jpeg")) and file_format is None):
        import warnings
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.")
        image = image.convert("RGB")
    fmt = file_format or _format_from_name(str(path))
    with atomic_file(str(path)) as f:
        image.save(f, format=fmt, **kwargs)


def _format_from_name(path):
    extension = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return {"jpg": "JPEG", "jpeg": "JPEG", "png": "PNG", "bmp": "BMP", "gif": "GIF", "webp": "WEBP",
            "tif": "TIFF", "tiff": "TIFF"}.get(extension, extension.upper() or None)
