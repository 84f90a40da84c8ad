"""jit_compile=True: a traced program lowered through each op's JAX rule, one `jax.jit` per trace.

The program (the graph after the passes, what codegen/pycode.py compiles) becomes one Python
function over jax arrays: every op calls its lowering, `OpDef.jax(*arrays, **attrs)`, written
beside its kernel (ops/lazy_jax.py). `jax.jit` traces that function once, on the first call, and
XLA compiles the whole trace: loops and all.

- Variables: the function reads their current arrays as arguments and returns the values it
  assigned, written back after the call (state flows through `If`/`While` as part of their carry).
- Constants: captured arrays are closure constants. Values computable at trace time (shapes and
  shape arithmetic: every op whose inputs are all known arrays) run through the NumPy kernel
  instead, so `Reshape(x, Shape(y))` sees a static shape, as XLA requires.
- `If` -> `lax.cond` (a Python `if` when the predicate is known); `While` -> `lax.scan` when its
  trip count is known at trace time (the loop counter and its limit are constants: the `for t in
  tf.range(T)` case), else `lax.while_loop`. A loop under a recording tape keeps its history as
  the scan's stacked outputs, and `WhileGrad` walks them back with a reverse scan.

JAX runs with 64-bit types enabled (TensorFlow's int64/float64 must not shrink to 32 bits).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError
from ..ops.lazy_jax import ON_HOST

INSTALL_HINT = "pip install 'eagerflow[xla]'"
_FOLD_LIMIT = 4096  # elements: values computed at trace time larger than this are left to XLA


def import_jax():
    """jax, with 64-bit types on; a clear error naming the extra when it is not installed."""
    try:
        import jax
    except ImportError as exc:
        raise ImportError(
            f"tf.function(jit_compile=True) compiles through XLA with JAX, which is not installed: "
            f"{INSTALL_HINT} (or set jit_compile=False to run the function as generated NumPy code).") from exc
    if not jax.config.jax_enable_x64:
        jax.config.update("jax_enable_x64", True)
    return jax


class _Slot:
    """A variable's place in the state a compiled function threads through (a resource value)."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class _State:
    """The current value of every variable the function touches, and which ones it assigned."""

    def __init__(self, values, assigned):
        self.values = list(values)
        self.assigned = assigned  # shared by forks: a branch's or body's writes count too

    def fork(self, values):
        return _State(values, self.assigned)


class _History:
    """What a loop kept for its gradient: the loop variables and kept values, stacked per iteration."""

    def __init__(self, positions, var_stacks, kept_stacks):
        self.positions, self.var_stacks, self.kept_stacks = positions, var_stacks, kept_stacks


# --- the check made before compiling: every op has a lowering ---

