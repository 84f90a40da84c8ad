"""The graph IR: Graph and Operation (and SymbolicTensor, from symbolic_tensor.py), with TensorFlow 2's
naming.

A Graph is what tracing records: `ops/registry.py:bind` calls `graph.add_operation` for every op
while a graph is being built. Names follow TensorFlow (checked against TF 2.21):
- node names are unique per graph, case-insensitively (`add`, then `Add_1`), default = the name
  the public function gives (`tf.add` -> `Add`, `a + b` -> `add`, `tf.matmul` -> `MatMul`);
- a Python value converted for an op input becomes a `Const` named `<op>/<input>` (`Add/y`);
- an eager tensor from outside is captured as a `Placeholder` named the same way (`mul/y`);
- a variable read inside an op's argument is `<op>/ReadVariableOp`, its captured handle
  `<op>/ReadVariableOp/resource`.
Ops created while converting an argument are therefore named when their consumer is known.
"""
from __future__ import annotations

import threading

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError, NotFoundError, OpError
from ..core.scopes import check_scope_name
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor
from ..ops.shape_rules import dims_text
from ..ops.validation import InputTypeError, is_graph_type_error
from .render import Drawable
from .symbolic_tensor import OperatorNotAllowedInGraphError, SymbolicTensor  # noqa: F401 - imported from here too
from .sites import Site, inlined_site, trace_entry, user_frame, user_stack  # noqa: F401 (the op-site API)



class Operation:
    """A node: op type, inputs (symbolic tensors), attrs, outputs, and the user's source line."""

    __slots__ = ("graph", "opdef", "_name", "inputs", "attrs", "outputs", "control_inputs", "source",
                 "_pending", "__weakref__")

    def __init__(self, graph, opdef, name, inputs, attrs, source=None):
        self.graph = graph
        self.opdef = opdef
        self._name = name
        self.inputs = tuple(inputs)
        self.attrs = attrs
        self.outputs = ()
        self.control_inputs = []
        self.source = source
        self._pending = name is None

    @property
    def name(self) -> str:
        return self._name if self._name is not None else "<unnamed>"

    @property
    def type(self) -> str:
        return self.opdef.name

    @property
    def stateful(self) -> bool:
        return self.opdef.stateful

    def get_attr(self, name):
        return self.attrs[name]

    def __repr__(self):
        return f"<tf.Operation '{self.name}' type={self.type}>"


def _shape_text(shape) -> str:
    """A shape as TensorFlow's shape-inference errors print it: `[?,3]`, `[]`, `?` (unknown rank)."""
    return "?" if shape.rank is None else dims_text(shape)


