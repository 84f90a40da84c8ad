"""`tf.image` pixel-value work: dtype conversion, grayscale, brightness, contrast, gamma,
standardisation, PSNR, image gradients, total variation, and the random adjustments.

Integer images are converted to float in [0, 1] first and back after (as TensorFlow does, so a
uint8 result saturates at 0 and 255 and rounds down). All are compositions of existing ops.
"""
from __future__ import annotations

import math

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from ..operands import as_tensor


def _tensor(x):
    return x if isinstance(x, Tensor) else as_tensor(x)


def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Rescales between dtypes: integers span [0, max], floats [0, 1]. Float to integer multiplies
    by (max + 0.5) and truncates; integer to integer shifts by the difference in bits."""
    from ..math.elementwise import cast, clip_by_value, multiply
    image = _tensor(image)
    dtype = _dt.as_dtype(dtype)
    src = image.dtype
    if not (src.is_integer or src.is_floating) or not (dtype.is_integer or dtype.is_floating):
        raise AttributeError(f"Image dtype {src.name} and target dtype {dtype.name} must be integer or float")
    if src is dtype:
        return image
    if src.is_integer and dtype.is_integer:
        src_max, dst_max = int(np.iinfo(src.np_dtype).max), int(np.iinfo(dtype.np_dtype).max)
        if src_max > dst_max:  # fewer bits: divide (a right shift for these powers of two)
            scale = (src_max + 1) // (dst_max + 1)
            from ..math.elementwise import floordiv
            return cast(floordiv(image, cast(scale, src)), dtype)
        scale = (dst_max + 1) // (src_max + 1)
        return multiply(cast(image, dtype), cast(scale, dtype))
    if src.is_floating and dtype.is_floating:
        return cast(image, dtype)
    if src.is_integer:  # integer -> float
        return multiply(cast(image, dtype), cast(1.0 / float(np.iinfo(src.np_dtype).max), dtype))
    scale = float(np.iinfo(dtype.np_dtype).max) + 0.5  # float -> integer
    scaled = multiply(image, cast(scale, src))
    if saturate:
        info = np.iinfo(dtype.np_dtype)
        scaled = clip_by_value(scaled, cast(float(info.min), src), cast(float(info.max), src))
    return cast(scaled, dtype)


def _as_float(image):
    image = _tensor(image)
    return image, (image if image.dtype.is_floating else convert_image_dtype(image, _dt.float32))


def _back(original, result):
    return result if original.dtype.is_floating else convert_image_dtype(result, original.dtype, saturate=True)


def rgb_to_grayscale(images, name=None):
    """The luma (0.2989 R + 0.5870 G + 0.1140 B) as one channel, in the input's dtype."""
    from ..math.reduce import reduce_sum
    images, flt = _as_float(images)
    weights = as_tensor(np.array([0.2989, 0.5870, 0.1140], flt.dtype.np_dtype))
    return _back(images, reduce_sum(flt * weights, axis=-1, keepdims=True))


def grayscale_to_rgb(images, name=None):
    """One channel repeated into three."""
    from ..array.joining import concat
    images = _tensor(images)
    if images.shape.rank is not None and images.shape.rank >= 1 and images.shape[-1] not in (None, 1):
        raise ValueError(f"Last dimension of a grayscale image should be size 1, got {images.shape[-1]}")
    return concat([images, images, images], axis=-1)


def adjust_brightness(image, delta):
    """image + delta (in [0, 1] units for an integer image)."""
    image, flt = _as_float(image)
    return _back(image, flt + as_tensor(delta, flt.dtype))


def adjust_contrast(images, contrast_factor):
    """Each channel of each image moved away from its mean: (x - mean) * factor + mean."""
    from ..math.reduce import reduce_mean
    images, flt = _as_float(images)
    rank = flt.shape.rank
    mean = reduce_mean(flt, axis=[rank - 3, rank - 2], keepdims=True)
    return _back(images, (flt - mean) * as_tensor(contrast_factor, flt.dtype) + mean)


def adjust_gamma(image, gamma=1, gain=1):
    """gain * image ** gamma (on [0, 1] values for an integer image)."""
    from ..math.elementwise import pow as _pow
    if float(gamma) < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    image, flt = _as_float(image)
    return _back(image, as_tensor(gain, flt.dtype) * _pow(flt, as_tensor(gamma, flt.dtype)))


def per_image_standardization(image):
    """Each image to zero mean and unit variance over all its pixels and channels; the stddev is
    at least 1/sqrt(number of elements) so a flat image does not divide by zero. float32 out for
    integer input."""
    from ..math.elementwise import cast, maximum, rsqrt, sqrt
    from ..math.reduce import reduce_mean
    image = _tensor(image)
    flt = image if image.dtype.is_floating else cast(image, _dt.float32)
    rank = flt.shape.rank
    axes = [rank - 3, rank - 2, rank - 1]
    count = 1
    for d in flt.shape.as_list()[-3:]:
        count *= d
    mean = reduce_mean(flt, axis=axes, keepdims=True)
    variance = reduce_mean((flt - mean) * (flt - mean), axis=axes, keepdims=True)
    floor = rsqrt(as_tensor(float(count), flt.dtype))
    return (flt - mean) / maximum(sqrt(variance), floor)


