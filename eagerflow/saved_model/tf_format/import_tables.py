"""TensorFlow lookup tables of a SavedModel (a Keras StringLookup or TextVectorization, a
tf.lookup.StaticHashTable), imported as their contents.

TensorFlow keeps a table behind a resource handle that a `_create_resource` function makes and an
`_initialize` function fills (from constants the object graph stores, or, for a mutable table, from
the checkpoint's table-keys/table-values). Here the contents are read once at load time, without
running either function, and held sorted; a function receiving the table's handle gets this object
in its place, and the lookups on it become ops over two eager constants the table holds: LookupTableFindV2
is VocabularyLookup of them, LookupTableSizeV2 a constant, LookupTableExportV2 the two. A model loaded and
saved again writes the table where the object tree holds it (table_resources.py), read through its handle.

A mutable table (MutableHashTableV2) stays writable: its contents become the two variables eagerflow's
own MutableHashTable keeps (keys sorted, values alongside; ops/lookup/mutable.py), and the loaded
functions read and write them: LookupTableInsertV2, LookupTableRemoveV2, LookupTableFindV2,
LookupTableSizeV2 and LookupTableExportV2 are MutableHashTableInsert, -Remove, -Find, -Size and -Export. A
change one function makes is seen by the next call of any function of the model, as in TensorFlow."""
from __future__ import annotations

import math
import weakref

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.ops.lookup.tables import _sorted_table
from ..._src.ops.registry import OPS
from .tf_values import BadValue, attr_of

TABLE_OPS = frozenset({"LookupTableFindV2", "LookupTableSizeV2", "LookupTableExportV2", "LookupTableInsertV2",
                       "LookupTableRemoveV2"})
WRITES = frozenset({"LookupTableInsertV2", "LookupTableRemoveV2"})
# what the ops on a mutable table are built from (the importer imports their modules first)
MUTABLE_TABLE_OPS = frozenset({"MutableHashTableInsert", "MutableHashTableRemove", "MutableHashTableExport",
                               "MutableHashTableFind", "MutableHashTableSize"})
CREATORS = frozenset({"HashTableV2", "MutableHashTableV2", "MutableHashTableOfTensorsV2"})
MUTABLE_CREATORS = frozenset({"MutableHashTableV2", "MutableHashTableOfTensorsV2"})
INITIALIZERS = frozenset({"LookupTableImportV2", "InitializeTableV2", "InitializeTableFromTextFileV2"})


class ImportedTable:
    """A table's contents: keys sorted ascending, values alongside (each key once)."""

    dtype = _dt.resource

    def __init__(self, keys, values, key_dtype, value_dtype, name):
        keys, values = np.asarray(keys).reshape(-1), np.asarray(values).reshape(-1)
        if keys.shape != values.shape:
            raise BadValue(f"table {name!r} has {keys.size} keys and {values.size} values")
        self.keys, self.values = _sorted_table(keys, values)
        self.key_dtype, self.value_dtype, self.name = key_dtype, value_dtype, name
        self._tensors = None

    def tensors(self):
        """(keys, values) as two eager constants, made once: the loaded functions' lookups capture them,
        so saving the model again finds the table they read (table_resources.py's held_tables)."""
        if self._tensors is None:
            from ..._src.core.convert import convert_to_tensor
            self._tensors = (convert_to_tensor(_as(self.keys, self.key_dtype), dtype=self.key_dtype),
                             convert_to_tensor(_as(self.values, self.value_dtype), dtype=self.value_dtype))
        return self._tensors

    def __repr__(self):
        return f"<imported lookup table {self.name!r}: {self.keys.size} {self.key_dtype.name} keys>"


class ImportedMutableTable(ImportedTable):
    """A MutableHashTableV2's (or MutableHashTableOfTensorsV2's, whose values are rows of `value_shape`)
    contents held in two non-trainable variables the loaded functions change."""

    def __init__(self, keys, values, key_dtype, value_dtype, name, value_shape=()):
        keys, values = np.asarray(keys).reshape(-1), np.asarray(values)
        value_shape = tuple(int(d) for d in value_shape)
        if any(d < 0 for d in value_shape) or values.size != keys.size * math.prod(value_shape):
            raise BadValue(f"table {name!r} has {keys.size} keys and {values.size} values of shape "
                           f"{list(value_shape)}")
        _, first = np.unique(keys, return_index=True)  # a table's keys are distinct; sorted as eagerflow keeps them
        self.keys, self.values = keys[first], values.reshape((keys.size,) + value_shape)[first]
        self.key_dtype, self.value_dtype, self.name = key_dtype, value_dtype, name
        from ..._src.core.shape import TensorShape
        from ..._src.state.variables import Variable
        self._variables = (
            Variable(_as(self.keys, key_dtype), dtype=key_dtype, shape=TensorShape([None]), trainable=False,
                     name=f"{name}_keys"),
            Variable(_as(self.values, value_dtype), dtype=value_dtype, trainable=False, name=f"{name}_values",
                     shape=TensorShape([None, *value_shape])))
        for variable in self._variables:  # a SavedModel finds the table from either (mutable_tables.py)
            variable._mutable_table = weakref.ref(self)

    def export(self):
        """(keys, values) tensors of the table's current contents."""
        from ..._src.ops.lookup.mutable import table_export
        return tuple(table_export(*self._variables))

    def size(self):
        """The number of keys now, an int64 scalar."""
        return np.int64(len(self.export()[0].numpy()))

    def __repr__(self):
        return f"<imported mutable lookup table {self.name!r}: {self.key_dtype.name} -> {self.value_dtype.name}>"


