"""`tf.image.stateless_random_*` and the stateful random_hue / random_saturation.

The stateless ones draw exactly what TensorFlow draws (tf.random.stateless_uniform, Philox,
bit-exact) with the same shapes and ranges, so a seed gives TensorFlow's image: one uniform in
[0, 1) per image for the flips (a batch flips image i when round(u_i) is 1, blending
flips * flipped + (1 - flips) * image as TensorFlow does; one image flips when u < 0.5), one
uniform in the factor's range for brightness/contrast/saturation/hue, and int32 offsets
uniform(0, int32 max) % (shape - size + 1) for the crop.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from ..operands import as_tensor


def _tensor(x):
    return x if isinstance(x, Tensor) else as_tensor(x)


def _uniform(shape, seed, minval, maxval, dtype=_dt.float32):
    from ..random.stateless import stateless_uniform
    return stateless_uniform(shape, seed, minval, maxval, dtype=dtype)


def _check_rank(image):
    if image.shape.rank is not None and image.shape.rank < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")


def _stateless_flip(image, seed, axis):
    from ..array import basic as A
    from ..math.elementwise import cast, less, round as _round
    from ..array.ordering import reverse
    image = _tensor(image)
    _check_rank(image)
    if image.shape.rank == 3:
        coin = less(_uniform([], seed, 0, 1.0), 0.5)
        return A.where(coin, reverse(image, [axis]), image)
    batch = image.shape[0]  # static when known, so that XLA sees the draw's shape
    draws = _uniform([batch] if batch is not None else A.shape(image)[0:1], seed, 0, 1.0)
    flips = cast(_round(A.reshape(draws, [-1, 1, 1, 1])), image.dtype)
    one = cast(as_tensor(1), image.dtype)
    return flips * reverse(image, [axis + 1]) + (one - flips) * image


def stateless_random_flip_left_right(image, seed):
    return _stateless_flip(image, seed, 1)


def stateless_random_flip_up_down(image, seed):
    return _stateless_flip(image, seed, 0)


def _check_delta(max_delta, limit=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    if limit is not None and max_delta > limit:
        raise ValueError(f"max_delta must be <= {limit}.")


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def stateless_random_brightness(image, max_delta, seed):
    from .color import adjust_brightness
    _check_delta(max_delta)
    return adjust_brightness(image, _uniform([], seed, -max_delta, max_delta))


def stateless_random_contrast(image, lower, upper, seed):
    from .color import adjust_contrast
    _check_range(lower, upper)
    return adjust_contrast(image, _uniform([], seed, lower, upper))


def stateless_random_saturation(image, lower, upper, seed):
    from .color_spaces import adjust_saturation
    _check_range(lower, upper)
    return adjust_saturation(image, _uniform([], seed, lower, upper))


def stateless_random_hue(image, max_delta, seed):
    from .color_spaces import adjust_hue
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, _uniform([], seed, -max_delta, max_delta))


def stateless_random_crop(value, size, seed, name=None):
    """A crop of `size` at offsets drawn as TensorFlow draws them (int32 uniform % room)."""
    from ..array import basic as A
    from ..debugging.checks import Assert
    from ..math.elementwise import floormod, greater_equal
    from ..math.reduce import reduce_all
    from ..array.slicing import slice as _slice
    value = _tensor(value)
    size = as_tensor(np.asarray(size, np.int32)) if not isinstance(size, Tensor) else size
    shape = A.shape(value)
    Assert(reduce_all(greater_equal(shape, size)), ["Need value.shape >= size, got ", shape, size], summarize=1000)
    room = shape - size + 1
    rank = value.shape.rank
    draws = _uniform([rank] if rank is not None else A.shape(shape), seed, 0, np.iinfo(np.int32).max, dtype=_dt.int32)
    return _slice(value, floormod(draws, room), size)


def random_hue(image, max_delta, seed=None):
    from .color_spaces import adjust_hue
    from ..random.draws import uniform
    _check_delta(max_delta, 0.5)
    return adjust_hue(image, uniform([], -max_delta, max_delta, seed=seed))


def random_saturation(image, lower, upper, seed=None):
    from .color_spaces import adjust_saturation
    from ..random.draws import uniform
    _check_range(lower, upper)
    return adjust_saturation(image, uniform([], lower, upper, seed=seed))
