"""Hue/saturation/value ops of `tf.image`: RGBToHSV, HSVToRGB, AdjustHue and AdjustSaturation.

The kernels follow TensorFlow's arithmetic step by step so that values agree to the last bit in
float32: RGBToHSV takes hue = (1 / range) * (1/6) * (difference) plus a sector offset; HSVToRGB
builds each channel from clipped triangle waves of 6h; AdjustHue moves the hue as a position on
the six-sector (max, mid, min) wheel; AdjustSaturation scales s in an HSV round trip that adds the
sector offsets in double precision (as TensorFlow's scalar helpers do).

Gradients: RGBToHSV has TensorFlow's piecewise rule (`_rgb_to_hsv_grad`); TensorFlow marks
HSVToRGB not differentiable (a None gradient) and registers none for AdjustHue/AdjustSaturation
(a LookupError), and so do we.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import FailedPreconditionError, InvalidArgumentError
from .. import shape_rules as R
from ..registry import NO_GRADIENT, UNREGISTERED_GRADIENT, Spec, defop
from ..lazy_jax import jnp  # imports JAX on first use only

_HSV_TYPES = R.FLOATS


def _three_channels(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, _HSV_TYPES, "images")
        s = x.shape
        if s.rank == 0:
            raise InvalidArgumentError(None, None, "input must be at least 1D[]")
        if s.rank is not None and s[-1] is not None and s[-1] != 3:
            raise FailedPreconditionError(
                None, None, f"input must have 3 channels but input only has {s[-1]} channels.")
        return [Spec(s, x.dtype)]
    return infer


def _adjust_infer(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, (_dt.float16, _dt.float32), "images")
        s = x.shape
        if s.rank is not None and s.rank < 3:
            raise InvalidArgumentError(None, None, f"input must be at least 3-D, got shape{R.fmt_dims(s)}")
        if s.rank is not None and s[-1] is not None and s[-1] != 3:
            raise InvalidArgumentError(None, None, f"input must have 3 channels but instead has {s[-1]} channels.")
        return [Spec(s, x.dtype)]
    return infer


def _check_channels(x):
    """The kernels' own checks, for shapes the graph did not know."""
    if x.ndim == 0:
        raise InvalidArgumentError(None, None, "input must be at least 1D[]")
    if x.shape[-1] != 3:
        raise FailedPreconditionError(None, None, f"input must have 3 channels but input only has {x.shape[-1]} "
                                                  f"channels.")


def _check_image(x):
    if x.ndim < 3:
        raise InvalidArgumentError(None, None, f"input must be at least 3-D, got shape[{','.join(map(str, x.shape))}]")
    if x.shape[-1] != 3:
        raise InvalidArgumentError(None, None, f"input must have 3 channels but instead has {x.shape[-1]} channels.")


def _rgb_to_hsv_kernel(images):
    x = np.asarray(images)
    _check_channels(x)
    t = x.dtype.type
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    with np.errstate(all="ignore"):
        v = np.maximum(np.maximum(r, g), b)
        spread = v - np.minimum(np.minimum(r, g), b)
        s = np.where(v > 0, spread / v, t(0)).astype(x.dtype)
        norm = (t(1) / spread) * (t(1) / t(6))
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, norm * (b - r) + t(2) / t(6), norm * (r - g) + t(4) / t(6)))
        h = np.where(spread > 0, h, t(0))
        h = np.where(h < 0, h + t(1), h).astype(x.dtype)
    return np.stack([h, s, v], axis=-1)


def _hsv_to_rgb_kernel(images):
    x = np.asarray(images)
    _check_channels(x)
    t = x.dtype.type
    h, s, v = x[..., 0], x[..., 1], x[..., 2]
    dh = h * t(6)
    dr = np.clip(np.abs(dh - t(3)) - t(1), t(0), t(1))
    dg = np.clip(-np.abs(dh - t(2)) + t(2), t(0), t(1))
    db = np.clip(-np.abs(dh - t(4)) + t(2), t(0), t(1))
    one_s = -s + t(1)
    return np.stack([(one_s + s * d) * v for d in (dr, dg, db)], axis=-1).astype(x.dtype, copy=False)


