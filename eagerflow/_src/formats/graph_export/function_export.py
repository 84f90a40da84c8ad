"""Traced graphs -> FunctionDefs. A ConcreteFunction becomes one FunctionDef taking its flat
parameters and then the variables it reads (resource arguments the SavedModel binds to its
variables); an eager tensor it closed over is written into it as a Const. A control-flow op's
branches and loop bodies, and a nested tf.function call, become FunctionDefs of their own in the
same library, named by the op's function attributes."""
from __future__ import annotations

from ...core import dtypes as _dt
from .attr_values import ExportError
from .function_def import FunctionBuilder
from .generic_op import export_generic
from .rewrites import const
from .tf_op_signatures import SIGNATURES


class FunctionLibrary:
    """Every FunctionDef of one GraphDef, under names unique within it."""

    def __init__(self):
        self.functions = []
        self._names = set()
        self._calls = {}  # id(ConcreteFunction) -> (function, its name): the functions outlive a save
        self.forward_functions = {}  # a loop kept for a gradient -> its forward function (gradient_export.py)
        self.branch_sides = {}  # an If's branch graph -> "then" or "else" (cond_gradient_export.py)
        self.while_grads = {}  # a first-order WhileGrad -> what its export wrote (gradient_export.py)
        self.history_gradients = {}  # (op, output index) of a loop history's gradient -> its second order
        self.tables = None  # the save's lookup tables (saved_model/tf_format/table_resources.py), once known

    def unique_name(self, base):
        base = "".join(c if c.isalnum() or c in "_.-" else "_" for c in base)
        name, k = f"__inference_{base}", 0
        while name in self._names:
            k += 1
            name = f"__inference_{base}_{k}"
        self._names.add(name)
        return name

    def add(self, builder):
        self.functions.append(builder.function_def())
        return builder.name

    def called_function(self, cf, copy=False):
        """The name of the FunctionDef for a tf.function called inside another (every input an
        argument, captures included, as the call op passes them); `copy`: a FunctionDef of its own even
        when `cf` was written before (a saved custom gradient binds its inputs to one forward function)."""
        known = None if copy else self._calls.get(id(cf))
        if known is None:
            builder = FunctionBuilder(self, self.unique_name(cf.name))
            for ph in cf.graph.inputs:
                handle = None if saved_mutable_table(self, ph) is not None else _handle(ph)
                builder.set_ref(ph, builder.add_arg(ph._op.name, ph.dtype, ph.shape, handle))
            write_body(builder, cf.graph)
            add_outputs(builder, cf.outputs)
            known = (cf, self.add(builder))
            if not copy:
                self._calls[id(cf)] = known
        return known[1]


def _handle(placeholder):
    """(shape, dtype) of the variable a resource placeholder stands for, when the trace knows it."""
    spec = placeholder._op.attrs.get("variable_spec") if placeholder._op.type == "Placeholder" else None
    return (spec[0], spec[1]) if spec else None


