"""The loops converted code calls (`ag__.while_stmt`, `ag__.for_stmt`, re-exported by operators.py):
a Python loop run now when its test or iterable is a Python value, else a tf.while_loop whose
variables are checked as TensorFlow checks them (loop_checks.py).

    while_stmt(loop_test, loop_body, init, names, opts) -> the loop variables
    for_stmt(iterable, loop_body, init, names, extra_test, opts) -> the loop variables
"""
from __future__ import annotations

import numpy as np

from ..control_flow.cond import cond as _cond
from ..control_flow.while_loop import while_loop as _while_loop
from ..core import dtypes as _dt
from ..core import nest
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.shape import TensorShape, as_shape
from ..core.tensor import Tensor
from . import loop_checks as checks
from .values import TensorList, Undefined, bool_tensor as _bool_tensor, condition as _condition, \
    is_symbolic as _is_symbolic

class LoopOptions:
    """What `tf.autograph.experimental.set_loop_options` asked for one loop."""

    def __init__(self, parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                 shape_invariants=None):
        self.maximum_iterations = maximum_iterations
        self.shape_invariants = list(shape_invariants or [])


def loop_options(**kwargs):
    return LoopOptions(**kwargs)


def while_stmt(loop_test, loop_body, init, names, opts=None, lists=()):
    first = loop_test(*init)
    if not _is_symbolic(first):
        values = tuple(init)
        limit = opts.maximum_iterations if opts is not None else None
        count = 0
        go = first
        while go and (limit is None or count < limit):
            values = tuple(loop_body(*values))
            count += 1
            go = loop_test(*values)
            if _is_symbolic(go):
                raise NotImplementedError(checks.TENSOR_TEST_IN_PY_WHILE)
        return values
    return _tf_loop(loop_test, loop_body, init, names, opts, None, lists)


def for_stmt(iterable, loop_body, init, names, extra_test=None, opts=None, lists=()):
    if type(iterable).__name__ == "TensorArray" and hasattr(iterable, "stack"):
        iterable = iterable.stack()
    if isinstance(iterable, TensorList):
        iterable = iterable.tensor
    if _is_symbolic(iterable):
        items = convert_to_tensor(iterable)
        if items.shape.rank == 0:  # TensorFlow's words (its loop takes len() of the tensor)
            from ..ops.array.basic import shape as _shape
            raise ValueError(f"len requires a non-scalar tensor, got one of shape {_shape(items)}")
        return _tf_loop(extra_test, loop_body, init, names, opts, items, lists)
    if state.graph is not None and hasattr(type(iterable), "_loop_source"):
        # A tf.data.Dataset (duck-typed: data/ sits above this floor's imports): a tf.while_loop over
        # its element indices, each element computed by ops in the body (data/reader.py).
        # Over a dataset shapes may change between iterations; over an iterator they may not (TF 2.21).
        return _tf_loop(extra_test, loop_body, init, names, opts, iterable._loop_source(), lists,
                        shapes_vary=not hasattr(type(iterable), "get_next"))
    values = tuple(init)
    for item in iterable:
        if extra_test is not None:
            go = extra_test(*values)
            if _is_symbolic(go):
                raise NotImplementedError(checks.TENSOR_BREAK_IN_PY_FOR)
            if not go:
                break
        values = tuple(loop_body(item, *values))
    return values


def _tf_loop(loop_test, loop_body, init, names, opts, items, lists=(), shapes_vary=False):
    """A tf.while_loop over the named loop variables; `items` (a tensor) makes it a `for` over
    its first dimension, with an index as an extra loop variable.

    A loop over a dataset (`shapes_vary`) may change its variables' shapes, as TensorFlow's dataset
    loop allows: when one does, the loop is traced again with the shapes relaxed (RelaxShapes)."""
    init, invariants, user_set, undefined = _prepare(loop_test, loop_body, list(init), names, opts, items, lists)
    while True:
        try:
            return _tf_loop_with(loop_test, loop_body, init, names, opts, items, invariants, user_set, undefined,
                                 shapes_vary)
        except checks.RelaxShapes as relax:
            invariants = relax.invariants


