"""The export of an op whose eagerflow type is a TensorFlow op type with the same inputs: its
inputs are split over the OpDef's input arguments, the type attributes (`T`, `Tidx`, `N`, `Tout`,
...) are read off the input and output dtypes, and the op's own attributes are converted by the
types TensorFlow declares for them. An attribute TensorFlow requires that the op does not carry,
or one the op carries that TensorFlow does not know, is an ExportError naming both."""
from __future__ import annotations

from .attr_values import ExportError, attr_value
from .tf_op_signatures import SIGNATURES

# eagerflow-only attributes that do not change what the op computes.
_BOOKKEEPING = frozenset({"variable_spec", "_custom", "tensor_name"})  # tensor_name: words of a message


def split_args(args, count, attrs, op_type, what):
    """How many of `count` tensors each argument takes: one for a single tensor, the rest for the
    one variadic argument (or an equal share for several with the same number attribute)."""
    variadic = [a for a in args if a[1] == "list" or a[3]]
    fixed = len(args) - len(variadic)
    if not variadic:
        if count != fixed:
            raise ExportError(f"{op_type} has {count} {what}, TensorFlow's op {fixed}")
        return [1] * len(args)
    rest = count - fixed

    def known(a):  # a size the caller gave: a number attribute, or a list(type) attribute's length
        if a[3] and isinstance(attrs.get(a[3]), int):
            return attrs[a[3]]
        if a[1] == "list" and isinstance(attrs.get(a[2]), (list, tuple)):
            return len(attrs[a[2]])
        return None

    open_args = [a for a in variadic if known(a) is None]
    share = rest - sum(known(a) or 0 for a in variadic)
    if rest < 0 or (open_args and share % len(open_args)) or (not open_args and share):
        raise ExportError(f"{op_type}'s {count} {what} do not fit TensorFlow's arguments")
    each = share // len(open_args) if open_args else 0
    return [(each if known(a) is None else known(a)) if (a[1] == "list" or a[3]) else 1 for a in args]


def _type_attrs(args, sizes, tensors, attrs):
    """Fills `attrs` (name -> Python value) with the type and number attributes `tensors` give."""
    position = 0
    for arg, size in zip(args, sizes):
        group = tensors[position:position + size]
        position += size
        name, kind, ref, number = arg
        if kind == "list":
            attrs.setdefault(ref, [t.dtype for t in group])
        elif kind == "attr" and group:
            attrs.setdefault(ref, group[0].dtype)
        if number:
            attrs.setdefault(number, size)


def output_refs(node_name, out_args, sizes):
    """The reference of each flat output: `node:arg:index`."""
    refs = []
    for arg, size in zip(out_args, sizes):
        refs.extend(f"{node_name}:{arg[0]}:{i}" for i in range(size))
    return refs


def emit(builder, op, tf_type, inputs, attrs, outputs, base=None, stateful=None):
    """Writes one node of TensorFlow type `tf_type` for eagerflow tensors `inputs` -> `outputs`
    (attrs: Python values keyed by TensorFlow's attribute names); registers the outputs' references
    and returns the node's name."""
    ins, outs, attr_defs, tf_stateful = SIGNATURES[tf_type]
    attrs = dict(attrs)
    in_sizes = split_args(ins, len(inputs), attrs, tf_type, "inputs")
    _type_attrs(ins, in_sizes, inputs, attrs)
    out_sizes = split_args(outs, len(outputs), attrs, tf_type, "outputs")
    _type_attrs(outs, out_sizes, outputs, attrs)
    types = {name: attr_type for name, attr_type, _ in attr_defs}
    unknown = sorted(k for k in attrs if k not in types)
    if unknown:
        raise ExportError(f"op {op.name!r} ({op.type}) has attributes {unknown} that TensorFlow's {tf_type} does "
                          f"not take")
    missing = [name for name, _, has_default in attr_defs if not has_default and name not in attrs]
    if missing:
        raise ExportError(f"op {op.name!r} ({op.type}) lacks attributes {missing} that TensorFlow's {tf_type} "
                          f"requires")
    encoded = {k: attr_value(types[k], v) for k, v in attrs.items()}
    refs = [builder.ref(t) for t in inputs]
    name = builder.add_node(base or op.name, tf_type, refs, encoded,
                            stateful=tf_stateful if stateful is None else stateful)
    for tensor, ref in zip(outputs, output_refs(name, outs, out_sizes)):
        builder.set_ref(tensor, ref)
    return name


def export_generic(builder, op):
    """An op exported as the TensorFlow op of the same type."""
    from .coverage import NOT_EXPORTED
    if op.type in NOT_EXPORTED:
        raise ExportError(f"op {op.name!r} has type {op.type}, which does not export: {NOT_EXPORTED[op.type]}")
    if op.type not in SIGNATURES:
        raise ExportError(f"op {op.name!r} has type {op.type}, which TensorFlow does not define")
    attrs = {k: v for k, v in op.attrs.items() if k not in _BOOKKEEPING}
    return emit(builder, op, op.type, list(op.inputs), attrs, list(op.outputs))
