"""`model.summary()` in Keras 3's table layout (box drawing, byte sizes): three columns, and a fourth,
"Connected to", for a functional model that is not a single chain (several inputs or branches, a
layer taking several tensors, a layer called twice). The widths are those Keras gives an 80-column
output (what it gets when the output is not a terminal)."""
from __future__ import annotations

import numpy as np

from ..ops.symbolic import SymbolicOp

_WIDTHS = (33, 24, 15)
_WIDTHS_CONNECTED = (21, 19, 12, 19)
_ALIGN_RIGHT = (False, False, True, False)


def _wrap(text, width):
    """Word-wrap a cell as Keras' table does: break at spaces, split words longer than the cell."""
    lines, line = [], ""
    for word in text.split(" "):
        while len(word) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _row(cells, bar, widths):
    wrapped = [_wrap(c, w - 2) for c, w in zip(cells, widths)]
    out = []
    for i in range(max(len(w) for w in wrapped)):
        parts = [w[i] if i < len(w) else "" for w in wrapped]
        texts = [f" {part:>{width - 2}} " if right else f" {part:<{width - 2}} "
                 for part, width, right in zip(parts, widths, _ALIGN_RIGHT)]
        out.append(bar + bar.join(texts) + bar)
    return "\n".join(out)


def _rule(left, mid, right, fill, widths):
    return left + mid.join(fill * w for w in widths) + right


def _is_chain(nodes_by_depth):
    """Keras shows a functional model as a plain stack when each depth has one node taking at most
    one tensor, and no layer is called twice."""
    seen_ops = set()
    for nodes in nodes_by_depth.values():
        if len(nodes) > 1 or (nodes and len(nodes[0].input_tensors) > 1):
            return False
        for node in nodes:
            if id(node.layer) in seen_ops:
                return False
            seen_ops.add(id(node.layer))
    return True


def _connections(op, graph_nodes):
    """"name[node index][tensor index]" of each tensor the op's calls in this graph take, or "-"."""
    parts = []
    for node in getattr(op, "_inbound_nodes", ()):
        if id(node) not in graph_nodes:
            continue
        for tensor in node.input_tensors:
            parent = tensor._keras_history
            parts.append(f"{parent.layer.name}[{parent.layer._inbound_nodes.index(parent)}]"
                         f"[{_index(parent.outputs, tensor)}]")
    return ", ".join(parts) or "-"


def _index(tensors, tensor):
    return next(i for i, t in enumerate(tensors) if t is tensor)


def readable_memory_size(n_bytes):
    for unit in ("B", "KB", "MB", "GB"):
        if n_bytes < 1024 or unit == "GB":
            return f"{n_bytes:.2f} {unit}"
        n_bytes /= 1024.0
    return f"{n_bytes:.2f} GB"


def _shape_text(shape):
    if shape is None:
        return "?"
    if isinstance(shape, list):
        return "[" + ", ".join(_shape_text(s) for s in shape) + "]"
    return "(" + ", ".join(str(d) for d in shape) + ")" if len(shape) != 1 else f"({shape[0]},)"


def _count(weights):
    params = sum(int(np.prod(w.shape.as_list())) for w in weights)
    size = sum(int(np.prod(w.shape.as_list())) * w.dtype.size for w in weights)
    return params, size


def summary_lines(model, layers, nodes_by_depth=None):
    """The table's lines; `nodes_by_depth` (a functional model's graph) decides the "Connected to" column."""
    connected = nodes_by_depth is not None and not _is_chain(nodes_by_depth)
    widths = _WIDTHS_CONNECTED if connected else _WIDTHS
    header = ("Layer (type)", "Output Shape", "Param #") + (("Connected to",) if connected else ())
    graph_nodes = {id(node) for nodes in (nodes_by_depth or {}).values() for node in nodes}
    lines = [f'Model: "{model.name}"',
             _rule("┏", "┳", "┓", "━", widths),
             _row(header, "┃", widths),
             _rule("┡", "╇", "┩", "━", widths)]
    for i, layer in enumerate(layers):
        if i:
            lines.append(_rule("├", "┼", "┤", "─", widths))
        kind = layer.class_name if isinstance(layer, SymbolicOp) else type(layer).__name__  # an op: its Keras class
        cells = (f"{layer.name} ({kind})", _shape_text(layer._last_output_shape), f"{layer.count_params():,}")
        if connected:
            cells += (_connections(layer, graph_nodes),)
        lines.append(_row(cells, "│", widths))
    lines.append(_rule("└", "┴", "┘", "─", widths))
    for label, weights in (("Total", model.weights), ("Trainable", model.trainable_weights),
                           ("Non-trainable", model.non_trainable_weights)):
        n, size = _count(weights)
        lines.append(f" {label} params: {n:,} ({readable_memory_size(size)})")
    return lines
