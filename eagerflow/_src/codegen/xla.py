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
This file: the check for ops without a lowering, and the compiled callable; xla_run.py runs a
program over jax arrays, xla_control_flow.py lowers If/While, xla_trip_count.py finds static trip counts,
xla_lists.py carries TensorLists (ops/control/lists_jax.py: dense buffers) through loops and branches,
xla_higher_order.py the ops a gradient of a gradient adds around them, xla_outputs.py hands large
outputs out as views and recycles their buffers into later calls; the others are handed out as
they are (DeviceTensors: NumPy on first read), and jit_dispatch.py says whether a call waits.
"""
from __future__ import annotations

import functools
import os
import weakref

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError, graph_error_message
from ..core.tensor import DeviceValue, wrap_output
from ..core.update_locks import UpdateLocks
from . import jit_dispatch
from . import xla_control_flow  # noqa: F401 - adds If/While/WhileGrad to SPECIAL
from . import xla_higher_order  # noqa: F401 - adds the higher-order gradient ops to SPECIAL
from . import xla_lists  # TensorLists as pytrees: registered once JAX is imported
from ..ops.control.lists_jax import SizeNeedsConstants
from .xla_outputs import OutputRecycler, array_viewed, xla_array_of
from .xla_run import SPECIAL, NeedsConstant, Slot, State, dtype_of, run_program

INSTALL_HINT = "pip install 'eagerflow[xla]'"


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
    if not _dispatch_configured:
        _configure_dispatch(jax)
    xla_lists.register_pytree()
    return jax


_dispatch_configured = False


def _configure_dispatch(jax):
    """JAX's CPU dispatch as eagerflow's execution mode has it (codegen/jit_dispatch.py), unless
    the user chose it (JAX_CPU_ENABLE_ASYNC_DISPATCH). Synchronous dispatch runs the executable
    on the calling thread: a small compiled call then costs ~9 us instead of ~45 us, most of
    which was the calling thread waking up after XLA's worker finished (measured on an 8x64
    RNN cell). It takes effect only before JAX's CPU backend starts (a process that used JAX
    first keeps JAX's mode), and like jax_enable_x64 it is process-wide."""
    global _dispatch_configured
    _dispatch_configured = True
    if "JAX_CPU_ENABLE_ASYNC_DISPATCH" not in os.environ:
        jax.config.update("jax_cpu_enable_async_dispatch", not jit_dispatch.synchronous)


# --- the check made before compiling: every op has a lowering ---

_HANDLED_HERE = {"Placeholder", "Const"} | set(SPECIAL)


