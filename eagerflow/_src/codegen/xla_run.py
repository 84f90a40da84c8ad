"""A traced program as a Python function over jax arrays: what codegen/xla.py hands to jax.jit.

Each op calls its lowering, `OpDef.jax(*arrays, **attrs)` (ops/lazy_jax.py); values known at trace
time (shapes, shape arithmetic) go through the NumPy kernel instead, so XLA sees them as constants.
Variables are slots in a State threaded through the program (reads and writes are ops on it);
ops that need more than a lowering (variables, control flow) are in SPECIAL, by op type
(codegen/xla_control_flow.py adds the control-flow ones).
"""
from __future__ import annotations

import numpy as np

from ..core.errors import InvalidArgumentError
from ..ops.bfloat16 import kernel_of
from ..ops.lazy_jax import ON_HOST
from ..ops.control.lists_jax import JaxList

_FOLD_LIMIT = 4096  # elements: values computed at trace time larger than this are left to XLA


class NeedsConstant(Exception):
    """A lowering needed, at trace time, a value known only when the executable runs (a shape
    computed from an argument). codegen/xla.py then compiles the arguments it depends on in as
    constants, as TensorFlow's XLA does for its "compile-time constant" inputs."""

    def __init__(self, op, args):
        super().__init__(op.name)
        self.op = op
        self.input_index = _needed_input(op, args)


def _needed_input(op, args):
    """Which input most likely had to be a constant: the first run-time integer input after the
    first (a shape, a size, a count: Reshape's shape, DenseBincount's size), else the first
    run-time input."""
    unknown = [i for i, a in enumerate(args) if not known([a]) and not isinstance(a, Slot)]
    for i in unknown:
        if i > 0 and op.inputs[i].dtype.is_integer:
            return i
    return unknown[0] if unknown else 0


_CONCRETIZATION_ERRORS = None


def _concretization_errors():
    """JAX's errors for a traced value used where a concrete one is needed (and a TensorList's size
    that depends on one)."""
    global _CONCRETIZATION_ERRORS
    if _CONCRETIZATION_ERRORS is None:
        import jax
        from ..ops.control.lists_jax import SizeNeedsConstants  # a TensorList sized by run-time values
        _CONCRETIZATION_ERRORS = tuple(getattr(jax.errors, name) for name in (
            "ConcretizationTypeError", "TracerArrayConversionError", "TracerIntegerConversionError",
            "TracerBoolConversionError") if hasattr(jax.errors, name)) + (SizeNeedsConstants,)
    return _CONCRETIZATION_ERRORS


class Slot:
    """A variable's place in the state a compiled function threads through (a resource value)."""
    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class CompilerVariant:
    """Base of the compiler's own values for what the NumPy kernels hold in variants (an If's
    kept values, a loop's history, their gradients): not arrays, so ops that also take variants
    (ZerosLike, AddN: a gradient's zero and sum) run them through ON_VARIANTS, by op type."""
    __slots__ = ()


ON_VARIANTS = {}


class State:
    """The current value of every variable the function touches, and which ones it assigned."""

    recording = False  # running a branch or body that keeps values for a gradient (control flow in it too)

    def __init__(self, values, assigned):
        self.values = list(values)
        self.assigned = assigned  # shared by forks: a branch's or body's writes count too

    def fork(self, values, recording=None):
        forked = State(values, self.assigned)
        forked.recording = self.recording if recording is None else recording
        return forked

    def attrs(self, op):
        """`op`'s attributes as it runs here: inside a branch or body that keeps values for a
        gradient, nested control flow keeps its own (OpDef.record_attrs, as the NumPy code does)."""
        if self.recording and op.opdef.record_attrs is not None:
            return op.opdef.record_attrs(op.attrs)
        return op.attrs


def value_of(program, env, tensor):
    tensor = program.resolve(tensor)
    try:
        return env[id(tensor)]
    except KeyError:
        if tensor._op.type == "Const":
            return tensor._op.attrs["value"]
        raise


def known(values):
    return all(isinstance(v, (np.ndarray, np.generic)) for v in values)


def _fold(op, args):
    """The op's NumPy kernel on arrays known at trace time (shape arithmetic), or None."""
    if not op.opdef.may_run_early or not known(args) or any(np.size(a) > _FOLD_LIMIT for a in args):
        return None
    try:
        with np.errstate(all="ignore"):
            out = kernel_of(op)(*args, **op.attrs)
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
        args = [value_of(program, env, t) for t in op.inputs]
        if kind in _SPEC_ELEMENTS:
            args = _with_spec_elements(program, env, op, args)
        special = SPECIAL.get(kind)
        lowering = op.opdef.jax
        if special is not None:
            try:
                outs = special(op, args, state)
            except _concretization_errors() as exc:  # a value control flow needed when compiling
                raise NeedsConstant(op, args) from exc
        elif lowering is ON_HOST:
            outs = _on_host(op, args)
        elif getattr(lowering, "updates_variables", False):
            outs = _updating(op, lowering, args, state)
        else:
            outs = lower(op, args)
        for t, v in zip(op.outputs, outs):
            env[id(t)] = v
        if kind == "Pack" and not known(args) and op.attrs.get("axis", 0) == 0 and all(
                np.ndim(a) == 0 for a in args):
            env[("elements", id(op.outputs[0]))] = args
    return [value_of(program, env, t) for t in program.outputs]


