"""Padding: Pad (zeros), PadV2 (a given value), MirrorPad (reflection) and MirrorPadGrad; and Slice
(tf.slice), whose gradient is a Pad as Pad's is a Slice.

MirrorPadGrad is a real op (as in TensorFlow) rather than a composition: folding the reflected
copies back onto the positions they came from is one NumPy scatter-add per axis, and the two ops
are each other's gradients, so higher derivatives stay exact.
"""
from __future__ import annotations

import builtins

import numpy as np

from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..math import elementwise as _math
from ..registry import Spec, bind, defop, static_value
from . import basic as _array
from . import joining as _joining

_pyslice = builtins.slice  # this module defines tf.slice


def _slice_error(message):
    return InvalidArgumentError(None, None, message)


def _static_ints(t):
    """Static values of an int tensor as a list, or None when they are only known at run time."""
    v = static_value(t)
    return None if v is None else [int(d) for d in np.ravel(v)]


# --- Pad / PadV2 / MirrorPad ---------------------------------------------------------------------

def _pad_pairs(x_shape, paddings, op_name):
    """The [rank, 2] paddings as pairs of ints, with TensorFlow's checks."""
    p = np.asarray(paddings).reshape(-1, 2) if np.size(paddings) % 2 == 0 else None
    rank = len(x_shape)
    if p is None or np.ndim(paddings) != 2 or np.shape(paddings)[0] != rank:
        pairs_rank = np.shape(paddings)[0] if np.ndim(paddings) == 2 and np.shape(paddings)[1] == 2 else None
        R.refuse(f"The first dimension of paddings must be the rank of inputs"
                 f"{R.fmt_dims(TensorShape(np.shape(paddings)))} {R.fmt_dims(TensorShape(x_shape))}",
                 f"The first dimension of paddings must be the rank of inputs"
                 f"{R.fmt_dims(TensorShape(np.shape(paddings)))} {R.fmt_dims(TensorShape(x_shape))}"
                 if pairs_rank is None else f"Shape must be rank {pairs_rank} but is rank {rank}")
    pairs = [(int(a), int(b)) for a, b in p]
    for a, b in pairs:
        if a < 0 or b < 0:
            R.refuse(f"Paddings must be non-negative: {a} {b}", "Paddings must be non-negative")
    return pairs


def _pad_infer(inputs, attrs):
    x, paddings = inputs[0], inputs[1]
    p = static_value(paddings)
    if x.shape.rank is None:
        n = paddings.shape[0] if paddings.shape.rank == 2 else None
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    if p is None:
        return [Spec(TensorShape([None] * x.shape.rank), x.dtype)]
    pairs = _pad_pairs([0 if d is None else d for d in x.shape], p, "Pad")
    if len(inputs) == 3:
        R.check_same_dtype("PadV2", (x, inputs[2]))
    return [Spec(TensorShape([None if d is None else d + a + b for d, (a, b) in zip(x.shape, pairs)]), x.dtype)]


def _pad_kernel(x, paddings, constant_values=None):
    pairs = _pad_pairs(x.shape, paddings, "Pad")
    value = 0 if constant_values is None else constant_values
    return np.pad(x, pairs, mode="constant", constant_values=value) if pairs else x.copy()


def _pad_grad(op, g):
    """The gradient of padding is the slice of g where the input sits."""
    x, paddings = op.inputs[0], op.inputs[1]
    befores = slice(_math.cast(paddings, _dt.int32), [0, 0], _joining.stack([_array.rank(x), 1]))
    begin = _array.reshape(befores, [-1])
    dx = slice(g, begin, _array.shape(x))
    return (dx, None) if len(op.inputs) == 2 else (dx, None, None)


Pad = defop("Pad", inputs=("input", "paddings"), kernel=_pad_kernel, infer=_pad_infer, grad=_pad_grad,
            doc="Zero padding; paddings[i] = [before, after] for dim i.")
PadV2 = defop("PadV2", inputs=("input", "paddings", "constant_values"), kernel=_pad_kernel, infer=_pad_infer,
              grad=_pad_grad, doc="Padding with a given scalar value.")


def _mirror_check(shape, pairs, mode):
    offset = 1 if mode == "REFLECT" else 0
    for d, (a, b) in zip(shape, pairs):
        if d is None:
            continue
        if offset and (a >= d or b >= d):
            raise InvalidArgumentError(None, None, f"paddings must be less than the dimension size: {a}, {b} not "
                                                   f"less than {d}")
        if not offset and (a > d or b > d):
            raise InvalidArgumentError(None, None, f"paddings must be no greater than the dimension size: {a}, {b} "
                                                   f"greater than {d}")


