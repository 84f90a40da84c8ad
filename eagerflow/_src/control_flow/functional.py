"""`tf.map_fn`, `tf.scan`, `tf.foldl`, `tf.foldr` and `tf.vectorized_map`, built as TensorFlow builds
them: the elements are unstacked into TensorArrays, a `tf.while_loop` reads one per iteration and
writes the results into TensorArrays that are stacked at the end. So they run eagerly (a Python loop),
trace into one While op inside `tf.function`, and differentiate through the loop.

They live beside while_loop (not in ops/) because they are built from control flow.
`vectorized_map` does not vectorise: it is `map_fn` with the output structure taken from `fn` itself.
"""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError, OutOfRangeError
from ..core.tensor import Tensor, TensorSpec
from ..ops.array import basic as _array
from ..ops.math import elementwise as _math
from ..ops.operands import as_tensor
from . import subgraph
from .tensor_array import TensorArray
from .while_loop import while_loop


def _flat_elems(elems):
    flat = [e if isinstance(e, Tensor) else as_tensor(e) for e in nest.flatten(elems, expand_composites=True)]
    if not flat:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. Got {elems}")
    for e in flat:
        if e.shape.rank == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    return flat


def _length(flat):
    """The common first dimension: a Python int when known, else a scalar tensor."""
    n = None
    for e in flat:
        d = e.shape[0] if e.shape.rank is not None else None
        if d is not None and n is not None and d != n:
            raise ValueError(f"Dimensions {n} and {d} are not compatible")
        n = d if d is not None else n
    return n if n is not None else _array.shape(flat[0])[0]


def _unstacked(flat):
    return [TensorArray(e.dtype, size=_length(flat), element_shape=e.shape[1:] if e.shape.rank else None,
                        infer_shape=True).unstack(e) for e in flat]


def _leaf_spec(sig):
    """(dtype, element shape or None) for one leaf of fn_output_signature."""
    if isinstance(sig, TensorSpec):
        return sig.dtype, sig.shape
    return _dt.as_dtype(sig), None


def _check_written(spec_dtype, value):
    if value.dtype is not spec_dtype:
        raise InvalidArgumentError(None, None, f"TensorArray dtype is {spec_dtype.name} but Op is trying to write "
                                               f"dtype {value.dtype.name}")


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """`tf.map_fn`: stacks fn(x) for each x unstacked from `elems` along axis 0. `elems` may be a
    nested structure (fn gets the same structure of slices); the output structure and dtypes are
    `fn_output_signature` (DTypes or TensorSpecs), by default those of `elems`."""
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {fn!r}")
    if fn_output_signature is None:
        fn_output_signature = dtype
    flat = _flat_elems(elems)
    n = _length(flat)
    if fn_output_signature is None:
        out_structure = elems  # as TensorFlow: the dtypes of `elems`, not their shapes (fn may reduce them)
        out_specs = [(e.dtype, None) for e in flat]
    else:
        out_structure = fn_output_signature
        out_specs = [_leaf_spec(s) for s in nest.flatten(fn_output_signature, expand_composites=True)]
    in_tas = _unstacked(flat)
    out_tas = [TensorArray(dt, size=n, element_shape=shape, infer_shape=infer_shape) for dt, shape in out_specs]

    def body(i, *tas):
        result = fn(nest.pack_sequence_as(elems, [ta.read(i) for ta in in_tas], expand_composites=True))
        nest.assert_same_structure(out_structure, result, check_types=False, expand_composites=True)
        values = [as_tensor(v, spec[0]) for v, spec in zip(nest.flatten(result, expand_composites=True), out_specs)]
        for (spec_dtype, _), v in zip(out_specs, values):
            _check_written(spec_dtype, v)
        return (i + 1,) + tuple(ta.write(i, v) for ta, v in zip(tas, values))

    loop = while_loop(lambda i, *_: _math.less(i, n), body, (as_tensor(0),) + tuple(out_tas),
                      maximum_iterations=n if isinstance(n, int) else None)
    return nest.pack_sequence_as(out_structure, [ta.stack() for ta in loop[1:]], expand_composites=True)