def _tf_loop_with(loop_test, loop_body, init, names, opts, items, invariants, user_set, undefined, shapes_vary):
    from ..ops.array.basic import shape as _shape
    structures = [v for v in init]
    flat_init, sizes = [], []
    for v in init:
        leaves = nest.flatten(v.tensor if isinstance(v, TensorList) else v, expand_composites=True)
        flat_init += [convert_to_tensor(x) for x in leaves]
        sizes.append(len(leaves))
    counting = _counting_range(items)
    if counting is not None:  # `for t in tf.range(...)`: the loop counts t itself, no tensor indexed
        start, limit, delta = counting
        widen = _may_wrap(items.dtype, start, limit, delta)
        if widen:  # counted in int64: the step past the last value must not wrap around
            from ..ops.math.elementwise import cast
            start, limit, delta = (cast(t, _dt.int64) for t in (start, limit, delta))
        flat_init = [start] + flat_init
        invariants = [TensorShape([])] + invariants
    elif items is not None and not isinstance(items, Tensor):  # a dataset's loop source
        n = items.size if items.size is not None else np.iinfo(np.int32).max
        flat_init = [convert_to_tensor(0)] + flat_init
        invariants = [TensorShape([])] + invariants
    elif items is not None:
        n = items.shape[0] if items.shape.rank and items.shape[0] is not None else _shape(items)[0]
        flat_init = [convert_to_tensor(0)] + flat_init
        invariants = [TensorShape([])] + invariants

    def unpack(flat):
        out, i = [], 0
        for v, size in zip(structures, sizes):
            part = list(flat[i:i + size])
            i += size
            if isinstance(v, TensorList):
                out.append(TensorList(part[0]))
            else:
                nested = nest.is_nested(v, expand_composites=True)
                out.append(nest.pack_sequence_as(v, part, expand_composites=True) if nested else part[0])
        return out

    def cond_fn(*flat):
        if undefined:
            flat = flat[:-1]
        if items is not None:
            index, flat = flat[0], flat[1:]
            from ..ops.math.elementwise import less
            if hasattr(items, "has_element"):  # a stream dataset: the loop's test pulls the next element
                go = items.has_element(index)
            else:
                go = less(index, limit if counting is not None else n)
            if loop_test is None:
                return go
            return _cond(go, lambda: _bool_tensor(loop_test(*unpack(flat))), lambda: go)  # go and test
        return _condition(loop_test(*unpack(flat)), "while loop")

    def body_fn(*flat):
        if undefined:
            flat = flat[:-1]
        if items is not None:
            index, flat = flat[0], flat[1:]
            # NOTE: gather, not items[index]: an unused StridedSlice trips passes/prune.py under verify.
            from ..ops.array.slicing import gather
            if counting is not None:
                item = index
                if widen:
                    from ..ops.math.elementwise import cast
                    item = cast(index, items.dtype)
            elif not isinstance(items, Tensor):
                item = items.element(index)
            else:
                item = gather(items, index)
            out = loop_body(item, *unpack(flat))
        else:
            out = loop_body(*unpack(flat))
        offset = 1 if items is not None else 0
        result = _flatten_outputs(out, structures, names, flat_init[offset:offset + len(user_set)],
                                  invariants[offset:offset + len(user_set)], user_set, shapes_vary)
        step = delta if counting is not None else 1
        ran = [convert_to_tensor(True)] if undefined else []
        return ([index + step] if items is not None else []) + result + ran

    if undefined:  # a flag saying whether the loop ran: without an iteration they have no value
        flat_init = flat_init + [convert_to_tensor(False)]
        invariants = invariants + [TensorShape([])]
    flat_out = _while_loop(cond_fn, body_fn, flat_init, shape_invariants=invariants,
                           maximum_iterations=opts.maximum_iterations if opts is not None else None)
    flat_out = list(flat_out) if isinstance(flat_out, (list, tuple)) else [flat_out]
    if undefined:
        from ..ops.debugging.checks import Assert
        Assert(flat_out.pop(), [checks.zero_iterations_message(undefined)])
    if items is not None:
        flat_out = flat_out[1:]
    return tuple(unpack(flat_out))