def _updates_state(program) -> bool:
    """Whether `program` (or a branch or loop body in it) has a stateful op: a variable update, a random
    draw that advances a generator. Such a call reads the state, runs and writes it back, so concurrent
    calls must take turns (core/update_locks.py)."""
    for op in program.ops:
        if getattr(op.opdef, "stateful", False):
            return True
        for key in ("then_branch", "else_branch", "cond", "body"):
            branch = op.attrs.get(key)
            if getattr(branch, "program", None) is not None and _updates_state(branch.program):
                return True
    return False


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
        # when the trace needs a parameter's value (a shape given or computed from an argument),
        # the ones it may depend on (see _call_with_constants), as TensorFlow's XLA does for its
        # compile-time constant inputs: one executable per distinct value of those arguments.
        self._static = frozenset()
        # Large outputs come back as views whose buffers are donated to a later call once the
        # user's tensors die (xla_outputs.py); the donors are the fourth, otherwise unused, argument.
        self._outputs = OutputRecycler(program.outputs, jax.device_put)
        self._output_dtypes = tuple(t.dtype for t in program.outputs)
        if self._outputs.positions:
            self._jitted = jax.jit(self._lowered, static_argnums=(1,), donate_argnums=(3,), keep_unused=True)
        else:
            self._jitted = jax.jit(self._lowered, static_argnums=(1,))
        self._put = jax.device_put
        self._device = {}  # slot -> (the variable's NumPy array, the same value as an XLA array)
        self._placed = _Placements()
        self._seen = None
        self._variables = tuple(var for _, var in self._captured_variables)
        self._resource_params = any(is_resource for _, is_resource in self._params)
        self._updates_state = _updates_state(program)

    def fn(self, *values):
        if not self._updates_state:
            return self._run(values)
        holders = self._variables + tuple(v for (_, is_resource), v in zip(self._params, values) if is_resource)
        with UpdateLocks(holders):  # read, run and write back the state as one update
            return self._run(values)

    def release(self):
        """Frees the XLA executables compiled so far and the device copies held for later calls
        (the trace left its function's cache); a later call compiles again. jax.jit's cache is
        cleared rather than the object dropped: a ConcreteFunction the user kept still runs."""
        self._jitted.clear_cache()
        self._device.clear()
        self._placed.clear()
        self._outputs._pool.clear()

    def jaxpr_text(self):
        """What runs: the program as JAX traced it for the first call's argument types (the jaxpr
        XLA compiles), or None before the first call or when arguments are compiled in as
        constants (one executable per value)."""
        if self._seen is None or self._static:
            return None
        import jax
        arrays, current = ([jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in seen] for seen in self._seen)
        donors = tuple(jax.ShapeDtypeStruct(shape, dtype) for shape, dtype in self._outputs._shapes)
        return str(jax.make_jaxpr(self._lowered, static_argnums=(1,))(arrays, (), current, donors))

    def _lowered(self, arrays, constants, variable_values, donors=()):
        """The program over jax arrays: (outputs, {slot: value assigned}). `donors`: buffers
        XLA may write the large outputs into (unread)."""
        env = dict(self._constants)
        slot = 0
        for ph, _ in self._captured_variables:
            env[id(ph)] = Slot(slot)
            slot += 1
        dynamic, known = iter(arrays), iter(constants)
        position = 0
        for ph, is_resource in self._params:
            if is_resource:
                env[id(ph)] = Slot(slot)
                slot += 1
            else:
                env[id(ph)] = next(known).array if position in self._static else next(dynamic)
                position += 1
        state = State(variable_values, set())
        outputs = run_program(self._program, env, state)
        return tuple(outputs), {i: state.values[i] for i in sorted(state.assigned)}

    def _run(self, values):
        if self._resource_params:
            variables = list(self._variables)
            arrays = []
            for (ph, is_resource), value in zip(self._params, values):
                if is_resource:
                    variables.append(value)
                else:
                    arrays.append(value)
        else:  # the common case: no tf.Variable argument, the arguments are the arrays
            variables, arrays = self._variables, values
        current = self._device_values(variables)
        if self._seen is None:  # the first call's argument types: what `jaxpr_text` shows
            self._seen = ([(np.shape(a), dtype_of(a)) for a in arrays], [(np.shape(v), dtype_of(v)) for v in current])
        try:
            outputs, assigned = self._call(arrays, current)
        except NeedsConstant as need:
            outputs, assigned = self._call_with_constants(arrays, current, need)
        device = self._device
        for i, value in assigned.items():
            var = variables[i]
            if hasattr(var, "_held"):  # a tf.Variable: keeps the XLA array until read (DeviceValue)
                held = var._held = DeviceValue(value)
            else:  # another state holder (a random generator's state): a NumPy view, no copy on CPU
                held = var._array = np.asarray(value)
            device[i] = (held, value)
        if outputs:  # one executable computes them all: one output stands for the call
            if jit_dispatch.synchronous:
                outputs[0].block_until_ready()
            else:
                jit_dispatch.queued(outputs[0])
        if self._outputs.positions:
            outputs = self._outputs.handed_out(outputs, list(arrays) + list(current))
        # The tensors themselves (their dtypes are the trace's: no lookup on XLA's arrays): DeviceTensors,
        # NumPy on first read; the large outputs' recycled views as EagerTensors.
        return tuple(map(wrap_output, outputs, self._output_dtypes))

    def _call_with_constants(self, arrays, variable_values, need):
        """Retries with more arguments compiled in as constants, in widening steps: the integer
        arguments (shapes and sizes passed in), then every argument the op that needed a value
        depends on (a shape computed from a float argument), then all of them. Raises TensorFlow's
        "must be a compile-time constant" error when the value depends on something no argument
        fixes (a variable, a random draw, a loop variable)."""
        steps = (
            lambda: [i for i, a in enumerate(arrays) if np.asarray(a).dtype.kind in "iub"],
            lambda: self._parameters_feeding(need.op),
            lambda: range(len(arrays)),
        )
        for number, positions in enumerate(steps):
            if number and isinstance(need.__cause__, SizeNeedsConstants):
                break  # a TensorList's size: integer arguments only (TF's XLA refuses the rest)
            static = self._static | frozenset(positions())
            if static == self._static:
                continue
            self._static = static
            try:
                return self._call(arrays, variable_values)
            except NeedsConstant as again:
                need = again
        op = need.op
        if isinstance(need.__cause__, SizeNeedsConstants):  # a TensorList's own, more precise, message
            raise InvalidArgumentError(None, None, need.__cause__.message) from None
        message = (
            f"Input {need.input_index} to node `{op.name}` with op {op.type} must be a compile-time constant.\n\n"
            f"XLA compiles a program for concrete shapes: an argument that gives a shape, a size or a count must "
            f"be known when the function is compiled. This one is computed from a value that is not (a "
            f"variable, a random draw or a loop variable), so jit_compile=True cannot compile it; compute the "
            f"shape from the function's arguments or from constants, or set jit_compile=False.")
        raise InvalidArgumentError(None, None, graph_error_message(message, op.name, self.name,
                                                                   getattr(op, "source", None)))

    def _parameters_feeding(self, op):
        """Positions of the array parameters `op`'s inputs are computed from (within the top-level
        program; an op inside a branch or loop body finds none)."""
        positions = {id(ph): i for i, ph in enumerate(ph for ph, is_resource in self._params if not is_resource)}
        program = self._program
        found, seen = set(), set()
        stack = list(op.inputs)
        while stack:
            t = program.resolve(stack.pop())
            if id(t) in seen:
                continue
            seen.add(id(t))
            if id(t) in positions:
                found.add(positions[id(t)])
            elif t._op is not None:
                stack.extend(t._op.inputs)
        return found

    def _device_values(self, variables):
        """The variables' current values for the executable: the XLA array already holding one
        (the value this function wrote, or a copy made on an earlier call) when the variable still
        has that array, so a weight is not copied into XLA on every call."""
        device = self._device
        values = []
        for i, var in enumerate(variables):
            array = getattr(var, "_held", _NOT_A_VARIABLE)  # a Variable's value, unconverted
            if array is _NOT_A_VARIABLE:
                array = var._array
            held = device.get(i)
            if held is not None and held[0] is array:
                values.append(held[1])
            else:
                if type(array) is DeviceValue:  # another compiled function wrote it: no copy
                    placed = array.array
                else:  # a compiled function's output assigned to it, or read since: no copy either
                    placed = xla_array_of(array)
                    if placed is None:
                        placed = array_viewed(array) if type(array) is np.ndarray else None
                    if placed is None:
                        placed = self._put(array)
                device[i] = (array, placed)
                values.append(placed)
        return values

    def _call(self, arrays, variable_values):
        static = self._static
        if not static:
            dynamic, constants = self._placed_arrays(arrays), ()
        else:
            dynamic = [a for i, a in enumerate(arrays) if i not in static]
            constants = tuple(_Constant(np.asarray(a)) for i, a in enumerate(arrays) if i in static)
        if self._outputs.positions:
            return self._jitted(dynamic, constants, variable_values, self._outputs.donors())
        return self._jitted(dynamic, constants, variable_values)

    def _placed_arrays(self, arrays):
        """Large arguments as XLA arrays, copied in once per NumPy array: a tensor passed again
        (its array is the same object; eagerflow never writes into a tensor's array) is not copied
        again. Held weakly: the copy goes when the tensor's array does."""
        placed = self._placed
        out = []
        for i, a in enumerate(arrays):
            held = placed.get(i)
            if held is not None and held[0]() is a:
                out.append(held[1])
            elif isinstance(a, np.ndarray) and a.nbytes >= _PLACE_BYTES:
                device = xla_array_of(a)
                if device is None:
                    device = array_viewed(a)
                if device is not None:  # an output of a compiled function: XLA already has it
                    out.append(device)
                    continue
                # Through a NumPy copy: on CPU JAX may wrap a NumPy buffer without copying (even with
                # may_alias=False), and that XLA array, held here, would keep the tensor's array alive
                # (the freed-copy test failed about 1 run in 2 from it). The copy is the XLA array's own.
                device = self._put(a.copy()).block_until_ready()
                placed[i] = (weakref.ref(a, functools.partial(_forget, weakref.ref(placed), i)), device)
                out.append(device)
            else:  # small: a compiled function's output goes back as its XLA array, others as they are
                device = array_viewed(a) if type(a) is np.ndarray else None
                out.append(a if device is None else device)
        return out


_PLACE_BYTES = 1 << 16  # smaller arguments cost less to copy in than to look up
_NOT_A_VARIABLE = object()


def _forget(placed_ref, position, array_ref):
    """A placed argument's NumPy array died: drop its XLA copy (unless a newer one took the place)."""
    placed = placed_ref()
    if placed is not None and placed.get(position, (None,))[0] is array_ref:
        del placed[position]


class _Placements(dict):
    """Parameter position -> (weak reference to the NumPy array, its XLA copy)."""
    __slots__ = ("__weakref__",)


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