def _rgb_to_hue_range(r, g, b):
    """(hue in [0, 6), min, max) on TensorFlow's six-sector wheel of (max, mid, min) channels."""
    rg, bl_r, bg_g = r < g, b < r, b > g
    gb, bg_r = b < g, b > r
    # sector: r<g: b<r -> 1 (g,r,b); b>g -> 3 (b,g,r); else 2 (g,b,r)
    #         else: b<g -> 0 (r,g,b); b>r -> 4 (b,r,g); else 5 (r,b,g)
    sector = np.where(rg, np.where(bl_r, 1, np.where(bg_g, 3, 2)), np.where(gb, 0, np.where(bg_r, 4, 5)))
    top = np.choose(sector, [r, g, g, b, b, r])
    mid = np.choose(sector, [g, r, b, g, r, b])
    low = np.choose(sector, [b, b, r, r, g, g])
    with np.errstate(all="ignore"):
        ratio = (mid - low) / (top - low)
    ratio = np.where(sector % 2 == 0, ratio, np.float32(1) - ratio)
    hue = np.where(top == low, np.float32(0), sector.astype(np.float32) + ratio)
    return hue.astype(np.float32), low, top


def _hue_range_to_rgb(hue, low, top):
    sector = hue.astype(np.int32)
    ratio = hue - sector.astype(np.float32)
    ratio = np.where(sector % 2 == 0, ratio, np.float32(1) - ratio)
    mid = low + ratio * (top - low)
    sector = np.minimum(sector, 5)
    r = np.choose(sector, [top, mid, low, low, mid, top])
    g = np.choose(sector, [mid, top, top, mid, low, low])
    b = np.choose(sector, [low, low, mid, top, top, mid])
    return np.stack([r, g, b], axis=-1).astype(np.float32)


def _adjust_hue_kernel(images, delta):
    x = np.asarray(images)
    _check_image(x)
    work = x.astype(np.float32, copy=False)
    hue, low, top = _rgb_to_hue_range(work[..., 0], work[..., 1], work[..., 2])
    hue = hue + np.float32(delta) * np.float32(6)
    hue = np.where(hue < 0, hue + np.float32(6), hue)
    hue = np.where(hue >= 6, hue - np.float32(6), hue)
    return _hue_range_to_rgb(hue, low, top).astype(x.dtype, copy=False)


def _adjust_saturation_kernel(images, scale):
    x = np.asarray(images)
    _check_image(x)
    work = x.astype(np.float32, copy=False)
    r, g, b = work[..., 0], work[..., 1], work[..., 2]
    f = np.float32
    with np.errstate(all="ignore"):
        v = np.maximum(r, np.maximum(g, b))
        spread = v - np.minimum(r, np.minimum(g, b))
        s = np.where(v > 0, spread / v, f(0))
        norm = f(1) / (f(6) * spread)
        # the sector offsets are double constants in TensorFlow's helper: the sum rounds once to float
        h = np.where(r == v, norm * (g - b),
                     np.where(g == v, (norm * (b - r)).astype(np.float64) + 2.0 / 6.0,
                              (norm * (r - g)).astype(np.float64) + 4.0 / 6.0)).astype(f)
    h = np.where(spread <= 0, f(0), h)
    h = np.where(h < 0, h + f(1), h)
    s = np.clip(s * f(scale), f(0), f(1))
    c = s * v
    m = v - c
    dh = h * f(6)
    sector = np.floor(dh).astype(np.int32)
    wave = np.mod(dh, f(2))
    x_part = c * (f(1) - np.abs(wave - f(1)))
    zero = np.zeros_like(c)
    known = (sector >= 0) & (sector <= 5)
    pick = np.where(known, sector, 6)
    rr = np.choose(pick, [c, x_part, zero, zero, x_part, c, zero])
    gg = np.choose(pick, [x_part, c, c, x_part, zero, zero, zero])
    bb = np.choose(pick, [zero, zero, x_part, c, c, x_part, zero])
    return np.stack([rr + m, gg + m, bb + m], axis=-1).astype(x.dtype, copy=False)