def _may_wrap(dtype, start, limit, delta):
    """Whether counting a range of `dtype` could step past the dtype's largest value (then the loop
    counts in int64). Known bounds that leave room for one more step keep the range's own dtype,
    so the common `for t in tf.range(T)` loop has no cast per iteration."""
    if dtype is _dt.int64:
        return False
    values = [t._static_value() if hasattr(t, "_static_value") else None for t in (start, limit, delta)]
    if any(v is None for v in values):
        return True
    return int(np.max(values[1])) + int(np.max(values[2])) > np.iinfo(dtype.np_dtype).max


def _counting_range(items):
    """(start, limit, delta) when `items` is a traced integer `tf.range` with a constant positive
    step, so the loop can count through it instead of indexing it; None otherwise.

    Integers only: a float range's length is ceil((limit - start) / delta) and its values are
    start + i * delta, which counting by repeated addition does not reproduce (rounding: 0.1 added
    three times is not below 0.3 in float32, yet tf.range(0., 0.3, 0.1) has four elements)."""
    op = getattr(items, "_op", None)
    if op is None or op.type != "Range" or len(op.inputs) != 3 or not items.dtype.is_integer:
        return None
    start, limit, delta = op.inputs
    step = delta._static_value() if hasattr(delta, "_static_value") else None
    if step is None or np.ndim(step) != 0 or not step > 0:
        return None
    return start, limit, delta


def _flatten_outputs(out, structures, names, flat_init, invariants, user_set, shapes_vary):
    """The body's outputs as flat tensors, with TensorFlow's errors naming the loop variable
    (loop_checks.py). In a dataset loop a shape change relaxes the loop's shapes instead."""
    result, i, relaxed = [], 0, None
    for name, before, value in zip(names, structures, out):
        if value is None or isinstance(value, Undefined):
            raise ValueError(f"'{name}' is None at the end of the iteration.")
        if isinstance(before, TensorList) and isinstance(value, list):
            from ..ops.array.joining import stack
            value = TensorList(stack(value))
        if not isinstance(before, TensorList):
            checks.check_structure(name, before, value)
        leaves = nest.flatten(value.tensor if isinstance(value, TensorList) else value, expand_composites=True)
        for leaf in leaves:
            t = checks.check_leaf(name, flat_init[i], leaf, invariants[i], user_set[i], shapes_vary)
            if t is None:  # a dataset loop's variable changed shape
                t = convert_to_tensor(leaf)
                relaxed = relaxed or list(invariants)
                relaxed[i] = invariants[i].most_specific_compatible_shape(t.shape)
            result.append(t)
            i += 1
    if relaxed is not None:
        raise checks.RelaxShapes(relaxed)
    return result


def _prepare(loop_test, loop_body, init, names, opts, items, lists=()):
    """Loop variables ready for tf.while_loop; their flat shape invariants, whether the user set
    each one, and the names the loop itself defines (checked at run time to have run once).

    Variables with no value yet (undefined, None, an empty list) get one from a probe: the body
    traced once in a throwaway graph tells their dtype and shape, as TensorFlow does (a dataset
    loop refuses them instead, as TensorFlow's does; an empty list it appends to is still ours
    to define). A list of tensors the body appends to (`lists`, named by the converter) is
    carried stacked, so it may grow; any other list is a structure of separate loop variables."""
    unknown = [i for i, v in enumerate(init) if v is None or isinstance(v, Undefined) or (
        isinstance(v, list) and not v)]
    if items is not None and not isinstance(items, Tensor):  # a dataset loop
        for i in unknown:
            if not isinstance(init[i], list):
                raise checks.undefined_before_dataset_loop(names[i], init[i])
    probed = _probe(loop_body, init, names, unknown, items) if unknown else {}
    undefined = [names[i] for i in unknown if probed[i][0] != "list"]
    user = {}
    for var, shape in (opts.shape_invariants if opts is not None else []):
        user[id(var)] = as_shape(shape)
    out, invariants, user_set = [], [], []
    from ..ops.array.basic import zeros
    for i, v in enumerate(init):
        if i in probed:
            kind, structure, specs = probed[i]
            leaves = []
            for shape, dtype in specs:
                dims = [0 if d is None else d for d in shape.as_list()] if shape.rank is not None else []
                if kind == "list":
                    leaves.append(TensorList(zeros([0] + dims, dtype)))
                    invariants.append(TensorShape([None] + shape.as_list()))
                else:
                    leaves.append(zeros(dims, dtype))
                    invariants.append(shape)
                user_set.append(False)
            out.append(leaves[0] if structure is None else
                       nest.pack_sequence_as(structure, leaves, expand_composites=True))
            continue
        if isinstance(v, list) and names[i] in lists and all(isinstance(x, Tensor) for x in v):
            from ..ops.array.joining import stack
            t = stack(v)
            out.append(TensorList(t))
            invariants.append(TensorShape([None] + t.shape.as_list()[1:]))
            user_set.append(False)
            continue
        if isinstance(v, TensorList):
            out.append(v)
            invariants.append(TensorShape([None] + v.shape.as_list()[1:]))
            user_set.append(False)
            continue
        out.append(v)
        for leaf in nest.flatten(v, expand_composites=True):
            t = convert_to_tensor(leaf)
            given = user.get(id(leaf), user.get(id(v)))
            if given is not None:
                checks.check_initial_shape(names[i], t.shape, given)
            invariants.append(t.shape if given is None else given)
            user_set.append(given is not None)
    return out, invariants, user_set, undefined


