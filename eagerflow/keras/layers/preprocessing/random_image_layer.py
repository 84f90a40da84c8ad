"""RandomImageLayer: what the colour and mixing augmentations of Keras 3 share (channels_last images,
a batch (N, H, W, C) or one image (H, W, C)): the value_range check, per-image draws, identity outside
training, and the rank check with Keras' message. Subclasses implement `augment(batch, n)` on a float
batch in the layer's dtype, `n` its run-time size as a 1-vector."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from ..arguments import check_channels_last
from ..base import Layer
from .image_preprocessing import float_images

VALUE_RANGE_ERROR = "The `value_range` argument should be a list of two numbers. "


def checked_value_range(value_range):
    """Keras' _set_value_range: a pair of numbers, sorted."""
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError(VALUE_RANGE_ERROR + f"Received: value_range={value_range}")
    return list(sorted(value_range))


def to_range(images, source, target):
    """Values of `source` range rescaled linearly to `target` (Keras' _transform_value_range)."""
    if list(source) == list(target):
        return images
    scale = (target[1] - target[0]) / (source[1] - source[0])
    return (images - _math.cast(source[0], images.dtype)) * _math.cast(scale, images.dtype) + _math.cast(
        target[0], images.dtype)


def per_image(n, rank=4):
    """The shape (n, 1, 1, 1) (for rank 4) of one draw per image, n a 1-vector tensor."""
    return concat([n, _array.constant([1] * (rank - 1), dtype=n.dtype)], 0)


class RandomImageLayer(Layer):
    def __init__(self, seed=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.seed = seed

    def uniform(self, shape, low, high, dtype=None):
        return _random.uniform(shape, low, high, dtype=dtype or self._dtype, seed=self.seed)

    def call(self, inputs, training=True):
        """inputs: images, or Keras' dict {"images": ..., "labels": ...} (the labels change only for the
        layers that mix images, MixUp and CutMix)."""
        data = dict(inputs) if isinstance(inputs, dict) else {"images": inputs}
        images = float_images(self, convert_to_tensor(data["images"]))
        rank = images.shape.rank
        if rank not in (3, 4):
            raise ValueError(f"Expected image tensor to have rank 3 (single image) or 4 (batch of images). "
                             f"Received: data.shape={tuple(images.shape.as_list())}")
        if training:
            batch = _array.expand_dims(images, 0) if rank == 3 else images
            labels = data.get("labels")
            labels = None if labels is None else convert_to_tensor(labels)
            out, labels = self.transform(batch, labels, _array.shape(batch)[:1])
            images = out[0] if rank == 3 else out
            if labels is not None:
                data["labels"] = labels
        if not isinstance(inputs, dict):
            return images
        data["images"] = images
        return data

    def transform(self, batch, labels, n):
        """(images, labels) of a training call; the colour layers leave labels as they are."""
        return self.augment(batch, n), labels

    def augment(self, batch, n):
        raise NotImplementedError

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last"}