def export_concrete_function(library, cf, name=None, bound_tensors=None, output_names=None, tables=None):
    """Writes `cf` into `library`; returns (its FunctionDef name, the objects its trailing
    arguments stand for, in argument order: Variables, and the objects `bound_tensors` maps a
    captured tensor's id to, such as an Asset for its path). `tables.table_for(keys, values)`
    (saved_model/tf_format/table_resources.py) names the static table a lookup of two captured
    constants reads: the lookup then reads that table through a resource argument bound to it;
    `tables.mutable.table_of(variable)` (mutable_tables.py) names the mutable table whose keys or values
    variable a captured handle is: both handles then stand for one argument bound to the table."""
    bound_tensors = bound_tensors or {}
    if tables is not None:
        library.tables = tables
    builder = FunctionBuilder(library, library.unique_name(name or cf.name))
    captured = {id(internal): external for external, internal in cf.graph.captures}
    variables = []
    handles = {}
    captured_constants = []  # Const nodes of captured tensors: left out below when nothing reads them
    lookups, table_only = _table_lookups(cf.graph, captured, tables)
    for ph, spec in zip(cf.graph.inputs, cf.flat_input_signature):
        builder.set_ref(ph, builder.add_arg(spec.name or ph._op.name, ph.dtype, ph.shape, user_name=spec.name))
    for ph in cf.graph.inputs[len(cf.flat_input_signature):]:
        external = captured.get(id(ph))
        value = getattr(external, "_value", None)
        if external is not None and id(external) in bound_tensors:
            variables.append(bound_tensors[id(external)])
            builder.set_ref(ph, builder.add_arg(ph._op.name, ph.dtype, ph.shape, user_name="asset_path"))
        elif ph.dtype is _dt.resource and saved_mutable_table(library, external) is not None:
            table = saved_mutable_table(library, external)
            if id(table) not in handles:
                variables.append(table)
                handles[id(table)] = builder.add_arg("table_handle", _dt.resource, user_name="table_handle")
            builder.set_ref(ph, handles[id(table)])
        elif ph.dtype is _dt.resource and hasattr(value, "assign") and hasattr(value, "_array"):
            variables.append(value)
            builder.set_ref(ph, builder.add_arg(ph._op.name, _dt.resource, handle=(value.shape, value.dtype),
                                                user_name="resource"))
        elif ph._op in table_only:  # read through its table's handle only: no node holds it
            builder.set_ref(ph, "^table-contents-not-written")
        elif external is not None and ph.dtype is not _dt.resource and hasattr(external, "_value"):
            builder.set_ref(ph, const(builder, ph._op.name, external._value, ph.dtype).ref)
            captured_constants.append(builder.nodes[-1]["name"])
        else:
            raise ExportError(f"function {cf.name!r} captures {ph._op.name}, which is neither a variable nor a "
                              f"constant tensor")
    for op, table in lookups.items():
        if id(table) not in handles:
            variables.append(table)
            handles[id(table)] = builder.add_arg("table_handle", _dt.resource, user_name="table_handle")
        builder.table_handles[op] = handles[id(table)]
    for table in nested_tables(library, cf.graph.get_operations()):  # looked up in a branch or loop body
        if id(table) not in handles:
            variables.append(table)
            handles[id(table)] = builder.add_arg("table_handle", _dt.resource, user_name="table_handle")
    builder.table_refs = {key: ref for key, ref in handles.items()}
    write_body(builder, cf.graph)
    add_outputs(builder, cf.outputs, output_names)
    _drop_unread(builder, captured_constants)
    return library.add(builder), variables


def _drop_unread(builder, names):
    """Leaves out the Const nodes `names` that no node or output reads (a table's contents that a branch or
    loop reads through the table's handle only)."""
    read = {ref.lstrip("^").split(":")[0] for node in builder.nodes for ref in node["input"]}
    read |= {ref.split(":")[0] for ref in builder.ret.values()}
    unread = set(names) - read
    if unread:
        builder.nodes = [n for n in builder.nodes if n["name"] not in unread]


def eager_source(tensor):
    """The eager tensor a graph tensor stands for when it is a capture: followed out through the
    placeholders of enclosing graphs (a branch's, a called function's), else None."""
    for _ in range(64):
        op = getattr(tensor, "_op", None)
        if op is None:
            return tensor
        if op.type != "Placeholder":
            return None
        tensor = next((e for e, i in getattr(op.graph, "captures", ()) if i is tensor), None)
        if tensor is None:
            return None
    return None


def saved_mutable_table(library, handle):
    """The SavedMutableTable (saved_model/tf_format/mutable_tables.py) whose variable `handle` (a
    resource tensor of any graph of the save) reads, else None."""
    mutable = getattr(library.tables, "mutable", None)
    if mutable is None or handle.dtype is not _dt.resource:
        return None
    source = eager_source(handle)
    return mutable.table_of(getattr(source, "_value", None)) if source is not None else None


def static_table_of(library, op):
    """The static table (table_resources.py's SavedTable) a VocabularyLookup of any graph of the save
    reads: its keys and values captures of a table's two eager constants; else None."""
    if library.tables is None or op.type != "VocabularyLookup":
        return None
    keys, values = (eager_source(t) for t in op.inputs[:2])
    return library.tables.table_for(keys, values) if keys is not None and values is not None else None


