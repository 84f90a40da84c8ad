"""RandomElasticTransform: while training, each image (with probability drawn per image from `factor`)
resampled through a smooth random displacement field: Gaussian noise per pixel, blurred with a
Gaussian of width sigma and scaled by alpha, added to every pixel's position. One strength f is drawn
per call from `scale`; alpha = 0.1 f max(H, W) and sigma = 0.05 f min(H, W), the blur kernel
6 int(sigma) + 1 wide (odd), as Keras 3 sets them. As Keras 3.15 on TensorFlow draws the field, both
axes move by the same noise. Results are clipped to `value_range` and come out in the layer's dtype.
Points moved off the image are brought back by `fill_mode` ("mirror" is read as "reflect")."""
from __future__ import annotations

import numpy as np

from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.nn.depthwise import depthwise_conv2d
from ...._src.ops.random import draws as _random
from .affine_transform import sample
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("mirror", "constant", "reflect", "wrap", "nearest")


def _scale_pair(scale):
    try:
        return factor_pair(scale, (0, 1))
    except ValueError:
        raise ValueError(f"The `scale` argument should be a number (or a list of two numbers) in the range [0, 1]. "
                         f"Received: factor={scale}") from None


def _blurred(noise, sigma, widest):
    """noise (N, H, W) blurred by a Gaussian of (tensor) width `sigma`: a kernel of `widest` taps whose taps
    beyond 3 int(sigma) of the centre are zero, which is the kernel 6 int(sigma) + 1 wide, zero-padded."""
    offsets = _array.constant(np.arange(widest, dtype=np.float32) - (widest - 1) / 2.0)
    radius = 3.0 * _math.floor(sigma)
    taps = _math.exp(-0.5 * _math.square(offsets / _math.maximum(sigma, 1e-12)))
    taps = _array.where(_math.less_equal(_math.abs(offsets), radius), taps, _array.zeros_like(taps))
    taps = taps / _reduce.reduce_sum(taps)
    kernel = _array.reshape(_array.expand_dims(taps, 1) * _array.expand_dims(taps, 0), [widest, widest, 1, 1])
    return depthwise_conv2d(_array.expand_dims(noise, -1), kernel, [1, 1, 1, 1], "SAME")[..., 0]


class RandomElasticTransform(RandomImageLayer):
    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                 value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        self.scale = _scale_pair(scale)
        if interpolation not in INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one {INTERPOLATIONS}.")
        if fill_mode not in FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {set(FILL_MODES)}.")
        self.interpolation, self.fill_mode, self.fill_value = interpolation, fill_mode, fill_value
        self.value_range = value_range

    def augment(self, batch, n):
        if self.scale[1] == 0 or self.factor[1] == 0:
            return batch
        height, width = batch.shape.as_list()[1:3]
        probability = self.uniform(n, self.factor[0], self.factor[1])
        apply = _math.less(self.uniform(n, 0.0, 1.0), probability)
        strength = self.uniform([], self.scale[0], self.scale[1])
        alpha = float(max(height, width)) * (0.1 * strength)
        sigma = float(min(height, width)) * (0.05 * strength)
        widest = 6 * int(min(height, width) * 0.05 * self.scale[1]) | 1
        noise = _random.normal(concat([n, _array.constant([height, width], dtype=n.dtype)], 0), dtype=batch.dtype,
                               seed=self.seed) * sigma
        shift = alpha * _blurred(noise, sigma, widest)
        rows = _array.constant(np.arange(height, dtype=np.float32).reshape(1, -1, 1))
        columns = _array.constant(np.arange(width, dtype=np.float32).reshape(1, 1, -1))
        fill_mode = "reflect" if self.fill_mode == "mirror" else self.fill_mode
        moved = sample(batch, rows + shift, columns + shift, self.interpolation, fill_mode, self.fill_value)
        out = _array.where(_array.reshape(apply, [-1, 1, 1, 1]), _math.cast(moved, batch.dtype), batch)
        return _math.clip_by_value(out, _math.cast(self.value_range[0], out.dtype),
                                   _math.cast(self.value_range[1], out.dtype))

    def get_config(self):
        return {**super().get_config(), "factor": self.factor, "scale": self.scale,
                "interpolation": self.interpolation, "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                "value_range": self.value_range, "seed": self.seed}
