"""`tf.image` filters and image-quality measures: sobel_edges, ssim and ssim_multiscale.

All three are compositions, built the way TensorFlow builds them so that the numbers agree:
- sobel_edges: reflect-pad by one pixel, then a depthwise 3x3 convolution with the vertical and
  horizontal Sobel kernels; the two responses become a new last axis.
- ssim: local means, variances and covariance under a normalised Gaussian window (the window is a
  softmax of -d^2 / (2 sigma^2), exactly as TensorFlow forms it) by a VALID depthwise convolution;
  luminance * contrast-structure averaged over the positions, then over the channels.
- ssim_multiscale: the contrast-structure term at each scale and the full SSIM at the last, each
  scale halving the image with a 2x2 average pool after symmetric padding to even sizes.
Integer images are converted to float32 in [0, 1] first, and max_val with them.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from ..operands import as_tensor

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def _tensor(x):
    return x if isinstance(x, Tensor) else as_tensor(x)


def sobel_edges(image):
    """[batch, h, w, d] -> [batch, h, w, d, 2]: the vertical (dy) and horizontal (dx) Sobel responses."""
    from ..array import basic as A
    from ..nn.depthwise import depthwise_conv2d
    from ..array.joining import concat
    from ..array.tiling import tile
    from ..array.padding import pad
    image = _tensor(image)
    static = image.shape
    kernels = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]], [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
    kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2).astype(image.dtype.np_dtype)  # 3, 3, 1, 2
    dynamic = A.shape(image)
    filters = tile(as_tensor(kernels), concat([as_tensor(np.array([1, 1], np.int32)), dynamic[-1:],
                                                 as_tensor(np.array([1], np.int32))], axis=0))
    padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = depthwise_conv2d(padded, filters, [1, 1, 1, 1], "VALID")
    out = A.reshape(out, concat([dynamic, as_tensor(np.array([2], np.int32))], axis=0))
    out.set_shape(static.concatenate([2]))
    return out


def _check_compatible(img1, img2):
    s1, s2 = img1.shape, img2.shape
    for s in (s1, s2):
        if s.rank is not None and s.rank < 3:
            raise ValueError(f"Shape must be at least rank 3 but is rank {s.rank}")
    if s1.rank is not None and s2.rank is not None:
        t1, t2 = s1[-3:], s2[-3:]
        if not t1.is_compatible_with(t2):
            raise ValueError(f"Shapes {t1} and {t2} are incompatible")
        for d1, d2 in zip(reversed(s1.as_list()[:-3]), reversed(s2.as_list()[:-3])):
            if not (d1 == 1 or d2 == 1 or d1 is None or d2 is None or d1 == d2):
                raise ValueError(f"Two images are not compatible: {s1} and {s2}")


def _as_float_images(img1, img2, max_val):
    from .color import convert_image_dtype
    from ..math.elementwise import cast
    img1, img2 = _tensor(img1), _tensor(img2)
    _check_compatible(img1, img2)
    max_val = convert_image_dtype(cast(as_tensor(max_val), img1.dtype), _dt.float32)
    return convert_image_dtype(img1, _dt.float32), convert_image_dtype(img2, _dt.float32), max_val


def _gaussian_window(size, sigma, dtype):
    """[size, size, 1, 1]: softmax over the grid of -0.5 * (dx^2 + dy^2) / sigma^2."""
    from ..array import basic as A
    from ..math.elementwise import cast, square
    from ..nn.basic import softmax
    sigma = as_tensor(np.array(sigma, dtype.np_dtype))
    coords = cast(as_tensor(np.arange(size, dtype=np.int32)), dtype)
    coords = coords - cast(as_tensor(np.int32(size - 1)), dtype) / 2.0
    g = square(coords)
    g = g * (-0.5 / square(sigma))
    g = A.reshape(g, [1, -1]) + A.reshape(g, [-1, 1])
    g = softmax(A.reshape(g, [1, -1]))
    return A.reshape(g, [size, size, 1, 1])


def _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma, k1, k2, return_index_map=False):
    """(ssim, cs) per channel: averaged over the positions unless return_index_map."""
    from ..array import basic as A
    from ..nn.depthwise import depthwise_conv2d
    from ..array.joining import concat
    from ..array.tiling import tile
    from ..math.elementwise import square
    from ..math.reduce import reduce_mean
    for img in (img1, img2):
        hw = img.shape.as_list()[-3:-1] if img.shape.rank is not None else [None, None]
        if any(d is not None and d < filter_size for d in hw):
            from ...core.errors import InvalidArgumentError
            raise InvalidArgumentError(None, None, f"assertion failed: [{img.shape}] [{filter_size}]: the image is "
                                                   f"smaller than the filter")
    window = _gaussian_window(filter_size, filter_sigma, img1.dtype)
    channels = A.shape(img1)[-1:]
    window = tile(window, concat([as_tensor(np.array([1, 1], np.int32)), channels,
                                    as_tensor(np.array([1], np.int32))], axis=0))

    def local_mean(x):
        shape = A.shape(x)
        flat = A.reshape(x, concat([as_tensor(np.array([-1], np.int32)), shape[-3:]], axis=0))
        y = depthwise_conv2d(flat, window, [1, 1, 1, 1], "VALID")
        return A.reshape(y, concat([shape[:-3], A.shape(y)[1:]], axis=0))

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean1, mean2 = local_mean(img1), local_mean(img2)
    num0 = mean1 * mean2 * 2.0
    den0 = square(mean1) + square(mean2)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = local_mean(img1 * img2) * 2.0
    den1 = local_mean(square(img1) + square(img2))
    c2 = c2 * 1.0
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    if return_index_map:
        return luminance * cs, cs
    return reduce_mean(luminance * cs, [-3, -2]), reduce_mean(cs, [-3, -2])


def ssim(img1, img2, max_val, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, return_index_map=False):
    """Structural similarity of two batches of images (the last three axes are height, width, channels)."""
    from ..math.reduce import reduce_mean
    img1, img2, max_val = _as_float_images(img1, img2, max_val)
    per_channel, _ = _ssim_per_channel(img1, img2, max_val, int(filter_size), filter_sigma, k1, k2,
                                       return_index_map)
    return reduce_mean(per_channel, [-1])


def _halve(images, heads):
    """One scale down: symmetric padding to even height and width, then a 2x2 average pool."""
    from ..array import basic as A
    from ..array.joining import concat
    from ..array.tiling import tile
    from ..math.elementwise import floormod
    from ..array.padding import pad
    from ..nn.pooling import avg_pool
    out = []
    for x, head in zip(images, heads):
        tail = A.shape(x)[-3:]
        flat = A.reshape(x, concat([as_tensor(np.array([-1], np.int32)), tail], axis=0))
        remainder = floormod(tail, as_tensor(np.array([2, 2, 1], np.int32)))
        padding = pad(A.expand_dims(remainder, -1), [[1, 0], [1, 0]])  # [[0,0],[0,rh],[0,rw],[0,0]]
        padded = pad(flat, padding, mode="SYMMETRIC")
        pooled = avg_pool(padded, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        out.append(A.reshape(pooled, concat([head, A.shape(pooled)[1:]], axis=0)))
    return out


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11, filter_sigma=1.5,
                    k1=0.01, k2=0.03):
    """Multi-scale SSIM: the product over scales of relu(cs) ** weight, with the full SSIM at the last scale."""
    from ..array import basic as A
    from ..array import joining as J
    from ..math.elementwise import pow as _pow
    from ..nn.basic import relu
    from ..math.reduce import reduce_mean, reduce_prod
    img1, img2, max_val = _as_float_images(img1, img2, max_val)
    images = [img1, img2]
    heads = [A.shape(img1)[:-3], A.shape(img2)[:-3]]
    terms = []
    per_channel = None
    for k in range(len(power_factors)):
        if k > 0:
            images = _halve(images, heads)
        per_channel, cs = _ssim_per_channel(*images, max_val, int(filter_size), filter_sigma, k1, k2)
        terms.append(relu(cs))
    terms[-1] = relu(per_channel)
    stacked = J.stack(terms, axis=-1)
    weights = as_tensor(np.array(power_factors, np.float32))
    return reduce_mean(reduce_prod(_pow(stacked, weights), [-1]), [-1])
