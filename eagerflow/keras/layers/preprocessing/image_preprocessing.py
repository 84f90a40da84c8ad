"""Image preprocessing layers (channels_last, a batch (N, H, W, C) or one image (H, W, C)): Resizing and
CenterCrop, which always apply, and the augmentations RandomFlip, RandomContrast, RandomBrightness,
RandomTranslation and RandomZoom (resampled by affine_transform.py), which apply only when training
(identity at inference). Their random draws cannot match Keras' random streams;
the transformations themselves are Keras 3.15's."""
from __future__ import annotations

from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops import random as _random
from ...._src.ops import reduce as _reduce
from ...._src.ops.image import resize
from ...._src.ops.ordering import reverse
from ..base import Layer
from ..arguments import check_channels_last


def _float(layer, images):
    return _math.cast(images, layer._dtype) if images.dtype is not layer._dtype else images


def crop_to_aspect_ratio(images, height, width):
    """The largest centred window of the target aspect ratio (Keras' integer arithmetic), before a resize."""
    h, w = images.shape.as_list()[-3:-1]
    crop_h = max(min(h, int(float(w * height) / width)), 1)
    crop_w = max(min(w, int(float(h * width) / height)), 1)
    top, left = int(float(h - crop_h) / 2), int(float(w - crop_w) / 2)
    return images[..., top:top + crop_h, left:left + crop_w, :]


class Resizing(Layer):
    """Resizes images to (height, width) with `interpolation` (bilinear, nearest, bicubic, area, ...);
    crop_to_aspect_ratio first crops the centre to the target aspect ratio, so nothing is distorted."""

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False, pad_to_aspect_ratio=False,
                 fill_mode="constant", fill_value=0.0, antialias=False, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        if pad_to_aspect_ratio:
            raise NotImplementedError("Resizing(pad_to_aspect_ratio=True) is not supported yet.")
        self.height, self.width, self.interpolation = height, width, interpolation
        self.crop_to_aspect_ratio, self.fill_mode, self.fill_value = crop_to_aspect_ratio, fill_mode, fill_value
        self.antialias = antialias

    def call(self, inputs):
        images = _float(self, inputs)
        if self.crop_to_aspect_ratio:
            images = crop_to_aspect_ratio(images, self.height, self.width)
        return _math.cast(resize(images, [self.height, self.width], method=self.interpolation,
                                 antialias=self.antialias), self._dtype)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height": self.height, "width": self.width,
                "interpolation": self.interpolation, "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                "pad_to_aspect_ratio": False, "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "antialias": self.antialias}


class CenterCrop(Layer):
    """The centred (height, width) window; an image smaller than that is resized up instead (bilinear, after
    cropping to the target aspect ratio), as Keras does."""

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.height, self.width = height, width

    def call(self, inputs):
        images = _float(self, inputs)
        h, w = images.shape.as_list()[-3:-1]
        dh, dw = h - self.height, w - self.width
        if dh >= 0 and dw >= 0:
            top, left = int(dh / 2), int(dw / 2)
            return images[..., top:top + self.height, left:left + self.width, :]
        return resize(crop_to_aspect_ratio(images, self.height, self.width), [self.height, self.width])

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height": self.height, "width": self.width}


def _draw_shape(images):
    rank = images.shape.rank
    if rank == 3:
        return [1, 1, 1]
    if rank == 4:
        from ...._src.ops.joining import concat
        batch = _array.shape(images)[:1]
        return concat([batch, _array.constant([1, 1, 1], dtype=batch.dtype)], 0)
    raise ValueError(f"Expected the input image to be rank 3 or 4. Received inputs.shape={tuple(images.shape.as_list())}")


def _factor_pair(factor, bounds):
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


class RandomFlip(Layer):
    """While training, each image is flipped (left-right, up-down, or both at once) with probability 1/2."""

    def __init__(self, mode="horizontal_and_vertical", seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        if mode not in ("horizontal", "vertical", "horizontal_and_vertical"):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument {mode}")
        self.mode, self.seed = mode, seed

    def call(self, inputs, training=True):
        images = _float(self, inputs)
        if not training:
            return images
        flips = _math.less_equal(_random.uniform(_draw_shape(images), seed=self.seed), 0.5)
        flips = _array.broadcast_to(flips, _array.shape(images))
        rank = images.shape.rank
        if self.mode in ("horizontal", "horizontal_and_vertical"):
            images = _array.where(flips, reverse(images, [rank - 2]), images)
        if self.mode in ("vertical", "horizontal_and_vertical"):
            images = _array.where(flips, reverse(images, [rank - 3]), images)
        return images

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "seed": self.seed, "mode": self.mode}