def table_types(fdef):
    """(creating node, key dtype, value dtype) of the table a `_create_resource` function makes."""
    for node in fdef.node_def:
        if node.op in CREATORS:
            try:
                return node, attr_of(node.attr["key_dtype"], "type"), attr_of(node.attr["value_dtype"], "type")
            except (KeyError, BadValue) as err:
                raise BadValue(f"its {node.op} node has no key and value dtypes ({err})") from None
    ops = sorted({n.op for n in fdef.node_def} - {"Const", "Identity", "NoOp"})
    raise BadValue(f"it makes no table eagerflow imports (op types {ops[:6]})")


def initial_contents(fdef, bound_value, key_dtype=None, value_dtype=None):
    """(keys, values) an `_initialize` function imports into its table. `bound_value(i)` is the value
    bound to its i-th argument (a constant or variable of the object graph, an asset's path), None for
    the table. A TextFileInitializer's table reads its file, which the loader has checked is one of the
    SavedModel's assets."""
    from .tf_values import tensor_of
    nodes = {n.name: n for n in fdef.node_def}
    args = {a.name: i for i, a in enumerate(fdef.signature.input_arg)}

    def value(ref, depth=0):
        name = ref.split(":")[0]
        if name in args:
            found = bound_value(args[name])
            if found is None:
                raise BadValue(f"argument {name!r} has no stored value")
            return found
        node = nodes.get(name)
        if node is None or depth > 32:
            raise BadValue(f"input {ref[:60]!r} names nothing")
        if node.op == "Const":
            return tensor_of(node.attr["value"].tensor)
        if node.op == "Identity" and node.input:
            return value(node.input[0], depth + 1)
        raise BadValue(f"the table's contents come from a {node.op} node, which eagerflow does not evaluate")

    for node in fdef.node_def:
        if node.op == "InitializeTableFromTextFileV2":
            data = [r for r in node.input if not r.startswith("^")]
            if len(data) != 2:
                raise BadValue(f"{node.op} node {node.name!r} has {len(data)} inputs")
            return _text_file_contents(node, value(data[1]), key_dtype, value_dtype)
        if node.op in INITIALIZERS:
            data = [r for r in node.input if not r.startswith("^")]
            if len(data) != 3:
                raise BadValue(f"{node.op} node {node.name!r} has {len(data)} inputs")
            return value(data[1]), value(data[2])
    ops = sorted({n.op for n in fdef.node_def} - {"Const", "Identity", "NoOp"})
    raise BadValue(f"it fills the table with none of {sorted(INITIALIZERS)} (op types {ops[:6]})")


def _text_file_contents(node, path, key_dtype, value_dtype):
    """The (keys, values) of InitializeTableFromTextFileV2 on the asset file `path`, as eagerflow's
    TextFileInitializer reads them; a bad file is a BadValue naming the problem."""
    from ..._src.core.errors import OpError
    from ..._src.ops.lookup.text_file import TextFileInitializer
    path = np.asarray(path).reshape(-1)
    if path.size != 1 or not isinstance(path[0], bytes) or key_dtype is None or value_dtype is None:
        raise BadValue(f"{node.op} node {node.name!r} does not read one asset file")
    attrs = {k: attr_of(node.attr[k], "int") for k in ("key_index", "value_index", "vocab_size", "offset")
             if k in node.attr}
    delimiter = node.attr["delimiter"].s if "delimiter" in node.attr else b"\t"
    if "key_index" not in attrs or "value_index" not in attrs:
        raise BadValue(f"{node.op} node {node.name!r} has no key_index or value_index")
    vocab_size = attrs.get("vocab_size", -1)
    try:
        return TextFileInitializer(path[0].decode(), key_dtype, attrs["key_index"], value_dtype, attrs["value_index"],
                                   vocab_size if vocab_size > 0 else None, delimiter,
                                   value_index_offset=attrs.get("offset", 0))._materialize()
    except (OpError, ValueError, TypeError, OSError) as err:
        raise BadValue(f"its text file does not fill the table ({type(err).__name__}: {str(err)[:200]})") from None


