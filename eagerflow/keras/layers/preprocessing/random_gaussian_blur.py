"""RandomGaussianBlur: while training, with a probability drawn from `factor` per image, each image
blurred by a Gaussian kernel of `kernel_size` ('same' padding, zeros outside), its two sigmas (one per
axis) drawn from `sigma` once per batch, then the result clipped to value_range."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.sequences import range as _range
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.nn import conv as _conv
from .image_preprocessing import factor_pair
from .random_image_layer import RandomImageLayer, per_image


def _odd_pair(value, name):
    message = f"{name} must be an odd number. Received: {name}={value}"
    pair = tuple(value) if isinstance(value, (tuple, list)) else (value, value)
    if len(pair) != 2 or pair[0] % 2 == 0 or pair[1] % 2 == 0:
        raise ValueError(message)
    return pair


def _gaussian_1d(size, sigma, dtype):
    x = _math.cast(_range(size), dtype) - (size - 1) / 2.0
    weights = _math.exp(-0.5 * _math.square(x / sigma))
    return weights / _reduce.reduce_sum(weights)


def gaussian_blur(batch, kernel_size, sigmas):
    """Each channel convolved with the outer product of two 1-D Gaussians (rows: sigmas[1] over
    kernel_size[1] taps, columns: sigmas[0] over kernel_size[0] taps, as Keras builds it)."""
    dtype = batch.dtype
    column = _gaussian_1d(kernel_size[0], sigmas[0], dtype)
    row = _gaussian_1d(kernel_size[1], sigmas[1], dtype)
    kernel = _array.reshape(_array.expand_dims(row, 1) * _array.expand_dims(column, 0),
                            [kernel_size[0], kernel_size[1], 1, 1])
    channels = batch.shape.as_list()[-1]
    # one group per channel: a grouped convolution with the same kernel for every channel
    kernel = _array.reshape(_array.broadcast_to(kernel, [kernel_size[0], kernel_size[1], 1, channels]),
                            [kernel_size[0], kernel_size[1], 1, channels])
    return _conv.conv2d(batch, kernel, strides=(1, 1, 1, 1), padding="SAME")


class RandomGaussianBlur(RandomImageLayer):
    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255), data_format=None, seed=None,
                 **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))
        self.kernel_size = _odd_pair(kernel_size, "kernel_size")
        self.sigma = factor_pair(sigma, (0, 1))
        self.value_range = value_range

    def augment(self, batch, n):
        apply = _math.less(self.uniform(per_image(n), 0.0, 1.0), self.uniform(per_image(n), *self.factor))
        sigmas = self.uniform([2], self.sigma[0], self.sigma[1]) + 1e-6
        blurred = gaussian_blur(batch, self.kernel_size, sigmas)
        images = _array.where(_array.broadcast_to(apply, _array.shape(batch)), blurred, batch)
        return _math.clip_by_value(images, _math.cast(self.value_range[0], images.dtype),
                                   _math.cast(self.value_range[1], images.dtype))

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "kernel_size": list(self.kernel_size),
                "sigma": list(self.sigma), "value_range": list(self.value_range), "seed": self.seed}