def _rgb_to_hsv_grad(op, grad):
    """TensorFlow's piecewise derivative of (h, s, v) wrt (r, g, b), with its tie-breaking: the
    largest channel is red on r >= g, b; green on g > r, g >= b; blue on b > r, g; the smallest red on
    r < g, b; green on g <= r, g < b; blue on b <= r, g. Reciprocals of zero count as zero."""
    from ..array import basic as A
    from ..array import joining as J
    from ..math import elementwise as M
    x, hsv = op.inputs[0], op.outputs[0]
    dtype = x.dtype
    ch = [x[..., i] for i in range(3)]
    sat, val = hsv[..., 1], hsv[..., 2]
    r, g, b = ch

    def mask(t):
        return M.cast(t, dtype)

    big = [mask((r >= b) & (r >= g)), mask((g > r) & (g >= b)), mask((b > r) & (b > g))]
    small = [mask((r < b) & (r < g)), mask((g <= r) & (g < b)), mask((b <= r) & (b <= g))]
    pos = [mask(c > 0) for c in ch]

    def rec(t):
        return M.div_no_nan(M.cast(1.0, dtype), t)

    ds, dh = [], []
    for c in range(3):
        n, p = (c + 1) % 3, (c + 2) % 3
        others_min = small[n] * ch[n] + small[p] * ch[p]
        others_max = big[n] * ch[n] + big[p] * ch[p]
        ds.append(pos[c] * (big[c] * others_min * rec(M.square(ch[c])) + small[c] * -1 * rec(others_max)))
        terms = [
            pos[c] * big[c] * -1 * (ch[n] - ch[p]) * rec(M.square(sat)) * rec(M.square(val)),
            pos[n] * big[n] * small[c] * (ch[p] - ch[n]) * rec(M.square(ch[c] - ch[n])),
            pos[n] * big[n] * small[p] * -1 * rec(ch[n] - ch[p]),
            pos[p] * big[p] * small[c] * (ch[p] - ch[n]) * rec(M.square(ch[p] - ch[c])),
            pos[p] * big[p] * small[n] * rec(ch[p] - ch[n]),
        ]
        total = 60 * terms[0]
        for term in terms[1:]:
            total = total + 60 * term
        dh.append(total / 360)
    gh, gs, gv = grad[..., 0], grad[..., 1], grad[..., 2]
    dv_rgb = J.stack([gv * big[0], gv * big[1], gv * big[2]], axis=-1)
    ds_rgb = J.stack([gs * ds[0], gs * ds[1], gs * ds[2]], axis=-1)
    dh_rgb = J.stack([gh * dh[0], gh * dh[1], gh * dh[2]], axis=-1)
    return ((dv_rgb + ds_rgb) + dh_rgb,)


RGBToHSV = defop("RGBToHSV", inputs=("images",), kernel=_rgb_to_hsv_kernel, infer=_three_channels("RGBToHSV"),
                 grad=_rgb_to_hsv_grad, doc="RGB in [0, 1] to (hue, saturation, value), each in [0, 1].")
HSVToRGB = defop("HSVToRGB", inputs=("images",), kernel=_hsv_to_rgb_kernel, infer=_three_channels("HSVToRGB"),
                 grad=NO_GRADIENT, doc="(hue, saturation, value) to RGB; TensorFlow marks it not differentiable.")
AdjustHue = defop("AdjustHue", inputs=("images", "delta"), kernel=_adjust_hue_kernel, infer=_adjust_infer("AdjustHue"),
                  grad=UNREGISTERED_GRADIENT, doc="Rotates the hue of RGB pixels by delta turns.")
