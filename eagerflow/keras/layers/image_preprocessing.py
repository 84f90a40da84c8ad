"""Image preprocessing layers (channels_last, a batch (N, H, W, C) or one image (H, W, C)): Resizing and
CenterCrop, which always apply, and the augmentations RandomFlip, RandomContrast and RandomBrightness, which
apply only when training (identity at inference). Their random draws cannot match Keras' random streams;
the transformations themselves are Keras 3.15's."""
from __future__ import annotations

from ..._src.ops import array as _array
from ..._src.ops import math as _math
from ..._src.ops import random as _random
from ..._src.ops import reduce as _reduce
from ..._src.ops.image import resize
from ..._src.ops.ordering import reverse
from .base import Layer


def _channels_last(data_format):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError("Only data_format='channels_last' is supported.")


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
        _channels_last(data_format)
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
        _channels_last(data_format)
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
        from ..._src.ops.joining import concat
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
        _channels_last(data_format)
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
        _channels_last(data_format)
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
        _channels_last(data_format)
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
