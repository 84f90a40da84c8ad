"""TensorLists in XLA's control flow: lists (ops/control/lists_jax.py JaxList) as loop and branch values.

A list is a pytree whose one leaf is its buffer, so lax.scan/while_loop/cond carry it; what they
need besides is that a carry keeps its structure. A list reserved before its element shape is
known has no buffer until its first write, and when that write is in a loop body the list enters
the loop without a buffer and would leave it with one. `with_buffers` looks ahead: it traces the
body abstractly (jax.eval_shape, no computation) to see which lists it writes and with what item
shape, and gives those lists a buffer of zeros before the loop starts (TensorFlow's XLA compiles
the body twice for the same reason). `conformed` does the same for an If's branches, where one
branch may write a list the other leaves empty. `grown_for_loop` sizes a dynamic_size list that a
loop writes past its end, from the indices the loop counter gives at trace time.

The other helpers are jnp.asarray / jnp.where / jnp.zeros_like that also take lists, for the
generic carry handling in codegen/xla_control_flow.py.
"""
from __future__ import annotations

import threading

import numpy as np

from ..ops.control.lists_jax import JaxList, grown as grown_list

_registered = []
_register_lock = threading.Lock()


def register_pytree():
    """Makes JaxList a pytree (once, whichever thread compiles first; called by codegen/xla.py's
    import_jax, so that importing the compiler does not import JAX)."""
    if _registered:
        return
    with _register_lock:
        if _registered:
            return
        from jax import tree_util
        tree_util.register_pytree_node(
            JaxList, lambda lst: ((lst.buffer,), (lst.length, lst.dtype.str, lst.declared)),
            lambda aux, children: JaxList(children[0], aux[0], np.dtype(aux[1]), aux[2]))
        _registered.append(True)


def as_value(value):
    """jnp.asarray, a list left as it is."""
    if isinstance(value, JaxList):
        return value
    from jax import numpy as jnp
    return jnp.asarray(value)


def select(pred, a, b):
    """jnp.where(pred, a, b), lists too."""
    if isinstance(a, JaxList):
        return a.select(pred, b)
    from jax import numpy as jnp
    return jnp.where(pred, a, b)


def zeros_like(value):
    """jnp.zeros_like, lists too."""
    if isinstance(value, JaxList):
        return value.zeros_like()
    from jax import numpy as jnp
    return jnp.zeros_like(jnp.asarray(value))


def zeros_of(spec):
    """Zeros shaped as one output of jax.eval_shape (a ShapeDtypeStruct or a list of them)."""
    from jax import numpy as jnp
    if isinstance(spec, JaxList):
        return spec if spec.buffer is None else spec.with_buffer(jnp.zeros(spec.buffer.shape, spec.buffer.dtype))
    return jnp.zeros(spec.shape, spec.dtype)


def _empty(value):
    return isinstance(value, JaxList) and value.buffer is None


def with_buffers(carry, step, body=None):
    """`carry` (a list of loop values) with a zero buffer for every empty list that `step` (one
    iteration: carry -> new carry) writes. Repeats while that changes something: a list may get its
    item shape from another list read in the same body (at most once per list). When `body` (the
    loop's body branch) writes each empty list only with TensorListSetItem of items whose shapes
    the graph knows, those give the buffers without tracing `step` (a compile-time saving)."""
    carry = list(carry)
    if not any(_empty(v) for v in carry):
        return carry
    shapes = _written_shapes(body, carry) if body is not None else None
    if shapes is not None:
        return [v.zeros(shapes[i]) if i in shapes else v for i, v in enumerate(carry)]
    import jax
    for _ in range(sum(_empty(v) for v in carry)):
        out = jax.eval_shape(lambda c: tuple(step(c)), tuple(carry))
        changed = False
        for i, (before, after) in enumerate(zip(carry, out)):
            if _empty(before) and isinstance(after, JaxList) and after.buffer is not None:
                carry[i] = before.zeros(tuple(after.buffer.shape[1:]))
                changed = True
        if not changed:
            break
    return carry


