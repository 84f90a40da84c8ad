"""Local response normalization (`tf.nn.local_response_normalization`, op LRN) and its gradient
op LRNGrad, over the last (depth) axis of a 4-D tensor:

    sqr_sum[..., d] = sum(x[..., d - r : d + r + 1] ** 2)
    y = x / (bias + alpha * sqr_sum) ** beta

LRNGrad has no gradient of its own in TensorFlow (first order only).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..shape_rules import rank_message
from ..lazy_jax import jnp  # callables that import JAX on first use only

_LRN_TYPES = (_dt.float16, _dt.float32)


def _window_sum(v, r):
    """Sum over depth windows [d - r, d + r] (clipped at the edges), by a cumulative sum."""
    c = v.shape[-1]
    csum = np.concatenate([np.zeros(v.shape[:-1] + (1,), v.dtype), np.cumsum(v, axis=-1)], axis=-1)
    hi = np.minimum(np.arange(c) + r + 1, c)
    lo = np.maximum(np.arange(c) - r, 0)
    return csum[..., hi] - csum[..., lo]


def _norm(x, depth_radius, bias, alpha):
    if depth_radius < 0:  # TensorFlow's kernel casts it to an unsigned size: checked when the op runs
        raise InvalidArgumentError(None, None, f"depth_radius = {depth_radius} larger than int max")
    x64 = x.astype(np.float64)
    return x64, bias + alpha * _window_sum(x64 * x64, int(depth_radius))


def _lrn_kernel(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    x64, n = _norm(x, depth_radius, bias, alpha)
    return (x64 * n ** -beta).astype(x.dtype)


def _lrn_grad_kernel(grads, x, y, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    """d/dx_j = g_j N_j^-beta - 2 alpha beta x_j sum_{i: |i - j| <= r} g_i x_i N_i^(-beta - 1)."""
    x64, n = _norm(x, depth_radius, bias, alpha)
    g64 = grads.astype(np.float64)
    inner = _window_sum(g64 * x64 * n ** (-beta - 1.0), int(depth_radius))
    return (g64 * n ** -beta - 2.0 * alpha * beta * x64 * inner).astype(x.dtype)


def _check_rank(t, what):
    if t.shape.rank is not None and t.shape.rank != 4:
        raise InvalidArgumentError(None, None, rank_message(t.shape.rank, f"{what} must be 4-dimensional"))


def _lrn_infer(inputs, attrs):
    x = inputs[0]
    R.check_dtype_in("LRN", x.dtype, _LRN_TYPES, "input")
    _check_rank(x, "in")
    return [Spec(x.shape, x.dtype)]


def _lrn_grad_infer(inputs, attrs):
    R.check_same_dtype("LRNGrad", inputs)
    for t, what in zip(inputs, ("input_grads", "input_image", "output_image")):
        _check_rank(t, what)
    return [Spec(inputs[1].shape if inputs[1].shape.rank is not None else TensorShape([None] * 4), inputs[1].dtype)]


LRN = defop("LRN", inputs=("input",), kernel=_lrn_kernel, infer=_lrn_infer,
            grad=lambda op, g: bind(LRNGrad, (g, op.inputs[0], op.outputs[0]), op.attrs))
LRNGrad = defop("LRNGrad", inputs=("input_grads", "input_image", "output_image"), kernel=_lrn_grad_kernel,
                infer=_lrn_grad_infer, grad=NO_GRADIENT)


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5, name=None):
    """`tf.nn.local_response_normalization` (also `tf.nn.lrn`): see the module docstring."""
    x = as_tensor(input)
    attrs = {"depth_radius": int(depth_radius), "bias": float(bias), "alpha": float(alpha), "beta": float(beta)}
    return bind(LRN, (x,), attrs)


lrn = local_response_normalization

# --- JAX lowerings (jit_compile=True, codegen/xla.py): the window sum as a depth convolution ---


def _jax_window_sum(v, r):
    c = v.shape[-1]
    idx = np.arange(c)
    band = (np.abs(idx[:, None] - idx[None, :]) <= r).astype(np.float32)
    return jnp.matmul(v, band.astype(v.dtype))


def _jax_lrn(x, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    x32 = x.astype(np.float32)
    n = bias + alpha * _jax_window_sum(x32 * x32, int(depth_radius))
    return (x32 * n ** -beta).astype(x.dtype)


def _jax_lrn_grad(grads, x, y, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5):
    x32, g32 = x.astype(np.float32), grads.astype(np.float32)
    n = bias + alpha * _jax_window_sum(x32 * x32, int(depth_radius))
    inner = _jax_window_sum(g32 * x32 * n ** (-beta - 1.0), int(depth_radius))
    return (g32 * n ** -beta - 2.0 * alpha * beta * x32 * inner).astype(x.dtype)


LRN.jax = _jax_lrn
LRNGrad.jax = _jax_lrn_grad
