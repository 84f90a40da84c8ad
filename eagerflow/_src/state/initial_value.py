"""A Variable's initial value as an array, including one computed inside a traced function.

TensorFlow's rule (TF 2.21): a `tf.function` may create variables on its first trace only, and
`if self.v is None: self.v = tf.Variable(tf.zeros([3]))` is the recommended pattern. The initial
value is then a symbolic tensor of the graph being traced. TensorFlow lifts its computation out of
the graph (as `tf.init_scope` does) when it can; when it depends on the function's arguments, the
variable is initialized by the first call instead, from that call's arguments.

We do the same: `initial_array` replays the ops behind a symbolic value eagerly (through `bind`,
so each op means what it means everywhere) when everything they read is known now (constants,
captured outside tensors, variables); otherwise the value stays pending and
`initialize_in_graph` adds an op that sets the variable on the first run of the graph.
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.tensor import Tensor
from ..ops.registry import NO_GRADIENT, bind, defop


def initial_array(initial_value, dtype):
    """(fresh ndarray, None), or (None, the symbolic tensor) when the value can only be computed
    when the traced function runs."""
    if isinstance(initial_value, Tensor):
        if not hasattr(initial_value, "_value"):  # symbolic: try to lift it out of the graph
            lifted = _lift(initial_value)
            if lifted is None:
                if dtype is not None and initial_value.dtype is not dtype:
                    initial_value = convert_to_tensor(initial_value, dtype=dtype)
                return None, initial_value
            return _as_dtype(np.array(lifted), dtype), None
        return _as_dtype(np.array(initial_value._value), dtype), None
    if hasattr(type(initial_value), "_as_tensor"):  # another Variable: its current value
        with _eager():
            return _as_dtype(np.array(initial_value._as_tensor()._value), dtype), None
    with _eager():  # a Python or NumPy value is converted eagerly, even while tracing
        t = convert_to_tensor(initial_value, dtype=dtype)
    return np.array(t._value), None


def _as_dtype(value, dtype):
    if dtype is not None and _dt.from_numpy(value.dtype) is not dtype:
        return _dt.cast_array(value, dtype)
    return value


class _eager:
    """Runs ops eagerly, with no tape, while a graph is being traced (what tf.init_scope does)."""

    def __enter__(self):
        self._saved = state.graph, state.tapes
        state.graph, state.tapes = None, []

    def __exit__(self, *exc):
        state.graph, state.tapes = self._saved
        return False


def _lift(tensor):
    """The value of a symbolic tensor computed now, eagerly; None when it depends on an argument
    of the function being traced (a parameter placeholder)."""
    graph = tensor.graph
    captured = {id(internal): external for external, internal in graph.captures}
    needed, order, stack = {}, [], [tensor.op]
    while stack:  # the ops `tensor` depends on, then replayed in graph (program) order
        op = stack.pop()
        if id(op) in needed:
            continue
        needed[id(op)] = op
        if op.type == "Placeholder":
            external = captured.get(id(op.outputs[0]))
            if external is None or not hasattr(external, "_value"):
                return None  # a parameter, or a tensor of an enclosing trace
            continue
        stack.extend(t.op for t in op.inputs)
    env = {}
    with _eager():
        for op in graph.get_operations():
            if id(op) not in needed:
                continue
            if op.type == "Placeholder":
                env[id(op.outputs[0])] = captured[id(op.outputs[0])]
                continue
            result = bind(op.opdef, [env[id(t)] for t in op.inputs], op.attrs)
            for sym, value in zip(op.outputs, result if op.opdef.multi_output else [result]):
                env[id(sym)] = value
    return env[id(tensor)]._value


def _assign_if_uninitialized(var, value):
    if var._array is None:
        var._array = np.array(value, copy=True)
    return []


AssignVariableIfUninitialized = defop(
    "AssignVariableIfUninitialized", inputs=("resource", "value"), kernel=_assign_if_uninitialized,
    multi_output=True, infer=lambda inputs, attrs: [], grad=NO_GRADIENT, stateful=True,
    doc="Sets a variable created inside a traced function from the first call's arguments; later calls "
        "leave it alone (TensorFlow's conditional initializer of an unliftable initial value).")


def initialize_in_graph(variable, value):
    bind(AssignVariableIfUninitialized, (variable.handle, value))


# --- JAX lowering (jit_compile=True, codegen/xla.py): an uninitialized variable enters the
# executable as None (a different argument structure from an array, so jax.jit traces again once
# it holds a value): the first call sets it, the next trace leaves it alone. ---
def _jax_assign_if_uninitialized(current, value):
    return [], ({0: value} if current is None else {})


_jax_assign_if_uninitialized.updates_variables = True
AssignVariableIfUninitialized.jax = _jax_assign_if_uninitialized