def _written_shapes(body, carry):
    """{position: item shape} for the empty lists in `carry` the body writes, read from the graph:
    each such list's body output a chain of TensorListSetItem down to its own loop variable, with
    items of one fully known shape and the list's dtype. None when any empty list is not (then
    with_buffers traces the body instead)."""
    program, shapes = body.program, {}
    for i, value in enumerate(carry):
        if not _empty(value):
            continue
        t = program.resolve(body.program.outputs[i])
        items = []
        while t._op is not None and t._op.type == "TensorListSetItem":
            items.append(t._op.inputs[2])
            t = program.resolve(t._op.inputs[0])
        if t is not body.explicit[i]:
            return None
        if not items:
            continue  # passed through unwritten: stays empty
        known = {tuple(x.shape.as_list()) if x.shape.is_fully_defined() else None for x in items}
        if len(known) != 1 or None in known or any(x.dtype.np_dtype != value.dtype for x in items):
            return None
        (shape,) = known
        if value.declared is not None and (len(value.declared) != len(shape) or any(
                d is not None and d != s for d, s in zip(value.declared, shape))):
            return None  # the write's own error, from tracing it
        shapes[i] = shape
    return shapes


def conformed(branches, operand):
    """If branches (operand -> (outputs, ...)) whose list outputs agree: where one branch returns
    a list with a buffer and another the same list without, the latter gets zeros (TensorFlow's
    cond of a TensorArray written in one branch only). `branches`: {key: fn}; the same keys back."""
    import jax
    outs = {key: jax.eval_shape(fn, operand)[0] for key, fn in branches.items()}
    shapes = {}
    for out in outs.values():
        for i, v in enumerate(out):
            if isinstance(v, JaxList) and v.buffer is not None:
                shapes.setdefault(i, tuple(v.buffer.shape[1:]))
    fill = {key: [i for i, v in enumerate(out) if _empty(v) and i in shapes] for key, out in outs.items()}
    if not any(fill.values()):
        return branches

    def filled(fn, positions):
        def run(values):
            first, *rest = fn(values)
            first = tuple(v.zeros(shapes[i]) if i in positions else v for i, v in enumerate(first))
            return (first, *rest)
        return run
    return {key: filled(fn, fill[key]) if fill[key] else fn for key, fn in branches.items()}


def grown_for_loop(init, raw_init, cond, body, externals, limit):
    """`init` with each `dynamic_size=True` list the loop writes past its end (TensorListSetItem
    with resize_if_index_out_of_bounds) grown to hold every write, when the loop's trip count and
    the indices written are known at trace time (`for t in tf.range(n)`, n constant: the indices
    come from the counter). Else unchanged: a write at a run-time index into an empty list then
    raises "XLA compilation requires a fixed tensor list size" (ops/control/lists_jax.py)."""
    writes = _resized_writes(body, init)
    if not writes:
        return init
    from .xla_trip_count import static_trip_count
    highest = {i: -1 for i in writes}
    unknown = []

    def watch(env):
        for i, indices in writes.items():
            for index in indices:
                value = env.get(id(body.program.resolve(index)))
                if value is None:
                    unknown.append(i)
                else:
                    highest[i] = max(highest[i], int(value))
    trips = static_trip_count(cond, body, raw_init, externals, limit, watch=watch,
                              reads=[index for indices in writes.values() for index in indices])
    if trips is None:
        return init
    grown = list(init)
    for i, top in highest.items():
        if i not in unknown and top >= grown[i].length:
            grown[i] = grown_list(grown[i], top + 1)
    return grown


def _resized_writes(body, init):
    """{loop position: [index tensors]} of the body's growing writes into a carried list."""
    program = body.program
    position = {id(ph): i for i, ph in enumerate(body.explicit)}
    writes = {}
    for op in program.ops:
        if op.type != "TensorListSetItem" or not op.attrs.get("resize_if_index_out_of_bounds"):
            continue
        source = program.resolve(op.inputs[0])
        while source._op.type == "TensorListSetItem":
            source = program.resolve(source._op.inputs[0])
        i = position.get(id(source))
        if i is not None and isinstance(init[i], JaxList):
            writes.setdefault(i, []).append(op.inputs[1])
    return writes