def _sub_graph_operations(op):
    """The operations of each graph `op` runs: an If's branches, a While's condition and body."""
    kinds = {"If": ("then_branch", "else_branch"), "StatelessIf": ("then_branch", "else_branch"),
             "While": ("cond", "body"), "StatelessWhile": ("cond", "body")}.get(op.type, ())
    return [op.attrs[k].get_operations() for k in kinds if op.attrs.get(k) is not None]


def nested_tables(library, operations, depth=0):
    """The static tables the lookups inside the sub-graphs of `operations` read (at any depth), in the
    order met: each sub-graph takes their handles as extra arguments, as TensorFlow passes a captured
    table handle into a branch."""
    found = {}
    if library.tables is None or depth > 32:
        return []
    for op in operations:
        for sub in _sub_graph_operations(op):
            for inner in sub:
                table = static_table_of(library, inner)
                if table is not None:
                    found.setdefault(id(table), table)
            for table in nested_tables(library, sub, depth + 1):
                found.setdefault(id(table), table)
    return list(found.values())


def _table_lookups(graph, captured, tables):
    """({VocabularyLookup op: its table} for the lookups of two captured constants that `tables` knows,
    the set of capture placeholders nothing but those lookups reads)."""
    if tables is None:
        return {}, set()
    lookups = {}
    for op in graph.get_operations():
        if op.type == "VocabularyLookup":
            keys, values = (t._op for t in op.inputs[:2])
            if keys.type == "Placeholder" and values.type == "Placeholder":
                table = tables.table_for(captured.get(id(op.inputs[0])), captured.get(id(op.inputs[1])))
                if table is not None:
                    lookups[op] = table
    if not lookups:
        return lookups, set()
    readers = {}
    for op in graph.get_operations():
        for t in op.inputs:
            readers.setdefault(t._op, set()).add(op)
    read_by_tables = {t._op for op in lookups for t in op.inputs[:2]}
    only = {ph for ph in read_by_tables if readers.get(ph, set()) <= set(lookups) and not _is_output(graph, ph)}
    return lookups, only


def _is_output(graph, op):
    return any(t._op is op for t in getattr(graph, "outputs", []) or [])


def add_outputs(builder, outputs, names=None):
    for i, t in enumerate(outputs):
        builder.add_output(names[i] if names else f"output_{i}", builder.ref(t), t.dtype)


def write_body(builder, graph, operations=None):
    """Every op of `graph` (its placeholders already bound to references), in creation order; or
    only `operations` (a branch's live ops: a gradient branch's dead reads of values its forward
    does not keep cannot be written)."""
    from .op_rules import RULES
    from .gradient_export import export_second_order
    node_of = {}
    last_stateful = None  # see below
    second_orders = getattr(graph, "loop_second_orders", {})  # control_flow/loop_history.py
    left_out = {op: first for first, (_, _, built) in second_orders.items() for op in built}
    for op in graph.get_operations() if operations is None else operations:
        first = left_out.get(op)
        if first is not None:  # an op of a loop gradient's gradient: one SymbolicGradient for all of them
            if second_orders.get(first) is not None:
                export_second_order(builder, first, second_orders[first])
                second_orders = {**second_orders, first: None}
            continue
        if op.type == "Placeholder":
            try:
                builder.ref(op.outputs[0])
            except ExportError:
                raise ExportError(f"placeholder {op.name} of graph {graph.name!r} is not an input") from None
            continue
        before = len(builder.nodes)
        RULES.get(op.type, export_generic)(builder, op)
        if len(builder.nodes) == before:
            continue  # an op that became references only
        # eagerflow runs a graph's ops in the order they were traced; TensorFlow runs a function's
        # nodes in any order their edges allow. Each stateful node waits for the one before it, so
        # an assignment and a later read of the same variable keep their order.
        for written in builder.nodes[before:]:
            if SIGNATURES[written["op"]][3]:
                if last_stateful is not None:
                    written["input"].append("^" + last_stateful)
                last_stateful = written["name"]
        node = builder.nodes[-1]
        node_of[op] = node["name"]
        for c in op.control_inputs:
            if c in node_of:
                node["input"].append("^" + node_of[c])
        if SIGNATURES[node["op"]][3] and node["name"] not in builder.control:
            builder.control.append(node["name"])
