"""What the image preprocessing layers share (channels_last, a batch (N, H, W, C) or one image (H, W, C)):
dtype handling, crop_to_aspect_ratio, factor checks, and the base of the affine augmentations
(resampled by affine_transform.py), which apply only when training."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ..arguments import check_channels_last
from ..base import Layer


def float_images(layer, images):
    return _math.cast(images, layer._dtype) if images.dtype is not layer._dtype else images


def crop_to_aspect_ratio(images, height, width):
    """The largest centred window of the target aspect ratio (Keras' integer arithmetic), before a resize."""
    h, w = images.shape.as_list()[-3:-1]
    crop_h = max(min(h, int(float(w * height) / width)), 1)
    crop_w = max(min(w, int(float(h * width) / height)), 1)
    top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
    return images[..., top:top + crop_h, left:left + crop_w, :]


def draw_shape(images):
    rank = images.shape.rank
    if rank == 3:
        return [1, 1, 1]
    if rank == 4:
        from ...._src.ops.array.joining import concat
        batch = _array.shape(images)[:1]
        return concat([batch, _array.constant([1, 1, 1], dtype=batch.dtype)], 0)
    raise ValueError(f"Expected the input image to be rank 3 or 4. Received inputs.shape={tuple(images.shape.as_list())}")


def factor_pair(factor, bounds):
    """Keras' _set_factor: a number f -> (max(-f, low), f); a pair -> sorted; outside `bounds` is an error."""
    message = (f"The `factor` argument should be a number (or a list of two numbers) in the range [{bounds[0]}, "
               f"{bounds[1]}]. Received: factor={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        if not bounds[0] <= factor <= bounds[1]:
            raise ValueError(message)
        factor = abs(factor)
        return (max(-factor, bounds[0]), factor)
    raise ValueError(message)


_FACTOR_ERROR = "The `factor` argument should be a number (or a list of two numbers) in the range [-1.0, 1.0]. "


def signed_range(factor, name):
    """Keras' RandomTranslation/RandomZoom factor: a number f -> (-|f|, |f|); a pair -> sorted; each in [-1, 1]."""
    def check(v):
        if v > 1.0 or v < -1.0:
            raise ValueError(_FACTOR_ERROR + f"Received: input_number={v}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(_FACTOR_ERROR + f"received: {name}={factor}")
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    check(factor)
    return (-abs(factor), abs(factor))


class AffineAugmentation(Layer):
    """What RandomTranslation and RandomZoom share: fill mode, interpolation, one affine map drawn per image
    while training (identity at inference)."""

    def __init__(self, fill_mode, interpolation, seed, fill_value, data_format, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        from .affine_transform import FILL_MODES
        if fill_mode not in FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {FILL_MODES}.")
        if interpolation not in ("nearest", "bilinear"):
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      f"('nearest', 'bilinear').")
        self.fill_mode, self.interpolation, self.seed, self.fill_value = fill_mode, interpolation, seed, fill_value

    def _draw(self, n, bounds):
        """(N, 1) uniform draws in `bounds` (both ends equal: exactly that value, as Keras draws)."""
        return _random.uniform(_n_by_1(n), bounds[0], bounds[1], seed=self.seed)

    def call(self, inputs, training=True):
        from .affine_transform import affine_transform
        images = float_images(self, inputs)
        if not training:
            return images
        single = images.shape.rank == 3
        batch = _array.expand_dims(images, 0) if single else images
        if batch.shape.rank != 4:
            raise ValueError(f"Expected the input image to be rank 3 or 4. Received "
                             f"inputs.shape={tuple(images.shape.as_list())}")
        out = affine_transform(batch, self._transforms(batch), self.interpolation, self.fill_mode, self.fill_value)
        return out[0] if single else out

    def _common_config(self):
        return {"fill_mode": self.fill_mode, "interpolation": self.interpolation, "seed": self.seed,
                "fill_value": self.fill_value}


def _n_by_1(n):
    from ...._src.ops.array.joining import concat
    return concat([n, _array.constant([1], dtype=n.dtype)], 0)