def _probe(loop_body, init, names, unknown, items):
    from ..control_flow import subgraph
    defined = [i for i in range(len(init)) if i not in unknown]
    flat_defined = [convert_to_tensor(init[i].tensor if isinstance(init[i], TensorList) else init[i])
                    if not nest.is_nested(init[i], expand_composites=True) else init[i] for i in defined]
    found = {}

    def body(*placeholders):
        values = list(init)
        for i, ph in zip(defined, placeholders):
            values[i] = TensorList(ph) if isinstance(init[i], TensorList) else ph
        for i in unknown:
            values[i] = [] if isinstance(init[i], list) else Undefined(names[i])
        if items is not None and not isinstance(items, Tensor):
            out = loop_body(items.element(0), *values)
        elif items is not None:
            out = loop_body(items[0] if items.shape.rank else items, *values)
        else:
            out = loop_body(*values)
        results = []
        for i in unknown:
            value = out[i]
            if isinstance(init[i], list):
                if not value:
                    raise ValueError(f"'{names[i]}' stays an empty list after one iteration")
                results.append(convert_to_tensor(value[0]))
                found[i] = "list"
            else:
                if value is None or isinstance(value, Undefined):
                    raise ValueError(f"'{names[i]}' is None at the end of the iteration.")
                if nest.is_nested(value, expand_composites=True):  # a dict or tuple of tensors: its leaves
                    leaves = nest.flatten(value, expand_composites=True)
                    if any(x is None or isinstance(x, Undefined) for x in leaves):
                        found["none"] = True
                        raise ValueError("None values not supported.")
                    results.extend(convert_to_tensor(x) for x in leaves)
                    found[i] = ("value", value, len(leaves))
                    continue
                results.append(convert_to_tensor(value))
                found[i] = "value"
        return results

    specs = [_Spec(t.shape, t.dtype) for t in flat_defined if isinstance(t, Tensor)]
    if len(specs) != len(flat_defined):  # nested loop variables: probe with their values as they are
        specs, defined = [], []
    try:
        branch = subgraph.trace(body, specs, "autograph_probe")
    except Exception as err:  # noqa: BLE001 - reported as TensorFlow reports it
        if found.get("none"):  # a structure holding None: TensorFlow's words, not a definition failure
            raise ValueError("None values not supported.") from None
        if any(names[i] == checks.RETVAL for i in unknown):
            # the `return` sits in one branch of a tensor `if`, or under a Python condition not taken
            raise NotImplementedError(checks.RETURN_IN_LOOP) from None
        name = names[unknown[0]]
        raise ValueError(f"'{name}' must be defined before the loop\nNote: AutoGraph tried to define it "
                         f"automatically, but ran into a {type(err).__name__}: {err}") from err
    probed, outputs = {}, list(branch.outputs)
    for i in unknown:
        kind, structure, count = found[i] if isinstance(found[i], tuple) else (found[i], None, 1)
        probed[i] = (kind, structure, [(t.shape, t.dtype) for t in outputs[:count]])
        outputs = outputs[count:]
    return probed


class _Spec:
    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype
