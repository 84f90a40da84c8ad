"""`tf.image` flips, rotations, crops and pads, for one image [H, W, C] or a batch [N, H, W, C].

All are compositions of reverse/transpose/slice/pad, so gradients, graphs and jit lowerings are
those ops'. Crop and pad boxes must be known when the function is traced, as in TensorFlow's
checks (it refuses a box that does not fit with the same ValueErrors).
"""
from __future__ import annotations

import math

from ...core.tensor import Tensor
from ..operands import as_tensor


def _image(image, name="image"):
    t = image if isinstance(image, Tensor) else as_tensor(image)
    if t.shape.rank is not None and t.shape.rank < 3:
        raise ValueError(f"'{name}' (shape {t.shape}) must be at least three-dimensional.")
    return t


def _hw_axes(t):
    """(height axis, width axis): the last two before channels."""
    rank = t.shape.rank
    return (rank - 3, rank - 2) if rank is not None else (-3, -2)


def flip_left_right(image):
    """Mirrors the image across its vertical axis (the width reversed)."""
    from ..array.ordering import reverse
    t = _image(image)
    return reverse(t, [_hw_axes(t)[1]])


def flip_up_down(image):
    """Mirrors the image across its horizontal axis (the height reversed)."""
    from ..array.ordering import reverse
    t = _image(image)
    return reverse(t, [_hw_axes(t)[0]])


def transpose(image, name=None):
    """Swaps height and width."""
    from ..array.basic import transpose as _transpose
    t = _image(image)
    rank = t.shape.rank
    perm = list(range(rank))
    h, w = _hw_axes(t)
    perm[h], perm[w] = perm[w], perm[h]
    return _transpose(t, perm)


def rot90(image, k=1, name=None):
    """Rotates counter-clockwise by k quarter turns."""
    t = _image(image)
    k = int(k) % 4
    if k == 0:
        return t
    if k == 2:
        return flip_up_down(flip_left_right(t))
    if k == 1:
        return flip_up_down(transpose(t))
    return transpose(flip_up_down(t))


def _static_hw(t):
    h, w = _hw_axes(t)
    return t.shape[h], t.shape[w]


def _known_hw(t, who):
    """Height and width, which `who` needs when tracing (its box or padding is computed from them)."""
    height, width = _static_hw(t)
    if height is None or width is None:
        raise ValueError(f"{who} needs the image's height and width when tracing")
    return height, width


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The box [offset, offset + target) of height and width."""
    t = _image(image)
    oh, ow, th, tw = (int(v) for v in (offset_height, offset_width, target_height, target_width))
    if ow < 0:
        raise ValueError("offset_width must be >= 0.")
    if oh < 0:
        raise ValueError("offset_height must be >= 0.")
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    height, width = _static_hw(t)
    if width is not None and width < tw + ow:
        raise ValueError("width must be >= target + offset.")
    if height is not None and height < th + oh:
        raise ValueError("height must be >= target + offset.")
    index = [slice(None)] * t.shape.rank
    h, w = _hw_axes(t)
    index[h], index[w] = slice(oh, oh + th), slice(ow, ow + tw)
    return t[tuple(index)]


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The image placed at (offset_height, offset_width) in zeros of the target size."""
    from ..array.padding import pad
    t = _image(image)
    oh, ow, th, tw = (int(v) for v in (offset_height, offset_width, target_height, target_width))
    if oh < 0:
        raise ValueError("offset_height must be >= 0")
    if ow < 0:
        raise ValueError("offset_width must be >= 0")
    height, width = _known_hw(t, "pad_to_bounding_box")
    after_h, after_w = th - oh - height, tw - ow - width
    if after_h < 0:
        raise ValueError("height must be <= target - offset")
    if after_w < 0:
        raise ValueError("width must be <= target - offset")
    paddings = [[0, 0]] * t.shape.rank
    h, w = _hw_axes(t)
    paddings[h], paddings[w] = [oh, after_h], [ow, after_w]
    return pad(t, paddings)


def central_crop(image, central_fraction):
    """The central `central_fraction` of height and width (TensorFlow's rounding of the box)."""
    t = _image(image)
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
        return t
    height, width = _known_hw(t, "central_crop")
    start_h = int((height - height * central_fraction) / 2)
    start_w = int((width - width * central_fraction) / 2)
    return crop_to_bounding_box(t, start_h, start_w, height - 2 * start_h, width - 2 * start_w)


def resize_with_crop_or_pad(image, target_height, target_width):
    """Centres the image in the target size, cropping what is larger and padding what is smaller
    (the extra pixel of an odd difference goes after)."""
    t = _image(image)
    height, width = _known_hw(t, "resize_with_crop_or_pad")
    th, tw = int(target_height), int(target_width)
    if th <= 0:
        raise ValueError("target_height must be > 0.")
    if tw <= 0:
        raise ValueError("target_width must be > 0.")
    crop_h, crop_w = max((height - th) // 2, 0), max((width - tw) // 2, 0)
    t = crop_to_bounding_box(t, crop_h, crop_w, min(th, height), min(tw, width))
    pad_h, pad_w = max((th - height) // 2, 0), max((tw - width) // 2, 0)
    return pad_to_bounding_box(t, pad_h, pad_w, th, tw)


def resize_with_pad(image, target_height, target_width, method="bilinear", antialias=False):
    """Resizes to fit the target keeping the aspect ratio, then pads the rest with zeros, centred."""
    from .resizing import resize
    t = _image(image)
    th, tw = int(target_height), int(target_width)
    height, width = _static_hw(t)
    if height is None or width is None:
        return _resize_with_pad_traced(t, th, tw, method, antialias)
    ratio = max(width / tw, height / th)
    float_h, float_w = height / ratio, width / ratio
    resized = resize(t, [int(math.floor(float_h)), int(math.floor(float_w))], method=method, antialias=antialias)
    # the offsets come from the unrounded sizes, as TensorFlow computes them
    return pad_to_bounding_box(resized, max(0, int(math.floor((th - float_h) / 2))),
                               max(0, int(math.floor((tw - float_w) / 2))), th, tw)


def _resize_with_pad_traced(t, th, tw, method, antialias):
    """resize_with_pad of an image whose height or width is known only when the function runs (a file
    decoded in a dataset map): the same sizes and offsets, computed by ops in float32 as TensorFlow does."""
    from ...core import dtypes as _dt
    from ..array import basic as _array
    from ..array.joining import stack
    from ..array.padding import pad
    from ..math import elementwise as _math
    from .resizing import resize
    h_axis, w_axis = _hw_axes(t)
    dims = _array.shape(t)
    fh, fw = _math.cast(dims[h_axis], _dt.float32), _math.cast(dims[w_axis], _dt.float32)
    ratio = _math.maximum(fw / float(tw), fh / float(th))
    float_h, float_w = fh / ratio, fw / ratio
    size = stack([_math.cast(_math.floor(float_h), _dt.int32), _math.cast(_math.floor(float_w), _dt.int32)])
    resized = resize(t, size, method=method, antialias=antialias)
    top = _math.maximum(0, _math.cast(_math.floor((float(th) - float_h) / 2), _dt.int32))
    left = _math.maximum(0, _math.cast(_math.floor((float(tw) - float_w) / 2), _dt.int32))
    rank = t.shape.rank
    rows = [stack([0, 0])] * rank
    rows[h_axis] = stack([top, th - top - size[0]])
    rows[w_axis] = stack([left, tw - left - size[1]])
    out = pad(resized, stack(rows))
    static = t.shape.as_list()  # batch and channels as the input's
    static[h_axis], static[w_axis] = th, tw
    out.set_shape(static)
    return out
