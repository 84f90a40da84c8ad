"""The axes of a reduction: normalised with TensorFlow's errors, and the two ops that reduction gradients
build over them, ReducedShape (the shape a keepdims reduction keeps) and ProdOfOthers (Prod's gradient).

Why apart from reduce.py: the kernels, shape rules, gradients and JAX lowerings of every reduction read
the axes through `_axes_tuple`, which caches the few specs a program uses; reduce.py holds the
reductions themselves and re-exports these names.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ..registry import NO_GRADIENT, Spec, defop
from ..lazy_jax import jnp  # callables that import JAX on first use only


_AXES_SEEN: dict = {}  # (axes bytes, ndim) -> normalised tuple: kernels see the same few specs


def _axes_tuple(axes, ndim):
    """Normalised, sorted reduction axes; TensorFlow's errors for out-of-range and repeated axes."""
    key = (axes.tobytes(), axes.dtype.char, axes.ndim, ndim) if isinstance(axes, np.ndarray) else None
    found = _AXES_SEEN.get(key) if key is not None else None
    if found is not None:
        return found
    out = []
    for a in np.ravel(axes):
        a = int(a)
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(None, None, f"Invalid reduction dimension ({a} for input with {ndim} "
                                                   f"dimension(s)")
        if a % ndim in out:
            raise InvalidArgumentError(None, None, f"Invalid reduction arguments: Axes contains duplicate "
                                                   f"dimension: {a % ndim}")
        out.append(a % ndim)
    result = tuple(sorted(out))
    if key is not None and len(_AXES_SEEN) < 4096:
        _AXES_SEEN[key] = result
    return result


def _graph_axes(axes, ndim):
    """The reduction axes as a graph's shape function sees them: an axis out of range is refused in
    its words; a repeated axis is the kernel's to refuse when the graph runs."""
    out = set()
    for a in np.ravel(axes):
        a = int(a)
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(None, None, f"Invalid reduction dimension {a} for input with {ndim} "
                                                   f"dimensions.")
        out.add(a % ndim)
    return tuple(sorted(out))


def _prod_others_kernel(x, axes):
    """For each element, the product of the other elements of its reduction group; exact with
    zeros (exclusive cumulative products from both ends, no division)."""
    ax = _axes_tuple(axes, x.ndim)
    keep = [i for i in range(x.ndim) if i not in ax]
    perm = keep + list(ax)
    xt = np.transpose(x, perm)
    lead = xt.shape[:len(keep)]
    flat = xt.reshape(lead + (-1,))
    ones = np.ones(lead + (1,), dtype=x.dtype)
    left = np.cumprod(np.concatenate([ones, flat[..., :-1]], -1), -1)
    right = np.flip(np.cumprod(np.concatenate([ones, np.flip(flat, -1)[..., :-1]], -1), -1), -1)
    return np.transpose((left * right).reshape(xt.shape), np.argsort(perm)).astype(x.dtype, copy=False)


ProdOfOthers = defop("ProdOfOthers", inputs=("x", "axes"), kernel=_prod_others_kernel,
                     infer=lambda inputs, attrs: [Spec(inputs[0].shape, inputs[0].dtype)],
                     grad=lambda op, g: (None, None),
                     doc="d Prod / d x: the product of the other reduced elements. Its own gradient is "
                         "not defined yet, so Prod has first-order gradients only.")


def _reduced_shape_kernel(shape, axes):
    out = np.array(shape, dtype=np.int32)
    for a in _axes_tuple(axes, len(shape)):
        out[a] = 1
    return out


ReducedShape = defop("ReducedShape", inputs=("input_shape", "axes"), kernel=_reduced_shape_kernel,
                     infer=lambda inputs, attrs: [Spec(inputs[0].shape, _dt.int32)], grad=NO_GRADIENT,
                     doc="The shape of a keepdims reduction (TensorFlow's reduced_shape helper).")


# --- JAX lowerings (jit_compile=True, codegen/xla.py) ---


def _jax_prod_others(x, axes):
    ax = _axes_tuple(np.asarray(axes), x.ndim)
    keep = [i for i in range(x.ndim) if i not in ax]
    perm = keep + list(ax)
    xt = jnp.transpose(x, perm)
    flat = jnp.reshape(xt, xt.shape[:len(keep)] + (-1,))
    ones = jnp.ones(flat.shape[:-1] + (1,), dtype=x.dtype)
    left = jnp.cumprod(jnp.concatenate([ones, flat[..., :-1]], -1), -1)
    right = jnp.flip(jnp.cumprod(jnp.concatenate([ones, jnp.flip(flat, -1)[..., :-1]], -1), -1), -1)
    return jnp.transpose(jnp.reshape(left * right, xt.shape), np.argsort(perm)).astype(x.dtype)


ProdOfOthers.jax = _jax_prod_others
ReducedShape.jax = _reduced_shape_kernel  # shapes are NumPy arrays under XLA