AdjustSaturation = defop(
    "AdjustSaturation", inputs=("images", "scale"), kernel=_adjust_saturation_kernel,
    infer=_adjust_infer("AdjustSaturation"), grad=UNREGISTERED_GRADIENT,
    doc="Multiplies the saturation of RGB pixels by scale, clipped to [0, 1].")


# --- JAX lowerings (jit_compile=True): TensorFlow's XLA compiles all four ---


def _jax_rgb_to_hsv(images):
    t = images.dtype.type
    r, g, b = images[..., 0], images[..., 1], images[..., 2]
    v = jnp.maximum(jnp.maximum(r, g), b)
    spread = v - jnp.minimum(jnp.minimum(r, g), b)
    s = jnp.where(v > 0, spread / jnp.where(v > 0, v, t(1)), t(0))
    norm = (t(1) / spread) * (t(1) / t(6))
    h = jnp.where(r == v, norm * (g - b), jnp.where(g == v, norm * (b - r) + t(2) / t(6), norm * (r - g) + t(4) / t(6)))
    h = jnp.where(spread > 0, h, t(0))
    h = jnp.where(h < 0, h + t(1), h)
    return jnp.stack([h, s, v], axis=-1).astype(images.dtype)


def _jax_hsv_to_rgb(images):
    t = images.dtype.type
    h, s, v = images[..., 0], images[..., 1], images[..., 2]
    dh = h * t(6)
    waves = (jnp.clip(jnp.abs(dh - t(3)) - t(1), t(0), t(1)), jnp.clip(-jnp.abs(dh - t(2)) + t(2), t(0), t(1)),
             jnp.clip(-jnp.abs(dh - t(4)) + t(2), t(0), t(1)))
    one_s = -s + t(1)
    return jnp.stack([(one_s + s * d) * v for d in waves], axis=-1).astype(images.dtype)


def _jax_adjust_hue(images, delta):
    f = np.float32
    x = images.astype(f)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    sector = jnp.where(r < g, jnp.where(b < r, 1, jnp.where(b > g, 3, 2)), jnp.where(b < g, 0, jnp.where(b > r, 4, 5)))
    top = jnp.choose(sector, [r, g, g, b, b, r], mode="clip")
    mid = jnp.choose(sector, [g, r, b, g, r, b], mode="clip")
    low = jnp.choose(sector, [b, b, r, r, g, g], mode="clip")
    ratio = (mid - low) / jnp.where(top == low, f(1), top - low)
    ratio = jnp.where(sector % 2 == 0, ratio, f(1) - ratio)
    hue = jnp.where(top == low, f(0), sector.astype(f) + ratio)
    hue = hue + jnp.asarray(delta, f) * f(6)
    hue = jnp.where(hue < 0, hue + f(6), hue)
    hue = jnp.where(hue >= 6, hue - f(6), hue)
    sector = jnp.minimum(hue.astype(np.int32), 5)
    ratio = hue - hue.astype(np.int32).astype(f)
    ratio = jnp.where(sector % 2 == 0, ratio, f(1) - ratio)
    mid = low + ratio * (top - low)
    out = [jnp.choose(sector, order, mode="clip") for order in
           ([top, mid, low, low, mid, top], [mid, top, top, mid, low, low], [low, low, mid, top, top, mid])]
    return jnp.stack(out, axis=-1).astype(images.dtype)


def _jax_adjust_saturation(images, scale):
    f = np.float32
    x = images.astype(f)
    hsv = _jax_rgb_to_hsv(x)
    s = jnp.clip(hsv[..., 1] * jnp.asarray(scale, f), f(0), f(1))
    return _jax_hsv_to_rgb(jnp.stack([hsv[..., 0], s, hsv[..., 2]], axis=-1)).astype(images.dtype)


RGBToHSV.jax = _jax_rgb_to_hsv
HSVToRGB.jax = _jax_hsv_to_rgb
AdjustHue.jax = _jax_adjust_hue
AdjustSaturation.jax = _jax_adjust_saturation
