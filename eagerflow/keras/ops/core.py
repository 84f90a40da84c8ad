"""keras.ops core functions (Keras' keras/src/ops/core.py): conversion, casting, slicing and scatter, and the
control flow that takes Python callables. Loops over a static length (scan, associative_scan, map) run as
Python loops of eagerflow ops, so they work eagerly, in tf.function (unrolled) and under GradientTape."""
from __future__ import annotations

import numpy as np

from ._common import np_name, public, tf
from ._einops import rearrange  # noqa: F401 - keras.ops.rearrange (Keras' einops.py)

__all__ = ["associative_scan", "cast", "cond", "convert_to_numpy", "convert_to_tensor", "custom_gradient", "dtype",
           "fori_loop", "is_tensor", "map", "rearrange", "saturate_cast", "scan", "scatter", "scatter_update", "shape", "slice",
           "slice_update", "stop_gradient", "switch", "unstack", "vectorized_map", "while_loop"]
__dir__ = public(__all__)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    return tf().convert_to_tensor(x, dtype=dtype)


def convert_to_numpy(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def is_tensor(x):
    return tf().is_tensor(x)


def dtype(x):
    return np_name(convert_to_tensor(x).dtype)


def cast(x, dtype):
    return tf().cast(x, dtype)


def saturate_cast(x, dtype):
    """Values outside the target type's range clip to its limits instead of wrapping."""
    return tf().saturate_cast(x, dtype)


def shape(x):
    """The shape as a tuple: a KerasTensor's static shape (None for its batch); a tensor's static dims as
    ints and, while tracing, each unknown dim as a scalar tensor (`tf.shape(x)[i]`), as Keras 3's TF
    backend gives, so `reshape(x, (shape(x)[0], 2, 2))` works inside a layer's call."""
    if hasattr(x, "_keras_history"):
        return tuple(x.shape)
    x = convert_to_tensor(x)
    s = x.shape
    if s.rank is None:
        return None
    static = s.as_list()
    if None not in static:
        return tuple(static)
    dynamic = tf().shape(x)
    return tuple(dynamic[i] if d is None else d for i, d in enumerate(static))


def slice(inputs, start_indices, shape):  # noqa: A001
    return tf().slice(inputs, start_indices, shape)


def slice_update(inputs, start_indices, updates):
    """inputs with the block at start_indices replaced by updates (a scatter over the block's index grid)."""
    t = tf()
    inputs, updates = convert_to_tensor(inputs), convert_to_tensor(updates)
    start = t.cast(start_indices, "int32")
    grids = t.meshgrid(*[t.range(n) for n in updates.shape.as_list()], indexing="ij")
    indices = t.stack(grids, axis=-1) + start
    return t.tensor_scatter_nd_update(inputs, indices, t.cast(updates, inputs.dtype))


def scatter(indices, values, shape):
    """A zeros tensor of `shape` with values added at indices (duplicates sum)."""
    return tf().scatter_nd(indices, values, shape)


def scatter_update(inputs, indices, updates):
    return tf().tensor_scatter_nd_update(inputs, indices, updates)


def unstack(x, num=None, axis=0):
    return tf().unstack(x, num=num, axis=axis)


def stop_gradient(variable):
    return tf().stop_gradient(variable)


def custom_gradient(f):
    return tf().custom_gradient(f)


def cond(pred, true_fn, false_fn):
    return tf().cond(pred, true_fn, false_fn)


def switch(index, branches, *operands):
    """branches[index](*operands), the index clipped into range as Keras does."""
    t = tf()
    index = t.clip_by_value(t.cast(index, "int32"), 0, len(branches) - 1)
    return t.switch_case(index, [lambda b=b: b(*operands) for b in branches])


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    t = tf()
    is_tuple = isinstance(loop_vars, (tuple, list))
    loop_vars = tuple(loop_vars) if is_tuple else (loop_vars,)

    def body_fn(*args):
        out = body(*args) if is_tuple else body(args[0])
        return tuple(out) if is_tuple else (out,)
    result = t.while_loop(lambda *args: cond(*args), body_fn, loop_vars, maximum_iterations=maximum_iterations)
    return tuple(result) if is_tuple else result[0]


def fori_loop(lower, upper, body_fun, init_val):
    t = tf()
    _, value = t.while_loop(lambda i, v: i < upper, lambda i, v: (i + 1, body_fun(i, v)),
                            (t.constant(lower), init_val))
    return value


def vectorized_map(function, elements):
    return tf().vectorized_map(function, elements)


def _leading_length(flat):
    return convert_to_tensor(flat[0]).shape[0]


def _stack_structures(structures):
    nest = tf().nest
    flats = [nest.flatten(s) for s in structures]
    stacked = [tf().stack(list(parts)) for parts in zip(*flats)]
    return nest.pack_sequence_as(structures[0], stacked)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """JAX's scan: carry, y = f(carry, x) for each x along axis 0 of xs; returns (carry, stacked ys)."""
    t = tf()
    flat_xs = [] if xs is None else [convert_to_tensor(x) for x in t.nest.flatten(xs)]
    n = length if length is not None else _leading_length(flat_xs)
    if length is not None and flat_xs and _leading_length(flat_xs) != length:
        raise ValueError(f"Expected length of `xs` to equal `length`. Received: len(xs)={_leading_length(flat_xs)}, "
                         f"length={length}")
    carry, ys = init, []
    for k in (reversed(range(n)) if reverse else range(n)):
        x = None if xs is None else t.nest.pack_sequence_as(xs, [v[k] for v in flat_xs])
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, (_stack_structures(ys) if ys and ys[0] is not None else None)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive prefix combination with f along axis (evaluated left to right; f must be associative)."""
    t = tf()
    flat = [convert_to_tensor(e) for e in t.nest.flatten(elems)]
    moved = [t.unstack(e, axis=axis) for e in flat]
    n = len(moved[0])
    order = list(reversed(range(n))) if reverse else list(range(n))
    out, acc = [None] * n, None
    for k in order:
        piece = t.nest.pack_sequence_as(elems, [m[k] for m in moved])
        acc = piece if acc is None else f(acc, piece)
        out[k] = acc
    flat_out = [t.stack(list(parts), axis=axis) for parts in zip(*[t.nest.flatten(o) for o in out])]
    return t.nest.pack_sequence_as(elems, flat_out)


def map(f, xs):  # noqa: A001
    """f applied to each slice of xs along axis 0, the results stacked."""
    t = tf()
    flat = [convert_to_tensor(x) for x in t.nest.flatten(xs)]
    return _stack_structures([f(t.nest.pack_sequence_as(xs, [v[k] for v in flat]))
                              for k in range(_leading_length(flat))])