def _initial(flat_elems, initializer, reverse):
    """The first accumulator and the index the loop starts at: the initializer and 0, or the first
    (last, when reversed) elements and 1."""
    if initializer is not None:
        return initializer, 0
    n = _length(flat_elems)
    if n == 0:  # TensorFlow reads element 0 of the empty TensorArray
        raise OutOfRangeError(None, None, "Tried to read from index 0 but array size is: 0")
    first = [e[-1] if reverse else e[0] for e in flat_elems]
    return first, 1 if isinstance(n, int) else as_tensor(1)


def _scan_loop(fn, elems, initializer, reverse, keep_outputs):
    flat = _flat_elems(elems)
    n = _length(flat)
    init, start = _initial(flat, initializer, reverse)
    structure = init if initializer is not None else nest.pack_sequence_as(elems, init, expand_composites=True)
    acc = [v if isinstance(v, Tensor) else as_tensor(v) for v in nest.flatten(init, expand_composites=True)]
    in_tas = _unstacked(flat)
    out_tas = []
    if keep_outputs:
        out_tas = [TensorArray(a.dtype, size=n, element_shape=a.shape) for a in acc]
        if initializer is None:  # the first element is the first output
            first = _index(n, 0, reverse)
            out_tas = [ta.write(first, a) for ta, a in zip(out_tas, acc)]
    k = len(acc)

    def body(i, *loop_vars):
        values, tas = list(loop_vars[:k]), loop_vars[k:]
        idx = _index(n, i, reverse)
        x = nest.pack_sequence_as(elems, [ta.read(idx) for ta in in_tas], expand_composites=True)
        new = fn(nest.pack_sequence_as(structure, values, expand_composites=True), x)
        nest.assert_same_structure(structure, new, check_types=False, expand_composites=True)
        new_flat = [as_tensor(v, a.dtype) for v, a in zip(nest.flatten(new, expand_composites=True), values)]
        return (i + 1,) + tuple(new_flat) + tuple(ta.write(idx, v) for ta, v in zip(tas, new_flat))

    loop = while_loop(lambda i, *_: _math.less(i, n), body, (as_tensor(start),) + tuple(acc) + tuple(out_tas))
    final = list(loop[1:1 + k])
    if keep_outputs:
        return nest.pack_sequence_as(structure, [ta.stack() for ta in loop[1 + k:]], expand_composites=True)
    return nest.pack_sequence_as(structure, final, expand_composites=True)


def _index(n, i, reverse):
    if not reverse:
        return i
    return _math.subtract(_math.subtract(as_tensor(n), as_tensor(i)), as_tensor(1))


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """`tf.scan`: the stacked sequence of accumulators a_i = fn(a_{i-1}, x_i); without an
    initializer the first element is a_0 (and the first output)."""
    if not callable(fn):
        raise TypeError("fn must be callable.")
    return _scan_loop(fn, elems, initializer, reverse, keep_outputs=True)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`tf.foldl`: the last accumulator of fn(a, x) over `elems` from the first element."""
    if not callable(fn):
        raise TypeError("fn must be callable.")
    return _scan_loop(fn, elems, initializer, reverse=False, keep_outputs=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`tf.foldr`: as foldl, from the last element to the first."""
    if not callable(fn):
        raise TypeError("fn must be callable.")
    return _scan_loop(fn, elems, initializer, reverse=True, keep_outputs=False)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`tf.vectorized_map`, run as map_fn (TensorFlow's own fallback). The output signature is read
    from fn traced once on one element's spec into a throw-away sub-graph, so nothing of that trace
    runs (no extra prints, no extra variable reads)."""
    if not callable(fn):
        raise TypeError("fn must be callable.")
    flat = _flat_elems(elems)
    specs = [TensorSpec(e.shape[1:] if e.shape.rank is not None else None, e.dtype) for e in flat]
    probe = subgraph.trace(lambda *xs: fn(nest.pack_sequence_as(elems, list(xs), expand_composites=True)), specs,
                           "vectorized_map_probe")
    signature = nest.pack_sequence_as(probe.structure, [TensorSpec(t.shape, t.dtype) for t in probe.outputs],
                                      expand_composites=True)
    return map_fn(fn, elems, fn_output_signature=signature)