def _mirror_pad_kernel(x, paddings, mode):
    pairs = _pad_pairs(x.shape, paddings, "MirrorPad")
    _mirror_check(x.shape, pairs, mode)
    return np.pad(x, pairs, mode="reflect" if mode == "REFLECT" else "symmetric") if pairs else x.copy()


def _mirror_pad_infer(inputs, attrs):
    out = _pad_infer(inputs, attrs)
    p = static_value(inputs[1])
    if p is not None and inputs[0].shape.rank is not None:
        _mirror_check(list(inputs[0].shape), [tuple(int(v) for v in row) for row in np.asarray(p)], attrs["mode"])
    return out


def _mirror_source(n, a, b, mode):
    """For each position of a padded axis, the input position it copies (reflected at the edges)."""
    pos = np.arange(-a, n + b)
    if mode == "REFLECT":
        pos = np.abs(pos)
        return np.where(pos > n - 1, 2 * (n - 1) - pos, pos)
    pos = np.where(pos < 0, -pos - 1, pos)
    return np.where(pos > n - 1, 2 * n - 1 - pos, pos)


def _mirror_pad_grad_kernel(g, paddings, mode):
    """Adds every padded copy back onto the input position it was copied from, one axis at a time."""
    out = g
    for axis, (a, b) in enumerate(np.asarray(paddings).reshape(-1, 2)):
        n = out.shape[axis] - int(a) - int(b)
        src = _mirror_source(n, int(a), int(b), mode)
        moved = np.moveaxis(out, axis, 0)
        acc = np.zeros((n,) + moved.shape[1:], dtype=g.dtype)
        np.add.at(acc, src, moved)
        out = np.moveaxis(acc, 0, axis)
    return np.ascontiguousarray(out)


def _mirror_pad_grad_infer(inputs, attrs):
    g, paddings = inputs
    p = static_value(paddings)
    if g.shape.rank is None or p is None:
        return [Spec(TensorShape(None if g.shape.rank is None else [None] * g.shape.rank), g.dtype)]
    pairs = np.asarray(p).reshape(-1, 2)
    return [Spec(TensorShape([None if d is None else d - int(a) - int(b) for d, (a, b) in zip(g.shape, pairs)]),
                 g.dtype)]


MirrorPad = defop("MirrorPad", inputs=("input", "paddings"), kernel=_mirror_pad_kernel, infer=_mirror_pad_infer,
                  grad=lambda op, g: (bind(MirrorPadGrad, (g, op.inputs[1]), op.attrs), None),
                  doc="Padding by reflection (REFLECT: edge not repeated; SYMMETRIC: edge repeated).")
MirrorPadGrad = defop("MirrorPadGrad", inputs=("input", "paddings"), kernel=_mirror_pad_grad_kernel,
                      infer=_mirror_pad_grad_infer,
                      grad=lambda op, g: (bind(MirrorPad, (g, op.inputs[1]), op.attrs), None),
                      doc="MirrorPad's gradient: folds the padded copies back (linear; its gradient is MirrorPad).")


def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    x = as_tensor(tensor)
    mode = str(mode).upper()
    p = as_int_tensor(paddings)
    if mode == "CONSTANT":
        plain = (not isinstance(constant_values, Tensor) and not hasattr(type(constant_values), "_as_tensor")
                 and np.ndim(constant_values) == 0 and constant_values == 0)
        if plain:
            return bind(Pad, (x, p))
        return bind(PadV2, (x, p, convert_to_tensor(constant_values, dtype=x.dtype)))
    if mode in ("REFLECT", "SYMMETRIC"):
        return bind(MirrorPad, (x, p), {"mode": mode})
    raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                     f"Received `mode` = {mode}")


# --- Slice: Pad's transpose (the gradient of each is the other), so it lives here ------
# --- Slice ------------------------------------------------------------------------------------------

def _slice_bounds(shape, begin, size):
    """Concrete (begin, size) per dim with TensorFlow's checks; size -1 means "to the end"."""
    out = []
    for i, (d, b, s) in enumerate(zip(shape, begin, size)):
        if not 0 <= b <= d:
            raise _slice_error(f"Expected begin[{i}] in [0, {d}], but got {b}")
        s = d - b if s == -1 else s
        if not 0 <= s <= d - b:
            raise _slice_error(f"Expected size[{i}] in [0, {d - b}], but got {s}")
        out.append((b, s))
    return out


