"""`tf.image` colour-space conversions and hue/saturation adjustments.

YUV and YIQ are linear: a tensordot of the last axis with TensorFlow's 3x3 matrices (so they are
MatMuls in a graph and differentiable). HSV and the adjustments are ops of their own
(ops/image/hsv.py). adjust_hue/adjust_saturation run in float32 and convert back, as TensorFlow's
wrappers do (float16 stays float16: its kernels take it).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import Tensor
from .hsv import AdjustHue, AdjustSaturation, HSVToRGB, RGBToHSV
from ..operands import as_tensor
from ..registry import bind

_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617], [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021], [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512], [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _tensor(x):
    return x if isinstance(x, Tensor) else as_tensor(x)


def _linear(images, matrix):
    from ..linalg.matmul import tensordot
    images = _tensor(images)
    if not images.dtype.is_floating:
        raise TypeError(f"Cannot convert {matrix} to EagerTensor of dtype {images.dtype.name}")
    kernel = as_tensor(np.array(matrix, images.dtype.np_dtype))
    rank = images.shape.rank
    return tensordot(images, kernel, axes=[[rank - 1], [0]])


def rgb_to_yuv(images):
    """RGB in [0, 1] to Y in [0, 1], U in [-0.436, 0.436], V in [-0.615, 0.615]."""
    return _linear(images, _RGB_TO_YUV)


def yuv_to_rgb(images):
    return _linear(images, _YUV_TO_RGB)


def rgb_to_yiq(images):
    """RGB in [0, 1] to Y in [0, 1], I in [-0.5957, 0.5957], Q in [-0.5226, 0.5226]."""
    return _linear(images, _RGB_TO_YIQ)


def yiq_to_rgb(images):
    return _linear(images, _YIQ_TO_RGB)


def rgb_to_hsv(images, name=None):
    """Hue, saturation and value, each in [0, 1], of float RGB pixels in [0, 1]."""
    return bind(RGBToHSV, (_tensor(images),))


def hsv_to_rgb(images, name=None):
    return bind(HSVToRGB, (_tensor(images),))


def _in_float32(image, op, amount):
    from .color import convert_image_dtype
    image = _tensor(image)
    if image.dtype in (_dt.float16, _dt.float32):
        return bind(op, (image, as_tensor(amount, _dt.float32)))
    flt = convert_image_dtype(image, _dt.float32)
    return convert_image_dtype(bind(op, (flt, as_tensor(amount, _dt.float32))), image.dtype)


def adjust_hue(image, delta, name=None):
    """Rotates the hue by `delta` turns (in [-1, 1])."""
    if not isinstance(delta, Tensor) and not -1 <= float(delta) <= 1:
        raise ValueError("delta must be in the interval [-1, 1]")
    return _in_float32(image, AdjustHue, delta)


def adjust_saturation(image, saturation_factor, name=None):
    """Multiplies the saturation by `saturation_factor` (clipped to [0, 1] after)."""
    return _in_float32(image, AdjustSaturation, saturation_factor)