class Graph(Drawable):
    """A traced computation: operations in program order, placeholders, captures and outputs."""

    def __init__(self, name="graph", outer=None):
        self.name = name
        # The enclosing graph of a control-flow branch or loop body, which it may capture from.
        self.outer = outer
        self._ops = []
        self._names = {}  # lower-cased name -> count, for TensorFlow's case-insensitive uniqueness
        self.name_scope = ""  # the prefix of `tf.name_scope` blocks being traced ("layer1/"), core/scopes.py
        self.inputs = []  # parameter placeholders, then capture placeholders
        self.outputs = []
        self.structured_outputs = None
        self._captures = {}  # id(external tensor) -> (external tensor, placeholder)
        self.variables_by_id = {}
        # placeholder id -> (placeholder, the Variable stand-in a traced function received for a
        # Variable argument), so a tape can watch that argument when a nested function reads it.
        self._variable_standins = {}
        self._lock = threading.Lock()
        # Where this trace began: its frame's id and the user's frames above it (graph/sites.py).
        self._entry, self.base_stack = trace_entry()

    # --- naming ---
    def unique_name(self, name: str) -> str:
        key = name.lower()
        if key not in self._names:
            self._names[key] = 1
            return name
        i = self._names[key]
        while f"{key}_{i}" in self._names:
            i += 1
        self._names[key] = i + 1
        unique = f"{name}_{i}"
        self._names[unique.lower()] = 1
        return unique

    # --- building ---
    def _new_op(self, opdef, name, inputs, attrs, specs):
        node_name = None if name is None else self.unique_name(self.name_scope + name)
        op = Operation(self, opdef, node_name, inputs, attrs, user_frame(self))
        op.outputs = tuple(SymbolicTensor(op, i, s.shape, s.dtype) for i, s in enumerate(specs))
        self._ops.append(op)
        return op

    def add_operation(self, opdef, inputs, attrs, name=None):
        """Adds one op; called by `bind` while this graph is being built. Returns its output(s)."""
        deferred = opdef.name in _NAMED_BY_CONSUMER and name is None
        if name:  # a caller's name opens a scope in TensorFlow, which refuses what its node names cannot hold
            check_scope_name(name, root=not self.name_scope)
        node_name = None if deferred else self.unique_name(self.name_scope + (name or opdef.name))
        inputs = [self._as_graph_input(t) for t in inputs]
        try:
            specs = opdef.infer(inputs, attrs)
        except InputTypeError as err:  # a refused input dtype: TensorFlow's graph-mode TypeError
            raise TypeError(err.graph_message) from None
        except NotFoundError:  # no kernel for these dtypes: TensorFlow builds the node and fails running it
            raise
        except (OpError, ValueError, TypeError) as err:
            if is_graph_type_error(err):  # mixed input dtypes: TensorFlow's TypeError as it is
                raise
            message = err.message if isinstance(err, OpError) else str(err)
            message = message.split(" [Op:")[0]
            shapes = ", ".join(_shape_text(t.shape) for t in inputs)
            raise ValueError(f"{message} for '{{{{node {node_name or opdef.name}}}}} = {opdef.name}' with input "
                             f"shapes: {shapes}.") from None
        op = Operation(self, opdef, node_name, inputs, attrs, user_frame(self))
        op.outputs = tuple(SymbolicTensor(op, i, s.shape, s.dtype) for i, s in enumerate(specs))
        self._ops.append(op)
        if not deferred:
            self._name_inputs(op)
        if opdef.multi_output:
            return list(op.outputs)
        return op.outputs[0]

    def _name_inputs(self, op):
        """Names the still-unnamed producers of `op`'s inputs `<op>/<input name>`."""
        names = op.opdef.inputs
        for i, t in enumerate(op.inputs):
            producer = t._op
            if producer._pending:
                if producer.type in _NAMED_BY_CONSUMER:  # `add/ReadVariableOp`, not `add/y`
                    suffix = producer.type
                elif not names:
                    suffix = f"input_{i}"
                elif len(names) == 1 and len(op.inputs) > 1:  # a list input such as AddN's
                    suffix = names[0] if i == 0 else f"{names[0]}_{i}"
                else:
                    suffix = names[min(i, len(names) - 1)]
                self._name_pending(producer, f"{op._name}/{suffix}")

    def _name_pending(self, op, name):
        op._name = self.unique_name(name)
        op._pending = False
        self._name_inputs(op)

    def literal(self, array, name=None):
        """A Python/NumPy value converted while tracing: a Const named after its consumer."""
        from ..ops.array.basic import Const
        from ..ops.registry import Spec
        op = self._new_op(Const, name, (), {"value": array, "dtype": _dt.from_numpy(array.dtype)},
                          [Spec(TensorShape(array.shape), _dt.from_numpy(array.dtype))])
        return op.outputs[0]

    def placeholder(self, dtype, shape, name, variable_spec=None):
        """A parameter input; a resource placeholder (a Variable argument) carries its variable's
        (shape, dtype) so reads of it have static shapes."""
        from ..ops.registry import Spec
        attrs = {"dtype": dtype, "shape": shape}
        if variable_spec is not None:
            attrs["variable_spec"] = variable_spec
        op = self._new_op(PLACEHOLDER, name, (), attrs, [Spec(shape, dtype)])
        self.inputs.append(op.outputs[0])
        return op.outputs[0]

    def register_variable_standin(self, handle, variable):
        """Records that `variable` (a stand-in built over placeholder `handle`) is what the traced
        function received for a Variable argument."""
        self._variable_standins[id(handle)] = (handle, variable)

    def variable_standin(self, handle):
        """The stand-in Variable behind a resource placeholder of this graph, or None."""
        entry = self._variable_standins.get(id(handle))
        return entry[1] if entry is not None and entry[0] is handle else None

    def capture(self, tensor):
        """The placeholder standing for an eager tensor (or variable handle) from outside."""
        entry = self._captures.get(id(tensor))
        if entry is not None:
            return entry[1]
        if tensor.dtype is _dt.resource and isinstance(tensor, EagerTensor):
            var = tensor._value
            spec = (var.shape, var.dtype)
            self.variables_by_id[id(var)] = var
        elif tensor.dtype is _dt.resource:  # an enclosing graph's handle placeholder
            spec = tensor.variable_spec
        else:
            spec = None
        from ..ops.registry import Spec
        shape = TensorShape([]) if tensor.dtype is _dt.resource else tensor.shape
        op = self._new_op(PLACEHOLDER, None, (), {"dtype": tensor.dtype, "shape": shape, "variable_spec": spec},
                          [Spec(shape, tensor.dtype)])
        placeholder = op.outputs[0]
        self._captures[id(tensor)] = (tensor, placeholder)
        self.inputs.append(placeholder)
        return placeholder

    def _as_graph_input(self, t):
        if isinstance(t, SymbolicTensor):
            if t._op.graph is not self:
                if self.outer is None:
                    raise InvalidArgumentError(
                        None, None, f"Tensor {t.name} belongs to another graph: a tensor from one tf.function "
                                    f"cannot be used in another; pass it as an argument.")
                return self.capture(t)  # a branch or loop body reading its enclosing graph
            return t
        if isinstance(t, EagerTensor):
            return self.capture(t)
        raise TypeError(f"Expected a tensor, got {t!r}")

    def finalize_names(self):
        """Names what no op consumed (a returned literal, an unused capture) as TensorFlow would."""
        for op in self._ops:
            if op._pending:
                self._name_pending(op, op.type)

    # --- inspection (TensorFlow's API) ---
    def as_graph_def(self):
        """The graph as a GraphDef-shaped structure (`.node[i].name/op/input/attr`), graph_def.py."""
        from .graph_def import as_graph_def
        return as_graph_def(self)

    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        for op in self._ops:
            if op.name == name:
                return op
        raise KeyError(f"The name '{name}' refers to an Operation not in the graph.")

    def get_tensor_by_name(self, name):
        op_name, _, index = name.partition(":")
        return self.get_operation_by_name(op_name).outputs[int(index or 0)]

    @property
    def captures(self):
        """(external tensor, internal placeholder) pairs, in capture order."""
        return [pair for pair in self._captures.values()]

    @property
    def external_captures(self):
        return [external for external, _ in self._captures.values()]

    @property
    def internal_captures(self):
        return [internal for _, internal in self._captures.values()]

    @property
    def variables(self):
        return tuple(self.variables_by_id.values())

    def as_default(self):
        from ..core.context import graph_scope
        return graph_scope(self)

    def as_text(self) -> str:
        """One line per op: `name = Type(inputs) {attrs} : shape dtype  # file:line`."""
        from .printer import graph_as_text
        return graph_as_text(self)

    def __repr__(self):
        return f"<eagerflow.Graph {self.name!r} with {len(self._ops)} ops>"


# Ops TensorFlow creates while converting an argument, so they are named under their consumer.
_NAMED_BY_CONSUMER = frozenset({"ReadVariableOp"})


def _no_kernel(*args, **kwargs):
    raise RuntimeError("A Placeholder has no kernel: its value is fed when the function is called")


def _placeholder_infer(inputs, attrs):
    from ..ops.registry import Spec
    return [Spec(attrs["shape"], attrs["dtype"])]


def _make_placeholder_opdef():
    from ..ops.registry import NO_GRADIENT, defop
    return defop("Placeholder", inputs=(), kernel=_no_kernel, infer=_placeholder_infer, grad=NO_GRADIENT,
                 doc="A function input: a parameter or a captured outside tensor.")


PLACEHOLDER = _make_placeholder_opdef()