def _slice_kernel(x, begin, size):
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise _slice_error(f"Expected begin and size arguments to be 1-D tensors of size {x.ndim}, but got shapes "
                   f"[{len(begin)}] and [{len(size)}] instead.")
    bounds = _slice_bounds(x.shape, [int(b) for b in begin], [int(s) for s in size])
    return np.array(x[tuple(_pyslice(b, b + s) for b, s in bounds)], copy=True)


def _slice_infer(inputs, attrs):
    x, begin, size = inputs
    R.check_same_dtype("Slice", (begin, size), first_index=1)  # one `Index` type, as TensorFlow's op
    if R.building_graph():  # TensorFlow's shape function: begin and size are vectors of one length
        R.merge_shapes(begin.shape, size.shape)
    b, s = _static_ints(begin), _static_ints(size)
    n = size.shape[0] if size.shape.rank == 1 else x.shape.rank
    if s is None:
        return [Spec(TensorShape(None if n is None else [None] * n), x.dtype)]
    if x.shape.rank is not None and len(s) != x.shape.rank:
        raise _slice_error(f"Expected begin and size arguments to be 1-D tensors of size {x.shape.rank}, but got "
                   f"shapes [{len(b) if b is not None else len(s)}] and [{len(s)}] instead.")
    dims = []
    for i, si in enumerate(s):
        d = x.shape[i] if x.shape.rank is not None else None
        if si != -1:
            dims.append(si)
        elif d is not None and b is not None:
            dims.append(d - b[i])
        else:
            dims.append(None)
    return [Spec(TensorShape(dims), x.dtype)]


def _slice_grad(op, g):
    """Pad the incoming gradient back to the input's shape: before = begin, after = rest."""
    x, begin, _ = op.inputs
    before = _math.cast(begin, _dt.int32)
    after = _array.shape(x) - before - _array.shape(g)
    return pad(g, _joining.stack([before, after], axis=1)), None, None


Slice = defop("Slice", inputs=("input", "begin", "size"), kernel=_slice_kernel, infer=_slice_infer,
              grad=_slice_grad, doc="A contiguous block: input[begin[i] : begin[i] + size[i]] per dim.")


def slice(input_, begin, size, name=None):  # noqa: A001 - TensorFlow's name
    """`tf.slice`. A list `begin` or `size` takes the dtype of the other when that is a tensor (as TensorFlow
    converts it eagerly), so the op has one index dtype: a saved graph mixing int32 and int64 does not load in
    TensorFlow, and two index tensors of different dtypes are refused as TensorFlow refuses them."""
    index = next((v.dtype for v in (begin, size) if isinstance(v, Tensor) and v.dtype.is_integer), _dt.int32)
    return bind(Slice, (as_tensor(input_), as_int_tensor(begin, index), as_int_tensor(size, index)))


# --- JAX lowerings (jit_compile=True, codegen/xla.py); paddings are known at trace time ---


def _jax_pad(x, paddings, constant_values=None):
    pairs = _pad_pairs(x.shape, paddings, "Pad")
    return jnp.pad(x, pairs, constant_values=0 if constant_values is None else constant_values) if pairs else x


def _jax_mirror_pad(x, paddings, mode):
    pairs = _pad_pairs(x.shape, paddings, "MirrorPad")
    return jnp.pad(x, pairs, mode="reflect" if mode == "REFLECT" else "symmetric") if pairs else x


def _jax_mirror_pad_grad(g, paddings, mode):
    out = g
    for axis, (a, b) in enumerate(np.asarray(paddings).reshape(-1, 2)):
        n = out.shape[axis] - int(a) - int(b)
        moved = jnp.moveaxis(out, axis, 0)
        acc = jnp.zeros((n,) + moved.shape[1:], g.dtype).at[_mirror_source(n, int(a), int(b), mode)].add(moved)
        out = jnp.moveaxis(acc, 0, axis)
    return out


Pad.jax = _jax_pad
PadV2.jax = _jax_pad
MirrorPad.jax = _jax_mirror_pad
MirrorPadGrad.jax = _jax_mirror_pad_grad
Slice.jax = lambda x, begin, size: x[tuple(_pyslice(b, b + s) for b, s in _slice_bounds(
    x.shape, [int(b) for b in begin], [int(s) for s in size]))]