class RandomContrast(Layer):
    """While training: (x - mean) * c + mean per image and channel, with c uniform in
    [1 - factor[0], 1 + factor[1]] (Keras' bounds make a number f give [1, 1 + f]), clipped to value_range."""

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.factor = _factor_pair(factor, (0, 1))
        self.value_range, self.seed = value_range, seed

    def call(self, inputs, training=True):
        images = _float(self, inputs)
        if not training:
            return images
        c = _random.uniform(_draw_shape(images), 1.0 - self.factor[0], 1.0 + self.factor[1], dtype=images.dtype,
                            seed=self.seed)
        mean = _reduce.reduce_mean(images, [-3, -2], keepdims=True)
        out = (images - mean) * c + mean
        return _math.clip_by_value(out, *(_math.cast(v, images.dtype) for v in self.value_range))

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "factor": list(self.factor),
                "value_range": list(self.value_range), "seed": self.seed}


class RandomBrightness(Layer):
    """While training: adds delta * (value_range width) per image, delta uniform in `factor` (a number f:
    [-f, f]), then clips to value_range."""

    def __init__(self, factor, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.factor = _factor_pair(factor, (-1, 1))
        self.value_range, self.seed = value_range, seed

    def call(self, inputs, training=True):
        images = _float(self, inputs)
        if not training:
            return images
        delta = _random.uniform(_draw_shape(images), self.factor[0], self.factor[1], dtype=images.dtype,
                                seed=self.seed)
        images = images + delta * _math.cast(self.value_range[1] - self.value_range[0], images.dtype)
        return _math.clip_by_value(images, *(_math.cast(v, images.dtype) for v in self.value_range))

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "factor": list(self.factor),
                "value_range": list(self.value_range), "seed": self.seed}


_FACTOR_ERROR = "The `factor` argument should be a number (or a list of two numbers) in the range [-1.0, 1.0]. "


def _signed_range(factor, name):
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


class _AffineAugmentation(Layer):
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
        images = _float(self, inputs)
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
    from ...._src.ops.joining import concat
    return concat([n, _array.constant([1], dtype=n.dtype)], 0)


class RandomTranslation(_AffineAugmentation):
    """While training, shifts each image by (height, width) fractions drawn from the factors' ranges
    (a number f: [-f, f]), filling the uncovered border by `fill_mode` (reflect by default)."""

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_range = _signed_range(height_factor, "height_factor")
        self.width_range = _signed_range(width_factor, "width_factor")

    def _transforms(self, images):
        n = _array.shape(images)[:1]
        h, w = images.shape.as_list()[1:3]
        dy = self._draw(n, self.height_range) * float(h)
        dx = self._draw(n, self.width_range) * float(w)
        one, zero = _array.ones_like(dx), _array.zeros_like(dx)
        from ...._src.ops.joining import concat
        return concat([one, zero, -dx, zero, one, -dy], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height_factor": self.height_factor,
                "width_factor": self.width_factor, **self._common_config()}


class RandomZoom(_AffineAugmentation):
    """While training, zooms each image about its centre by 1 + z, z drawn from the factors' ranges (a
    number f: [-f, f]; positive z shows more of the image, smaller); width_factor=None keeps the aspect."""

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_range = _signed_range(height_factor, "height_factor")
        self.width_range = None if width_factor is None else _signed_range(width_factor, "width_factor")

    def _transforms(self, images):
        n = _array.shape(images)[:1]
        h, w = images.shape.as_list()[1:3]
        zy = 1.0 + self._draw(n, self.height_range)
        zx = zy if self.width_range is None else 1.0 + self._draw(n, self.width_range)
        zero = _array.zeros_like(zx)
        from ...._src.ops.joining import concat
        return concat([zx, zero, (w - 1.0) / 2.0 * (1.0 - zx), zero, zy, (h - 1.0) / 2.0 * (1.0 - zy)], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "height_factor": self.height_factor,
                "width_factor": self.width_factor, "fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "seed": self.seed, "fill_value": self.fill_value}


class RandomRotation(_AffineAugmentation):
    """While training, rotates each image about its centre by an angle drawn from factor * 360 degrees
    (a number f: [-f, f] turns), filling the uncovered corners by `fill_mode` (reflect by default)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None, fill_value=0.0,
                 data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor_pair(factor, (-1, 1))

    def _transforms(self, images):
        from ...._src.ops.joining import concat
        n = _array.shape(images)[:1]
        h, w = images.shape.as_list()[1:3]
        angle = self._draw(n, (self.factor[0] * 360.0, self.factor[1] * 360.0)) * (3.141592653589793 / 180.0)
        cos, sin = _math.cos(angle), _math.sin(angle)
        cx, cy = 0.5 * (w - 1), 0.5 * (h - 1)
        # Keras' _compute_affine_matrix with no shear, scale 1 and no translation: output -> input point
        return concat([cos, -sin, cx - cx * cos + cy * sin, sin, cos, cy - cx * sin - cy * cos], 1)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "factor": list(self.factor),
                "fill_mode": self.fill_mode, "fill_value": self.fill_value, "interpolation": self.interpolation,
                "seed": self.seed}