def table_op(importer, graph, node, inputs, where):
    """The nodes of a lookup on an ImportedTable, as eagerflow ops; returns (output groups, op)."""
    table = inputs[0] if inputs else None
    if not isinstance(table, ImportedTable) or any(isinstance(t, ImportedTable) for t in inputs[1:]):
        raise importer.fail(where, "a table op whose first input is not a lookup table eagerflow imported")
    if isinstance(table, ImportedMutableTable):
        return _mutable_table_op(importer, graph, node, table, inputs, where)
    if node.op in WRITES:
        raise importer.fail(where, f"writes to the table {table.name!r}, which TensorFlow made immutable "
                                   f"(a {node.op} runs on a MutableHashTable only)")
    if node.op == "LookupTableSizeV2":
        return {"size": [graph.literal(np.array(table.keys.size, np.int64))]}, None
    keys_c, values_c = (_captured(graph, t) for t in table.tensors())
    if node.op == "LookupTableExportV2":
        return {"keys": [keys_c], "values": [values_c]}, None
    if len(inputs) != 3:
        raise importer.fail(where, f"LookupTableFindV2 with {len(inputs)} inputs")
    if inputs[1].dtype is not table.key_dtype or inputs[2].dtype is not table.value_dtype:
        raise importer.fail(where, f"looks up {inputs[1].dtype.name} keys with a {inputs[2].dtype.name} default in "
                                   f"a table of {table.key_dtype.name} -> {table.value_dtype.name}")
    op = importer.add_op(graph, OPS["VocabularyLookup"], [keys_c, values_c, inputs[1], inputs[2]], {}, node.name,
                         where)
    return {"values": list(op.outputs)}, op


def _as(array, dtype):
    if dtype is _dt.string:
        out = np.empty(array.shape, object)
        out[...] = [bytes(x) for x in array.ravel()] if array.size else []
        return out
    return np.asarray(array, dtype=dtype.as_numpy_dtype)


def _captured(graph, tensor):
    """The placeholder of eager `tensor` in `graph`, captured through every enclosing graph."""
    return graph.capture(tensor if graph.outer is None else _captured(graph.outer, tensor))


def _handle(graph, variable):
    """The placeholder of `variable`'s handle in `graph`, captured through every enclosing graph."""
    return graph.capture(variable.handle if graph.outer is None else _handle(graph.outer, variable))


def _mutable_table_op(importer, graph, node, table, inputs, where):
    """A table op on an ImportedMutableTable: the one eagerflow op over the table's two variables that
    does what the node does (ops/lookup/mutable.py), so the control inputs TensorFlow gave the node (the
    write before a read) order it, and saving the model again writes the same TensorFlow op."""
    handles = [_handle(graph, v) for v in table._variables]
    arity = {"LookupTableFindV2": 3, "LookupTableInsertV2": 3, "LookupTableRemoveV2": 2}.get(node.op, 1)
    if len(inputs) != arity:
        raise importer.fail(where, f"{node.op} with {len(inputs)} inputs")
    if arity > 1 and inputs[1].dtype is not table.key_dtype:
        raise importer.fail(where, f"{inputs[1].dtype.name} keys for a table of {table.key_dtype.name} keys")
    if node.op != "LookupTableRemoveV2" and arity == 3 and inputs[2].dtype is not table.value_dtype:
        raise importer.fail(where, f"{inputs[2].dtype.name} values for a table of {table.value_dtype.name} values")
    if node.op in WRITES:
        kind = "MutableHashTableInsert" if node.op == "LookupTableInsertV2" else "MutableHashTableRemove"
        return {}, importer.add_op(graph, OPS[kind], [*handles, *inputs[1:]], {}, node.name, where)
    if node.op == "LookupTableExportV2":
        export = importer.add_op(graph, OPS["MutableHashTableExport"], handles, {}, node.name, where)
        return {"keys": [export.outputs[0]], "values": [export.outputs[1]]}, export
    if node.op == "LookupTableSizeV2":
        size = importer.add_op(graph, OPS["MutableHashTableSize"], handles, {}, node.name, where)
        return {"size": list(size.outputs)}, size
    op = importer.add_op(graph, OPS["MutableHashTableFind"], [*handles, inputs[1], inputs[2]], {}, node.name, where)
    return {"values": list(op.outputs)}, op