def psnr(a, b, max_val, name=None):
    """Peak signal-to-noise ratio per image: 20 log10(max_val) - 10 log10(mean squared error)."""
    from ..math.elementwise import cast, log
    from ..math.reduce import reduce_mean
    a, b = _tensor(a), _tensor(b)
    if a.dtype is not b.dtype:
        raise TypeError(f"psnr needs images of one dtype, got {a.dtype.name} and {b.dtype.name}")
    fa, fb = (x if x.dtype.is_floating else convert_image_dtype(x, _dt.float32) for x in (a, b))
    max_value = cast(as_tensor(max_val), fa.dtype)
    if not a.dtype.is_floating:
        max_value = convert_image_dtype(as_tensor(max_val, a.dtype), _dt.float32)
    mse = reduce_mean((fa - fb) * (fa - fb), axis=[-3, -2, -1])
    ten = as_tensor(math.log(10.0), fa.dtype)
    return 20.0 * log(max_value) / ten - as_tensor(10.0 / math.log(10.0), fa.dtype) * log(mse)


def image_gradients(image):
    """(dy, dx): forward differences along height and width of [N, H, W, C] images, zero in the
    last row / column."""
    from ..array.padding import pad
    image = _tensor(image)
    if image.shape.rank != 4:
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {image.shape}.")
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    return pad(dy, [[0, 0], [0, 1], [0, 0], [0, 0]]), pad(dx, [[0, 0], [0, 0], [0, 1], [0, 0]])


def total_variation(images, name=None):
    """The sum of absolute differences between neighbouring pixels, per image (or one number for
    a single image)."""
    from ..math.elementwise import abs as _abs
    from ..math.reduce import reduce_sum
    images = _tensor(images)
    if images.shape.rank == 3:
        dh = images[1:, :, :] - images[:-1, :, :]
        dw = images[:, 1:, :] - images[:, :-1, :]
        return reduce_sum(_abs(dh)) + reduce_sum(_abs(dw))
    if images.shape.rank != 4:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    dh = images[:, 1:, :, :] - images[:, :-1, :, :]
    dw = images[:, :, 1:, :] - images[:, :, :-1, :]
    return reduce_sum(_abs(dh), axis=[1, 2, 3]) + reduce_sum(_abs(dw), axis=[1, 2, 3])


# --- random adjustments: a draw from tf.random (TensorFlow's seed rules, not its streams) ---

def _draw(minval, maxval, seed, shape=()):
    from ..random.draws import uniform
    return uniform(shape, minval, maxval, seed=seed)


def random_brightness(image, max_delta, seed=None):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return adjust_brightness(image, _draw(-max_delta, max_delta, seed))


def random_contrast(image, lower, upper, seed=None):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    return adjust_contrast(image, _draw(lower, upper, seed))


def _random_flip(image, seed, flip):
    from ..array.basic import reshape, where
    from ..math.elementwise import less
    image = _tensor(image)
    if image.shape.rank == 3:
        return where(less(_draw(0.0, 1.0, seed), 0.5), flip(image), image)
    batch = image.shape[0]
    if batch is None:
        raise ValueError("random flips of a batch need its size when tracing")
    coin = less(_draw(0.0, 1.0, seed, [batch]), 0.5)  # one draw per image
    return where(reshape(coin, [-1, 1, 1, 1]), flip(image), image)


def random_flip_left_right(image, seed=None):
    from .geometry import flip_left_right
    return _random_flip(image, seed, flip_left_right)


def random_flip_up_down(image, seed=None):
    from .geometry import flip_up_down
    return _random_flip(image, seed, flip_up_down)


def random_crop(value, size, seed=None, name=None):
    """A crop of `size` at a uniformly drawn offset (each axis independently)."""
    from ..math.elementwise import cast, floor
    value = _tensor(value)
    size = [int(s) for s in size]
    shape = value.shape.as_list()
    if len(size) != len(shape) or any(d is None for d in shape):
        raise ValueError("random_crop needs a size per axis and the value's shape when tracing")
    if any(s > d for s, d in zip(size, shape)):
        # TensorFlow asserts value.shape >= size with tf.Assert: eagerly its InvalidArgumentError now, in
        # a graph an Assert op that fails when the graph runs (so the crop it guards is never used)
        from ..array.basic import zeros
        from ..debugging.checks import Assert
        from ..math.elementwise import greater_equal
        from ..math.reduce import reduce_all
        shape_t, size_t = as_tensor(np.array(shape, np.int32)), as_tensor(np.array(size, np.int32))
        Assert(reduce_all(greater_equal(shape_t, size_t)), ["Need value.shape >= size, got ", shape_t, size_t],
               summarize=1000)
        return zeros(size, value.dtype)
    room = np.array([d - s + 1 for d, s in zip(shape, size)], np.float32)
    offsets = cast(floor(_draw(0.0, 1.0, seed, [len(size)]) * as_tensor(room)), _dt.int32)
    from ..array.slicing import slice as _slice
    return _slice(value, offsets, size)