# Ops whose slice-spec inputs (by position) are read element by element (ops/array/slicing.py's
# _jax_index): a spec packed from scalars, some traced and some known (`x[t, 1:]` in a loop),
# goes in as its elements, so the known ones stay known (TensorFlow's XLA infers them too).
_SPEC_ELEMENTS = {"StridedSlice": (1, 2, 3), "StridedSliceGrad": (1, 2, 3)}


def _with_spec_elements(program, env, op, args):
    args = list(args)
    for i in _SPEC_ELEMENTS[op.type]:
        elements = env.get(("elements", id(program.resolve(op.inputs[i]))))
        if elements is not None:
            args[i] = elements
    return args


def lower(op, args):
    """The op's outputs from its lowering (or its NumPy kernel, when its inputs are known)."""
    on_variants = ON_VARIANTS.get(op.type)
    if on_variants is not None and any(isinstance(a, CompilerVariant) for a in args):
        return on_variants(op, args)
    outs = _fold(op, args)
    if outs is None:
        try:
            out = op.opdef.jax(*args, **op.attrs)
        except _concretization_errors() as exc:
            raise NeedsConstant(op, args) from exc
        outs = list(out) if op.opdef.multi_output else [out]
    return outs


def _on_host(op, args):
    """The op's NumPy kernel on the host, called from the executable at each run (random draws)."""
    import jax
    from jax.experimental import io_callback
    shapes = [t.shape for t in op.outputs]
    if not all(s.is_fully_defined() for s in shapes):
        raise InvalidArgumentError(None, None, f"XLA compilation of {op.name} ({op.type}) needs its output shape "
                                               f"at trace time; it depends on the data.")
    specs = [jax.ShapeDtypeStruct(tuple(s.as_list()), t.dtype.np_dtype) for s, t in zip(shapes, op.outputs)]
    kernel, attrs, multi = kernel_of(op), op.attrs, op.opdef.multi_output

    def on_host(*arrays):
        with np.errstate(all="ignore"):
            out = kernel(*[np.asarray(a) for a in arrays], **attrs)
        return [np.asarray(o, dtype=spec.dtype) for o, spec in zip(out if multi else [out], specs)]
    return list(io_callback(on_host, specs, *args))


def _updating(op, lowering, args, state):
    """An op that updates the variables among its inputs (a fused optimizer step): the lowering
    gets their current values and returns (outputs, {input position: new value})."""
    values = [state.values[a.index] if isinstance(a, Slot) else a for a in args]
    outs, updates = lowering(*values, **op.attrs)
    for position, value in updates.items():
        slot = args[position].index
        old = state.values[slot]  # None: an uninitialized variable (state/initial_value.py)
        state.values[slot] = value if old is None else like(value, old)
        state.assigned.add(slot)
    return list(outs)


def run_branch(branch, explicit, externals, state, program=None):
    """A branch or loop body (control_flow/subgraph.py): its placeholders read `explicit`, and
    its captures the op's external inputs."""
    env = {}
    for ph, v in zip(branch.explicit, explicit):
        env[id(ph)] = v
    for j, ph in enumerate(branch.graph.internal_captures):
        env[id(ph)] = externals[branch.index[j]]
    return run_program(program or branch.program, env, state)


def like(new, old):
    """`new` with `old`'s dtype: a loop carry must keep its type (a TensorList its buffer)."""
    if isinstance(new, JaxList):
        return new.like(old)
    from jax import numpy as jnp
    dtype = dtype_of(old)
    return new if dtype_of(new) == dtype else jnp.asarray(new, dtype=dtype)


def dtype_of(value):
    """A value's NumPy dtype: its own for arrays (jax's too: np.result_type on a jax array is
    deprecated in NumPy 2), NumPy's rule for Python scalars."""
    dtype = getattr(value, "dtype", None)
    return np.dtype(dtype) if dtype is not None else np.result_type(value)


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
    return _assign(op, [slot, like(old + delta if op.type == "AssignAddVariableOp" else old - delta, old)], state)


SPECIAL = {"ReadVariableOp": _read, "AssignVariableOp": _assign, "AssignAddVariableOp": _assign_add,
           "AssignSubVariableOp": _assign_add}