_HANDLED_HERE = {"Placeholder", "Const", "IfKeptValue", "ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                 "AssignSubVariableOp", "If", "StatelessIf", "While", "StatelessWhile", "WhileGrad"}


def unsupported_ops(program, found=None):
    """[(op type, node name)] of the ops in `program` (and its branches and bodies) with no lowering."""
    found = [] if found is None else found
    for op in program.ops:
        if op.type not in _HANDLED_HERE and op.opdef.jax is None:
            if op.type not in {t for t, _ in found}:
                found.append((op.type, op.name))
        for key in ("then_branch", "else_branch", "cond", "body", "body_grad"):
            branch = op.attrs.get(key) if op.type in _HANDLED_HERE else None
            if branch is not None and getattr(branch, "program", None) is not None:
                unsupported_ops(branch.program, found)
                if (key == "body" and op.attrs.get("keep_history")) or (
                        key.endswith("_branch") and op.attrs.get("keep_intermediates")):
                    unsupported_ops(branch.with_intermediates(branch.kept_for_gradient).program, found)
    return found


def unsupported_error(name, found):
    """TensorFlow's error for a graph XLA cannot compile, naming the ops."""
    listed = ", ".join(f"{t} (No registered '{t}' OpKernel for XLA_CPU_JIT devices compatible with node "
                       f"{{{{node {n}}}}}){{{{node {n}}}}}" for t, n in found)
    return InvalidArgumentError(
        None, None, f"Detected unsupported operations when trying to compile graph __inference_{name} on "
                    f"XLA_CPU_JIT: {listed}")


# --- the program as a function over jax arrays ---

def _value(program, env, tensor):
    tensor = program.resolve(tensor)
    try:
        return env[id(tensor)]
    except KeyError:
        if tensor._op.type == "Const":
            return tensor._op.attrs["value"]
        raise


def _known(values):
    return all(isinstance(v, (np.ndarray, np.generic)) for v in values)


def _fold(op, args):
    """The op's NumPy kernel on arrays known at trace time (shape arithmetic), or None."""
    if op.opdef.stateful or not _known(args) or any(np.size(a) > _FOLD_LIMIT for a in args):
        return None
    try:
        with np.errstate(all="ignore"):
            out = op.opdef.kernel(*args, **op.attrs)
    except Exception:  # noqa: BLE001 - the lowering decides (and XLA reports) instead
        return None
    outs = list(out) if op.opdef.multi_output else [out]
    if not all(isinstance(o, (np.ndarray, np.generic)) and np.size(o) <= _FOLD_LIMIT for o in outs):
        return None
    return [np.asarray(o) for o in outs]


def run_program(program, env, state):
    """Runs `program`'s ops on the values in `env` (id(tensor) -> value); returns its outputs."""
    for op in program.ops:
        kind = op.type
        if kind in ("Placeholder", "Const"):
            continue
        args = [_value(program, env, t) for t in op.inputs]
        special = _SPECIAL.get(kind)
        lowering = op.opdef.jax
        if special is not None:
            outs = special(op, args, state)
        elif lowering is ON_HOST:
            outs = _on_host(op, args)
        elif getattr(lowering, "updates_variables", False):
            outs = _updating(op, lowering, args, state)
        else:
            outs = _fold(op, args)
            if outs is None:
                out = op.opdef.jax(*args, **op.attrs)
                outs = list(out) if op.opdef.multi_output else [out]
        for t, v in zip(op.outputs, outs):
            env[id(t)] = v
    return [_value(program, env, t) for t in program.outputs]


def _on_host(op, args):
    """The op's NumPy kernel on the host, called from the executable at each run (random draws)."""
    import jax
    from jax.experimental import io_callback
    shapes = [t.shape for t in op.outputs]
    if not all(s.is_fully_defined() for s in shapes):
        raise InvalidArgumentError(None, None, f"XLA compilation of {op.name} ({op.type}) needs its output shape "
                                               f"at trace time; it depends on the data.")
    specs = [jax.ShapeDtypeStruct(tuple(s.as_list()), t.dtype.np_dtype) for s, t in zip(shapes, op.outputs)]
    kernel, attrs, multi = op.opdef.kernel, op.attrs, op.opdef.multi_output

    def on_host(*arrays):
        with np.errstate(all="ignore"):
            out = kernel(*[np.asarray(a) for a in arrays], **attrs)
        return [np.asarray(o, dtype=spec.dtype) for o, spec in zip(out if multi else [out], specs)]
    return list(io_callback(on_host, specs, *args))


def _updating(op, lowering, args, state):
    """An op that updates the variables among its inputs (a fused optimizer step): the lowering
    gets their current values and returns (outputs, {input position: new value})."""
    values = [state.values[a.index] if isinstance(a, _Slot) else a for a in args]
    outs, updates = lowering(*values, **op.attrs)
    for position, value in updates.items():
        slot = args[position].index
        state.values[slot] = _like(value, state.values[slot])
        state.assigned.add(slot)
    return list(outs)


def _run_branch(branch, explicit, externals, state, program=None):
    """A branch or loop body (control_flow/subgraph.py): its placeholders read `explicit`, and
    its captures the op's external inputs."""
    env = {}
    for ph, v in zip(branch.explicit, explicit):
        env[id(ph)] = v
    for j, ph in enumerate(branch.graph.internal_captures):
        env[id(ph)] = externals[branch.index[j]]
    return run_program(program or branch.program, env, state)


def _like(new, old):
    """`new` with `old`'s dtype: a loop carry must keep its type."""
    from jax import numpy as jnp
    dtype = np.result_type(old)
    return new if np.result_type(new) == dtype else jnp.asarray(new, dtype=dtype)


def _read(op, args, state):
    return [state.values[args[0].index]]


def _assign(op, args, state):
    slot, value = args
    state.values[slot.index] = value
    state.assigned.add(slot.index)
    return []


def _assign_add(op, args, state):
    slot, delta = args
    old = state.values[slot.index]
    return _assign(op, [slot, _like(old + delta if op.type == "AssignAddVariableOp" else old - delta, old)], state)


class _Kept:
    """What an If under a recording tape kept for its gradient: each branch's kept values (zeros
    for the branch not taken, as TensorFlow's cond_v2 has them), by branch."""

    def __init__(self, then_side, else_side):
        self.sides = {"then_branch": then_side, "else_branch": else_side}  # (positions, values) or None


class _KeptSide:
    """A _Kept as the gradient If's branch for one forward branch sees it (IfKeptValue reads it)."""

    def __init__(self, positions, values):
        self.positions, self.values = positions, values

    def value(self, position):
        return self.values[position if self.positions is None else self.positions.index(position)]


def _if(op, args, state):
    import jax
    from jax import lax
    from jax import numpy as jnp
    attrs = op.attrs
    keep = attrs.get("keep_intermediates", False)
    pred, externals = args[0], args[1:]
    n = len(op.outputs) - 1
    branches = {key: attrs[key] for key in ("then_branch", "else_branch")}
    programs = {key: (b.with_intermediates(b.kept_for_gradient).program if keep else b.program)
                for key, b in branches.items()}

    def side_externals(key):  # a gradient If's branch reads the kept values of its own forward branch
        return [e.sides[key] and _KeptSide(*e.sides[key]) if isinstance(e, _Kept) else e for e in externals]

    def run(key):
        def fn(values):
            inner = state.fork(values)
            outs = _run_branch(branches[key], (), side_externals(key), inner, programs[key])
            return (tuple(jnp.asarray(o) for o in outs[:n]), tuple(jnp.asarray(o) for o in outs[n:]),
                    tuple(inner.values))
        return fn
    if _known([pred]):
        key = "then_branch" if bool(pred) else "else_branch"
        outs, kept, values = run(key)(tuple(state.values))
        sides = {key: (branches[key].kept_for_gradient, list(kept))}
    elif not keep:
        outs, _, values = lax.cond(jnp.reshape(pred, ()).astype(bool), run("then_branch"), run("else_branch"),
                                   tuple(state.values))
        sides = {}
    else:  # each branch returns its kept values and zeros shaped as the other's
        shapes = {key: jax.eval_shape(run(key), tuple(state.values))[1] for key in branches}

        def padded(key):
            other = "else_branch" if key == "then_branch" else "then_branch"

            def fn(values):
                outs, kept, new = run(key)(values)
                zeros = tuple(jnp.zeros(s.shape, s.dtype) for s in shapes[other])
                return outs, ((kept, zeros) if key == "then_branch" else (zeros, kept)), new
            return fn
        outs, (then_kept, else_kept), values = lax.cond(jnp.reshape(pred, ()).astype(bool), padded("then_branch"),
                                                        padded("else_branch"), tuple(state.values))
        sides = {"then_branch": (branches["then_branch"].kept_for_gradient, list(then_kept)),
                 "else_branch": (branches["else_branch"].kept_for_gradient, list(else_kept))}
    state.values = list(values)
    kept = _Kept(sides.get("then_branch"), sides.get("else_branch")) if keep else None
    return list(outs) + [kept]


def _kept_value(op, args, state):
    side = args[0]
    if not isinstance(side, _KeptSide):
        raise InvalidArgumentError(None, None, f"{op.name}: the If's kept values are read outside its gradient")
    return [side.value(op.attrs["position"])]


def _while(op, args, state):
    from jax import lax
    from jax import numpy as jnp
    attrs = op.attrs
    n = attrs["n_vars"]
    init, externals = [jnp.asarray(a) for a in args[:n]], args[n:]
    cond, body = attrs["cond"], attrs["body"]
    limit = attrs.get("maximum_iterations", -1)
    keep = attrs.get("keep_history", False)
    trips = static_trip_count(cond, body, args[:n], externals, limit)
    if trips is None:
        if keep:
            raise InvalidArgumentError(
                None, None, f"XLA compilation of the gradient of {op.name} needs its trip count at trace time "
                            f"(a tf.range loop over a constant, or maximum_iterations); this loop's depends on "
                            f"the data.")
        return _while_loop(cond, body, init, externals, limit, state)
    program = body.with_intermediates(body.kept_for_gradient).program if keep else body.program

    def step(carry, _):
        loop, values = carry
        inner = state.fork(values)
        outs = _run_branch(body, loop, externals, inner, program)
        new = tuple(_like(o, v) for o, v in zip(outs[:n], loop))
        kept = (tuple(loop), tuple(jnp.asarray(o) for o in outs[n:])) if keep else None
        return (new, tuple(inner.values)), kept
    (final, values), kept = lax.scan(step, (tuple(init), tuple(state.values)), None, length=trips)
    state.values = list(values)
    history = _History(body.kept_for_gradient, list(kept[0]), list(kept[1])) if keep else None
    return list(final) + [history]


def _while_loop(cond, body, init, externals, limit, state):
    from jax import lax
    from jax import numpy as jnp

    def keep_going(carry):
        i, loop, values = carry
        (go,) = _run_branch(cond, loop, externals, state.fork(values))
        go = jnp.reshape(go, ()).astype(bool)
        return go if limit < 0 else jnp.logical_and(go, i < limit)

    def step(carry):
        i, loop, values = carry
        inner = state.fork(values)
        outs = _run_branch(body, loop, externals, inner)
        return i + 1, tuple(_like(o, v) for o, v in zip(outs, loop)), tuple(inner.values)
    _, final, values = lax.while_loop(keep_going, step, (jnp.asarray(0, np.int64), tuple(init), tuple(state.values)))
    state.values = list(values)
    return list(final) + [None]


def _while_grad(op, args, state):
    """WhileGrad (control_flow/while_loop.py) over a scan's stacked history: a reverse scan running
    the traced gradient of one body iteration, summing the externals' gradients."""
    from jax import lax
    from jax import numpy as jnp
    attrs = op.attrs
    if attrs.get("seed_positions") is not None:
        raise InvalidArgumentError(None, None, f"XLA compilation of {op.name}: gradients of a loop's gradient "
                                               f"(third order through tf.while_loop) are not supported yet")
    n, body_grad, wanted = attrs["n_vars"], attrs["body_grad"], attrs["ext_index"]
    history, rest = args[0], args[1:]
    externals, seeds = rest[:len(rest) - n], rest[len(rest) - n:]
    k = body_grad.n_intermediates
    positions = history.positions

    def ext_value(v):
        return state.values[v.index] if isinstance(v, _Slot) else v
    acc0 = tuple(jnp.zeros_like(jnp.asarray(ext_value(externals[i]))) for i in wanted)

    def step(carry, xs):
        grads, acc = carry
        loop, kept = xs
        full = list(kept) if positions is None else [None] * k
        if positions is not None:
            for p, v in zip(positions, kept):
                full[p] = v
        values = list(loop) + list(externals) + full + list(grads)
        env = {id(ph): v for ph, v in zip(body_grad.graph.inputs, values)}
        outs = run_program(body_grad.program, env, state.fork(state.values))
        new_grads = tuple(_like(o, g) for o, g in zip(outs[:n], grads))
        return (new_grads, tuple(_like(a + o, a) for a, o in zip(acc, outs[n:]))), None
    (grads, acc), _ = lax.scan(step, (tuple(jnp.asarray(s) for s in seeds), acc0),
                               (tuple(history.var_stacks), tuple(history.kept_stacks)), reverse=True)
    return list(grads) + list(acc)


_SPECIAL = {"IfKeptValue": _kept_value, "ReadVariableOp": _read, "AssignVariableOp": _assign, "AssignAddVariableOp": _assign_add,
            "AssignSubVariableOp": _assign_add, "If": _if, "StatelessIf": _if, "While": _while,
            "StatelessWhile": _while, "WhileGrad": _while_grad}


# --- trip counts known at trace time ---

def _dependencies(program, tensor, memo):
    """(placeholder ids `tensor` depends on, whether it depends on a stateful op or a sub-graph op)."""
    tensor = program.resolve(tensor)
    key = id(tensor)
    if key in memo:
        return memo[key]
    op = tensor._op
    if op.type == "Placeholder":
        result = ({key}, False)
    elif op.type == "Const":
        result = (set(), False)
    else:
        memo[key] = (set(), True)  # a cycle guard; graphs have none
        ids, impure = set(), op.opdef.stateful or op.type in _SPECIAL
        for t in op.inputs:
            sub, bad = _dependencies(program, t, memo)
            ids |= sub
            impure = impure or bad
        result = (ids, impure)
    memo[key] = result
    return result


def _sources(branch):
    """id(placeholder) -> ("loop", i) or ("external", j) for a cond or body branch."""
    where = {id(ph): ("loop", i) for i, ph in enumerate(branch.explicit)}
    for j, ph in enumerate(branch.graph.internal_captures):
        where[id(ph)] = ("external", branch.index[j])
    return where


def static_trip_count(cond, body, init, externals, limit, cap=1_000_000):
    """How many times the loop runs, when that follows from values known at trace time: the
    loop variables the condition reads start known and the body computes their next values from
    known values only (a counter and its constant limit). None otherwise."""
    known_ext = {j for j, v in enumerate(externals) if _known([v])}
    static = {i for i, v in enumerate(init) if _known([v])}
    body_where, body_memo = _sources(body), {}
    deps = []
    for out in body.program.outputs:
        ids, impure = _dependencies(body.program, out, body_memo)
        deps.append((None if impure else [body_where.get(p) for p in ids]))
    changed = True
    while changed:
        changed = False
        for i in sorted(static):
            d = deps[i]
            if d is None or any(s is None or (s[0] == "loop" and s[1] not in static)
                                or (s[0] == "external" and s[1] not in known_ext) for s in d):
                static.discard(i)
                changed = True
    cond_ids, impure = _dependencies(cond.program, cond.program.outputs[0], {})
    cond_where = _sources(cond)
    for p in cond_ids:
        s = cond_where.get(p)
        if impure or s is None or (s[0] == "loop" and s[1] not in static) or (
                s[0] == "external" and s[1] not in known_ext):
            return None
    values = list(init)
    cap = cap if limit < 0 else min(cap, limit)
    count = 0
    with np.errstate(all="ignore"):
        while count < cap:
            go = _numpy_branch(cond, values, externals, static)[0]
            if not bool(go):
                return count
            outs = _numpy_branch(body, values, externals, static)
            values = [outs[i] if i in static else values[i] for i in range(len(values))]
            count += 1
    return count if limit >= 0 else None


def _numpy_branch(branch, values, externals, static):
    """A branch's outputs that depend on known values only, by the NumPy kernels (None elsewhere)."""
    env = {}
    for i, ph in enumerate(branch.explicit):
        if i in static:
            env[id(ph)] = values[i]
    for j, ph in enumerate(branch.graph.internal_captures):
        v = externals[branch.index[j]]
        if _known([v]):
            env[id(ph)] = v
    program = branch.program
    for op in program.ops:
        if op.type in ("Placeholder", "Const"):
            continue
        try:
            args = [_value(program, env, t) for t in op.inputs]
        except KeyError:
            continue
        out = op.opdef.kernel(*args, **op.attrs)
        for t, v in zip(op.outputs, list(out) if op.opdef.multi_output else [out]):
            env[id(t)] = v
    result = []
    for t in program.outputs:
        try:
            result.append(_value(program, env, t))
        except KeyError:
            result.append(None)
    return result


# --- the compiled function ConcreteFunction calls ---

class CompiledProgram:
    """`fn(*arrays) -> tuple of arrays`, as codegen/pycode.py's GeneratedFunction.fn, backed by one
    jax.jit executable. Arguments are the program's parameters in order: arrays, and the Variable
    behind each resource parameter (a tf.Variable passed as an argument)."""

    def __init__(self, program, name, captures):
        found = unsupported_ops(program)
        if found:
            raise unsupported_error(name, found)
        jax = import_jax()
        self.name = name
        self._program = program
        inputs = list(program.inputs)
        self._params = []  # (placeholder, is it a resource)
        self._captured_variables = []  # Variables captured by the function, in slot order
        constants = {}
        for ph in inputs:
            if id(ph) in captures:
                value = captures[id(ph)]
                if ph.dtype is _dt.resource:
                    self._captured_variables.append((ph, value))
                else:
                    constants[id(ph)] = value
            else:
                self._params.append((ph, ph.dtype is _dt.resource))
        self._constants = constants
        # Positions (among the array parameters) passed as compile-time constants: none at first;
        # the integer ones when the trace needs a parameter's value (a shape given as an argument),
        # as TensorFlow's XLA does: one executable per distinct value of those arguments.
        self._static = ()
        self._jax_errors = tuple(getattr(jax.errors, name) for name in (
            "ConcretizationTypeError", "TracerArrayConversionError", "TracerIntegerConversionError",
            "TracerBoolConversionError") if hasattr(jax.errors, name))
        self._jitted = jax.jit(self._lowered, static_argnums=(1,))
        self._put = jax.device_put
        self._device = {}  # slot -> (the variable's NumPy array, the same value as an XLA array)

    def _lowered(self, arrays, constants, variable_values):
        """The program over jax arrays: (outputs, {slot: value assigned})."""
        env = dict(self._constants)
        slot = 0
        for ph, _ in self._captured_variables:
            env[id(ph)] = _Slot(slot)
            slot += 1
        dynamic, known = iter(arrays), iter(constants)
        position = 0
        for ph, is_resource in self._params:
            if is_resource:
                env[id(ph)] = _Slot(slot)
                slot += 1
            else:
                env[id(ph)] = next(known).array if position in self._static else next(dynamic)
                position += 1
        state = _State(variable_values, set())
        outputs = run_program(self._program, env, state)
        return tuple(outputs), {i: state.values[i] for i in sorted(state.assigned)}

    def fn(self, *values):
        variables = [var for _, var in self._captured_variables]
        arrays = []
        for (ph, is_resource), value in zip(self._params, values):
            if is_resource:
                variables.append(value)
            else:
                arrays.append(value)
        current = self._device_values(variables)
        try:
            outputs, assigned = self._call(arrays, current)
        except self._jax_errors:
            if self._static:
                raise
            self._static = frozenset(i for i, a in enumerate(arrays) if np.asarray(a).dtype.kind in "iub")
            if not self._static:
                raise
            outputs, assigned = self._call(arrays, current)
        device = self._device
        for i, value in assigned.items():
            array = np.asarray(value)  # NOTE: no copy on CPU: the NumPy array views the XLA buffer
            variables[i]._array = array
            device[i] = (array, value)
        return tuple(np.asarray(o) for o in outputs)

    def _device_values(self, variables):
        """The variables' current values for the executable: the XLA array already holding one
        (the value this function wrote, or a copy made on an earlier call) when the variable still
        has that array, so a weight is not copied into XLA on every call."""
        device = self._device
        values = []
        for i, var in enumerate(variables):
            array = var._array
            held = device.get(i)
            if held is not None and held[0] is array:
                values.append(held[1])
            else:
                placed = self._put(array)
                device[i] = (array, placed)
                values.append(placed)
        return values

    def _call(self, arrays, variable_values):
        static = self._static
        if not static:
            return self._jitted(arrays, (), variable_values)
        dynamic = [a for i, a in enumerate(arrays) if i not in static]
        constants = tuple(_Constant(np.asarray(a)) for i, a in enumerate(arrays) if i in static)
        return self._jitted(dynamic, constants, variable_values)


class _Constant:
    """An argument compiled in as a constant: hashable by value (jax.jit's static argument)."""
    __slots__ = ("array", "_key")

    def __init__(self, array):
        self.array = array
        self._key = (array.dtype.str, array.shape, array.tobytes())

    def __hash__(self):
        return hash(self._key)

    def __eq__(self, other):
        return isinstance(other, _Constant) and self._key == other._key
