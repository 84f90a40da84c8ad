"""keras.ops.image (Keras' keras/src/ops/image.py) on eagerflow's tf.image ops and the affine resampler of
keras/layers/affine_transform.py. Images are (batch, height, width, channels) or unbatched (h, w, c);
channels_first inputs are moved to channels_last and back."""
from __future__ import annotations

import math

from ._common import FLOATX, public, tensor, tf
from ._image_projective import homography, projective_resample

__all__ = ["affine_transform", "crop_images", "extract_patches", "extract_patches_3d", "gaussian_blur", "hsv_to_rgb",
           "map_coordinates", "pad_images", "perspective_transform", "resize", "rgb_to_grayscale", "rgb_to_hsv",
           "sobel_edges", "ssim"]
__dir__ = public(__all__)


def _channels_last(images, data_format):
    """(images as a batched channels_last tensor, a function undoing both moves)."""
    t = tf()
    images = tensor(images)
    rank = images.shape.rank
    if rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch of images). "
                         f"Received input with shape: images.shape={tuple(images.shape.as_list())}")
    first = data_format == "channels_first"
    x = t.transpose(images, [0, 2, 3, 1] if rank == 4 else [1, 2, 0]) if first else images
    x = t.expand_dims(x, 0) if rank == 3 else x

    def back(y):
        y = y[0] if rank == 3 else y
        return t.transpose(y, [0, 3, 1, 2] if rank == 4 else [2, 0, 1]) if first else y
    return x, back


def _as_float(x):
    return x if x.dtype.is_floating else tf().cast(x, FLOATX)


def rgb_to_grayscale(images, data_format=None):
    """0.2989 R + 0.587 G + 0.114 B, one channel kept."""
    t = tf()
    x, back = _channels_last(images, data_format)
    dtype = x.dtype
    x = _as_float(x)
    gray = t.reduce_sum(x * t.constant([0.2989, 0.587, 0.114], dtype=x.dtype), axis=-1, keepdims=True)
    return back(t.cast(gray, dtype) if dtype != x.dtype else gray)


def rgb_to_hsv(images, data_format=None):
    """Hue, saturation and value in [0, 1] from RGB in [0, 1] (floating images only)."""
    t = tf()
    x, back = _channels_last(images, data_format)
    if not x.dtype.is_floating:
        raise ValueError("Invalid images dtype: expected float dtype. Received: images.dtype="
                         f"{x.dtype.name}")
    r, g, b = t.unstack(x, axis=-1)
    value = t.reduce_max(x, axis=-1)
    delta = value - t.reduce_min(x, axis=-1)
    safe_value = t.where(value > 0, value, t.ones_like(value))
    saturation = t.where(value > 0, delta / safe_value, t.zeros_like(value))
    safe_delta = t.where(delta > 0, delta, t.ones_like(delta))
    hue = t.where(t.equal(value, r), (g - b) / safe_delta,
                  t.where(t.equal(value, g), 2.0 + (b - r) / safe_delta, 4.0 + (r - g) / safe_delta))
    hue = t.where(delta > 0, hue / 6.0, t.zeros_like(hue))
    hue = t.where(hue < 0, hue + 1.0, hue)
    return back(t.stack([hue, saturation, value], axis=-1))


def hsv_to_rgb(images, data_format=None):
    """RGB from hue, saturation and value in [0, 1] (floating images only): channel n (5 red, 3 green, 1 blue)
    is v - v s clip(min(k, 4 - k), 0, 1) with k = (n + 6 h) mod 6."""
    t = tf()
    x, back = _channels_last(images, data_format)
    if not x.dtype.is_floating:
        raise ValueError("Invalid images dtype: expected float dtype. Received: images.dtype="
                         f"{x.dtype.name}")
    h, s, v = t.unstack(x, axis=-1)
    channels = []
    for n in (5.0, 3.0, 1.0):
        k = t.math.floormod(n + h * 6.0, 6.0)
        channels.append(v - v * s * t.clip_by_value(t.minimum(k, 4.0 - k), 0.0, 1.0))
    return back(t.stack(channels, axis=-1))


