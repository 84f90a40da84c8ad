"""A readable text form of a graph (and of a Program, the passes' view of one).

One line per op, in program order:

    graph simple_computation(a: (2, 2) float32, b: (2, 2) float32):
      a = Placeholder() : (2, 2) float32
      MatMul = MatMul(a, b) {transpose_a=False, transpose_b=False} : (2, 2) float32  # user.py:5
      Add/y = Const() {value=1.0} : () float32  # user.py:6
      ...
      return Identity

Inputs are written as producer names (`Split:1` for an op's second output). Small constants are
shown in full; big ones as `<float32 (100, 100)>`, so printing a model does not print its weights.
"""
from __future__ import annotations

import numpy as np

from ..core.dtypes import DType

MAX_SHOWN_ELEMENTS = 8


def _ref(tensor) -> str:
    name = tensor.op.name
    return name if tensor.value_index == 0 else f"{name}:{tensor.value_index}"


def _value_text(value) -> str:
    if isinstance(value, np.ndarray):
        if value.ndim == 0:
            return repr(value.item())
        if value.size > MAX_SHOWN_ELEMENTS:
            return f"<{value.dtype} {tuple(value.shape)}>"
        text = np.array2string(value, separator=", ", threshold=MAX_SHOWN_ELEMENTS)
        return " ".join(text.split())
    if isinstance(value, DType):
        return value.name
    if isinstance(value, (list, tuple)) and len(value) > MAX_SHOWN_ELEMENTS:
        return f"<{type(value).__name__} of {len(value)}>"
    text = repr(value) if isinstance(value, (str, bytes)) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _attrs_text(op) -> str:
    shown = {k: v for k, v in op.attrs.items() if not (op.type == "Const" and k == "dtype")}
    if op.type == "Placeholder":
        shown = {k: v for k, v in shown.items() if k not in ("dtype", "shape") and v is not None}
    if not shown:
        return ""
    return " {" + ", ".join(f"{k}={_value_text(v)}" for k, v in shown.items()) + "}"


def _spec_text(tensor) -> str:
    return f"{tensor.shape} {tensor.dtype.name}"


def op_line(op, inputs=None) -> str:
    """`name = Type(inputs) {attrs} : shape dtype  # file:line` for one op; `inputs` overrides the
    op's own (a Program prints what its substitutions resolved them to)."""
    inputs = op.inputs if inputs is None else inputs
    line = f"{op.name} = {op.type}({', '.join(_ref(t) for t in inputs)}){_attrs_text(op)}"
    if op.outputs:
        line += " : " + ", ".join(_spec_text(t) for t in op.outputs)
    if op.source and op.type != "Placeholder":  # a Placeholder's line is just the call site
        line += f"  # {op.source[0].rsplit('/', 1)[-1]}:{op.source[1]}"
    return line


def _header(title, inputs) -> str:
    params = ", ".join(f"{_ref(t)}: {_spec_text(t)}" for t in inputs)
    return f"{title}({params}):"


def graph_as_text(graph) -> str:
    """The whole graph as text, every op including Placeholders, then its outputs."""
    lines = [_header(f"graph {getattr(graph, 'name', 'graph')}", graph.inputs)]
    lines += ["  " + op_line(op) for op in graph.get_operations()]
    lines.append("  return " + ", ".join(_ref(t) for t in graph.outputs))
    return "\n".join(lines)


def program_as_text(program) -> str:
    """A Program as text: its remaining ops with inputs as resolved through the substitutions;
    constants that folding created (held by no op list) are listed first, as `[folded]` lines."""
    lines = [_header("program", program.inputs)]
    listed = {id(op) for op in program.ops}
    used = [program.resolve(t) for op in program.ops for t in op.inputs]
    used += [program.resolve(t) for t in program.outputs]
    extra = {}
    for t in used:
        if t.op.type == "Const" and id(t.op) not in listed:
            extra.setdefault(id(t.op), t.op)
    extra = list(extra.values())
    lines += ["  " + op_line(op) + "  [folded]" for op in extra]
    lines += ["  " + op_line(op, [program.resolve(t) for t in op.inputs]) for op in program.ops]
    lines.append("  return " + ", ".join(_ref(program.resolve(t)) for t in program.outputs))
    return "\n".join(lines)