_METHODS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    t = tf()
    if interpolation not in _METHODS:
        raise ValueError(f"Invalid value for argument `interpolation`. Expected of one {_METHODS}. "
                         f"Received: interpolation={interpolation}")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `crop_to_aspect_ratio` & `pad_to_aspect_ratio` can be `True`.")
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers. Received: size={size}")
    x, back = _channels_last(images, data_format)
    height, width = size
    if crop_to_aspect_ratio:
        from ..layers.preprocessing.image_preprocessing import crop_to_aspect_ratio as crop
        x = crop(x, height, width)
    elif pad_to_aspect_ratio:
        x = _pad_to_aspect(x, height, width, fill_value)
    return back(t.image.resize(x, (height, width), method=interpolation, antialias=antialias))


def _pad_to_aspect(x, height, width, fill_value):
    """Keras' padding to the target aspect ratio: the same band of fill_value on both sides, half the missing
    size rounded down (so an odd shortfall of one pads nothing)."""
    t = tf()
    h, w = x.shape.as_list()[1:3]
    band_h = (max(h, int(w * height / width)) - h) // 2
    band_w = (max(w, int(h * width / height)) - w) // 2
    return t.pad(x, [[0, 0], [band_h, band_h], [band_w, band_w], [0, 0]], constant_values=fill_value)


def _sides(total, before, after, target, names):
    if before is None and after is None:
        raise ValueError(f"Must specify either `{names[0]}` or `{names[1]}`.")
    if before is None:
        before = total - after - target if target is not None else 0
    if after is None:
        after = total - before - target if target is not None else 0
    return before, after


def pad_images(images, top_padding=None, left_padding=None, bottom_padding=None, right_padding=None,
               target_height=None, target_width=None, data_format=None):
    """Zero padding on each side; a missing side follows from the target size."""
    t = tf()
    x, back = _channels_last(images, data_format)
    h, w = x.shape.as_list()[1:3]
    if top_padding is None:
        top_padding = target_height - h - (bottom_padding or 0) if target_height is not None else 0
    if bottom_padding is None:
        bottom_padding = target_height - h - top_padding if target_height is not None else 0
    if left_padding is None:
        left_padding = target_width - w - (right_padding or 0) if target_width is not None else 0
    if right_padding is None:
        right_padding = target_width - w - left_padding if target_width is not None else 0
    for name, value in (("top_padding", top_padding), ("bottom_padding", bottom_padding),
                        ("left_padding", left_padding), ("right_padding", right_padding)):
        if value < 0:
            raise ValueError(f"{name} must be >= 0. Received: {name}={value}")
    return back(t.pad(x, [[0, 0], [top_padding, bottom_padding], [left_padding, right_padding], [0, 0]]))


def crop_images(images, top_cropping=None, left_cropping=None, bottom_cropping=None, right_cropping=None,
                target_height=None, target_width=None, data_format=None):
    """The window left after cropping each side; a missing side follows from the target size."""
    x, back = _channels_last(images, data_format)
    h, w = x.shape.as_list()[1:3]
    top_cropping = top_cropping or 0
    left_cropping = left_cropping or 0
    if target_height is None:
        target_height = h - top_cropping - (bottom_cropping or 0)
    if target_width is None:
        target_width = w - left_cropping - (right_cropping or 0)
    if target_height <= 0 or target_width <= 0 or top_cropping + target_height > h or \
            left_cropping + target_width > w:
        raise ValueError(f"The cropped size must be positive and inside the image. Received: image size "
                         f"{(h, w)}, cropping top={top_cropping}, left={left_cropping}, target "
                         f"{(target_height, target_width)}")
    return back(x[:, top_cropping:top_cropping + target_height, left_cropping:left_cropping + target_width, :])


def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """(.., out_h, out_w, size_h * size_w * channels): each patch flattened in (row, column, channel) order,
    as TensorFlow's ExtractImagePatches; built from strided slices of the (padded) image."""
    t = tf()
    x, back = _channels_last(images, data_format)
    kh, kw = (size, size) if isinstance(size, int) else tuple(size)
    sh, sw = (kh, kw) if strides is None else ((strides, strides) if isinstance(strides, int) else tuple(strides))
    dh, dw = (dilation_rate, dilation_rate) if isinstance(dilation_rate, int) else tuple(dilation_rate)
    h, w = x.shape.as_list()[1:3]
    eh, ew = (kh - 1) * dh + 1, (kw - 1) * dw + 1
    if padding.lower() == "same":
        out_h, out_w = -(-h // sh), -(-w // sw)
        ph, pw = max((out_h - 1) * sh + eh - h, 0), max((out_w - 1) * sw + ew - w, 0)
        x = t.pad(x, [[0, 0], [ph // 2, ph - ph // 2], [pw // 2, pw - pw // 2], [0, 0]])
    else:
        out_h, out_w = (h - eh) // sh + 1, (w - ew) // sw + 1
    pieces = []
    for i in range(kh):
        for j in range(kw):
            pieces.append(t.strided_slice(x, [0, i * dh, j * dw, 0],
                                          [t.shape(x)[0], i * dh + (out_h - 1) * sh + 1,
                                           j * dw + (out_w - 1) * sw + 1, x.shape[-1]], [1, sh, sw, 1]))
    patches = t.stack(pieces, axis=-2)  # (N, out_h, out_w, kh * kw, C)
    return back(t.reshape(patches, [-1, out_h, out_w, kh * kw * x.shape[-1]]))


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0,
                     data_format=None):
    """Output pixel (x, y) reads input point (a0 x + a1 y + a2, b0 x + b1 y + b2) / (c0 x + c1 y + 1); transform
    rows are [a0, a1, a2, b0, b1, b2, c0, c1]."""
    t = tf()
    from ..layers.preprocessing.affine_transform import FILL_MODES
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError("Invalid value for argument `interpolation`. Expected of one {'nearest', 'bilinear'}. "
                         f"Received: interpolation={interpolation}")
    if fill_mode not in FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected of one {set(FILL_MODES)}. "
                         f"Received: fill_mode={fill_mode}")
    x, back = _channels_last(images, data_format)
    transform = tensor(transform)
    if transform.shape.rank == 1:
        transform = t.expand_dims(transform, 0)
    transform = t.broadcast_to(transform, t.stack([t.shape(x)[0], 8]))
    dtype = x.dtype
    x = _as_float(x)
    out = projective_resample(x, transform, interpolation=interpolation, fill_mode=fill_mode, fill_value=fill_value)
    return back(out if out.dtype == dtype else t.cast(out, dtype))


def perspective_transform(images, start_points, end_points, interpolation="bilinear", fill_value=0,
                          data_format=None):
    """The projective warp taking the quadrilateral start_points ((4, 2) or (N, 4, 2), (x, y) corners) to
    end_points; points off the image read fill_value."""
    t = tf()
    if interpolation not in ("nearest", "bilinear"):
        raise ValueError("Invalid value for argument `interpolation`. Expected of one {'nearest', 'bilinear'}. "
                         f"Received: interpolation={interpolation}")
    start, end = t.cast(start_points, "float32"), t.cast(end_points, "float32")
    for name, points in (("start_points", start), ("end_points", end)):
        if points.shape.rank not in (2, 3) or points.shape.as_list()[-2:] != [4, 2]:
            raise ValueError(f"Invalid {name} shape: expected (4, 2) for a single image or (N, 4, 2) for a batch. "
                             f"Received shape: {tuple(points.shape.as_list())}")
    x, back = _channels_last(images, data_format)
    start = start if start.shape.rank == 3 else t.expand_dims(start, 0)
    end = end if end.shape.rank == 3 else t.expand_dims(end, 0)
    transform = t.broadcast_to(homography(start, end), t.stack([t.shape(x)[0], 8]))
    dtype = x.dtype
    out = projective_resample(_as_float(x), transform, interpolation=interpolation, fill_value=fill_value)
    return back(out if out.dtype == dtype else t.cast(out, dtype))


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """inputs sampled at `coordinates` (one array per input axis) with order 0 (nearest) or 1 (linear)
    interpolation; points off the array read fill_value ("constant") or the edge ("nearest")."""
    t = tf()
    if order not in (0, 1):
        raise NotImplementedError(f"map_coordinates with order={order} is not supported: order must be 0 or 1.")
    if fill_mode not in ("constant", "nearest"):
        raise NotImplementedError(f"map_coordinates with fill_mode={fill_mode!r} is not supported yet.")
    inputs = tensor(inputs)
    shape = inputs.shape.as_list()
    coords = [t.cast(c, FLOATX if inputs.dtype.name != "float64" else "float64") for c in coordinates]
    if len(coords) != len(shape):
        raise ValueError("First dim of `coordinates` must be the same as the rank of `inputs`. Received inputs with "
                         f"shape: {tuple(shape)} and coordinate leading dim of {len(coords)}")
    flat = t.reshape(inputs, [-1])

    def read(corner):
        inside = None
        index = 0
        for c, n in zip(corner, shape):
            ok = t.logical_and(c >= 0, c <= n - 1)
            inside = ok if inside is None else t.logical_and(inside, ok)
            index = index * n + t.cast(t.clip_by_value(c, 0.0, n - 1.0), "int32")
        values = t.gather(flat, index)
        if fill_mode == "nearest":
            return values
        return t.where(inside, values, t.cast(fill_value, values.dtype) + t.zeros_like(values))

    if order == 0:
        return read([t.math.round(c) for c in coords])  # half to even, as Keras on TF
    lows = [t.floor(c) for c in coords]
    out = 0.0
    for corner_bits in range(2 ** len(coords)):
        corner, weight = [], 1.0
        for axis, (c, lo) in enumerate(zip(coords, lows)):
            up = (corner_bits >> axis) & 1
            corner.append(lo + up)
            weight = weight * ((c - lo) if up else (1.0 - (c - lo)))
        out = out + weight * t.cast(read(corner), weight.dtype)
    return t.cast(out, inputs.dtype) if out.dtype != inputs.dtype else out


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    """A Gaussian filter per channel, zero-padded to keep the size. As Keras builds it, the 2-D kernel is the
    outer product of the second axis' 1-D Gaussian with the first's, laid out as (kernel_size[0], [1])."""
    t = tf()
    x, back = _channels_last(images, data_format)

    def gaussian(n, s):
        g = [math.exp(-0.5 * ((i - (n - 1) / 2.0) / s) ** 2) for i in range(n)]
        return [v / sum(g) for v in g]
    rows, cols = gaussian(kernel_size[1], sigma[1]), gaussian(kernel_size[0], sigma[0])
    flat = [a * b for a in rows for b in cols]
    kernel = t.reshape(t.constant(flat, dtype=x.dtype), [kernel_size[0], kernel_size[1], 1, 1])
    kernel = t.tile(kernel, [1, 1, x.shape[-1], 1])
    return back(t.nn.depthwise_conv2d(x, kernel, [1, 1, 1, 1], "SAME"))


def sobel_edges(images, data_format=None):
    """(.., 2): the vertical and horizontal Sobel responses per channel, reflect-padded (TF's sobel_edges)."""
    t = tf()
    images = tensor(images)
    x = t.transpose(images, (0, 2, 3, 1)) if data_format == "channels_first" else images
    x = _as_float(x)
    gy = t.constant([[-1.0, -2.0, -1.0], [0.0, 0.0, 0.0], [1.0, 2.0, 1.0]], dtype=x.dtype)
    channels = x.shape[-1]
    padded = t.pad(x, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = []
    for k in (gy, t.transpose(gy)):
        kernel = t.tile(t.reshape(k, [3, 3, 1, 1]), [1, 1, channels, 1])
        out.append(t.nn.depthwise_conv2d(padded, kernel, [1, 1, 1, 1], "VALID"))
    edges = t.stack(out, axis=-1)
    return t.transpose(edges, (0, 3, 1, 2, 4)) if data_format == "channels_first" else edges


def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid", data_format=None):
    """(.., out_d, out_h, out_w, d * h * w * channels): each patch flattened in (depth, row, column, channel)
    order, what Keras' identity-kernel 3-D convolution yields; built from strided slices."""
    t = tf()
    volumes = tensor(volumes)
    if isinstance(size, int):
        size = (size, size, size)
    elif len(size) != 3:
        raise TypeError(f"Invalid `size` argument. Expected an int or a tuple of length 3. Received: size={size}")
    strides = size if strides is None else strides
    if isinstance(strides, int):
        strides = (strides, strides, strides)
    if len(strides) != 3:
        raise ValueError(f"Invalid `strides` argument. Got: {strides}")
    dilation = (dilation_rate,) * 3 if isinstance(dilation_rate, int) else tuple(dilation_rate)
    if max(strides) > 1 and max(dilation) > 1:  # the convolution Keras builds it on refuses both
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={list(strides)} and dilation_rate={list(dilation)}")
    unbatched = volumes.shape.rank == 4
    x = t.expand_dims(volumes, 0) if unbatched else volumes
    if data_format == "channels_first":
        x = t.transpose(x, (0, 2, 3, 4, 1))
    spatial = x.shape.as_list()[1:4]
    extents = [(k - 1) * d + 1 for k, d in zip(size, dilation)]
    if padding.lower() == "same":
        outs = [-(-n // s) for n, s in zip(spatial, strides)]
        pads = [max((o - 1) * s + e - n, 0) for o, s, e, n in zip(outs, strides, extents, spatial)]
        x = t.pad(x, [[0, 0]] + [[p // 2, p - p // 2] for p in pads] + [[0, 0]])
    else:
        outs = [(n - e) // s + 1 for n, e, s in zip(spatial, extents, strides)]
    pieces = []
    for i in range(size[0]):
        for j in range(size[1]):
            for k in range(size[2]):
                begin = [0, i * dilation[0], j * dilation[1], k * dilation[2], 0]
                end = [t.shape(x)[0]] + [b + (o - 1) * s + 1 for b, o, s in zip(begin[1:4], outs, strides)] + \
                      [x.shape[-1]]
                pieces.append(t.strided_slice(x, begin, end, [1] + list(strides) + [1]))
    patches = t.reshape(t.stack(pieces, axis=-2), [-1] + outs + [len(pieces) * x.shape[-1]])
    if data_format == "channels_first":
        patches = t.transpose(patches, (0, 4, 1, 2, 3))
    return patches[0] if unbatched else patches


def ssim(image1, image2, max_val=1.0, filter_size=11, filter_sigma=1.5, k1=0.01, k2=0.03, data_format=None):
    """The mean structural similarity per image: Gaussian-weighted local means, variances and covariance over
    'valid' windows of filter_size, averaged over the map and the channels."""
    t = tf()
    image1, image2 = tensor(image1), tensor(image2)
    original = image1.dtype
    dtype = original if original.is_floating else FLOATX
    x1, back = _channels_last(t.cast(image1, dtype), data_format)
    x2, _ = _channels_last(t.cast(image2, dtype), data_format)
    g = [math.exp(-((i - (filter_size - 1) / 2.0) ** 2) / (2.0 * filter_sigma ** 2)) for i in range(filter_size)]
    g = [v / sum(g) for v in g]
    kernel = t.reshape(t.constant([a * b for a in g for b in g], dtype=dtype), [filter_size, filter_size, 1, 1])
    height, width, channels = x1.shape.as_list()[1:]
    per_channel = lambda img: t.reshape(t.transpose(img, (0, 3, 1, 2)), [-1, height, width, 1])  # noqa: E731
    a, b = per_channel(x1), per_channel(x2)
    blur = lambda img: t.nn.convolution(img, kernel, padding="VALID")  # noqa: E731
    mu1, mu2 = blur(a), blur(b)
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    sigma1 = blur(a * a) - mu1 * mu1
    sigma2 = blur(b * b) - mu2 * mu2
    sigma12 = blur(a * b) - mu1 * mu2
    ssim_map = ((2.0 * mu1 * mu2 + c1) * (2.0 * sigma12 + c2)) / ((mu1 * mu1 + mu2 * mu2 + c1) * (sigma1 + sigma2 + c2))
    per_image = t.reduce_mean(t.reshape(t.reduce_mean(ssim_map, axis=[1, 2, 3]), [-1, channels]), axis=-1)
    out = per_image[0] if image1.shape.rank == 3 else per_image
    return t.cast(out, original)
