"""`model.summary()` in Keras 3's table layout (box drawing, three columns, byte sizes)."""
from __future__ import annotations

import numpy as np

from ..ops.symbolic import SymbolicOp

_WIDTHS = (33, 24, 15)


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


def _row(cells, bar):
    wrapped = [_wrap(c, w - 2) for c, w in zip(cells, _WIDTHS)]
    out = []
    for i in range(max(len(w) for w in wrapped)):
        parts = [w[i] if i < len(w) else "" for w in wrapped]
        texts = [f" {parts[0]:<{_WIDTHS[0] - 2}} ", f" {parts[1]:<{_WIDTHS[1] - 2}} ",
                 f" {parts[2]:>{_WIDTHS[2] - 2}} "]
        out.append(bar + bar.join(texts) + bar)
    return "\n".join(out)


def _rule(left, mid, right, fill):
    return left + mid.join(fill * w for w in _WIDTHS) + right


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


def summary_lines(model, layers):
    lines = [f'Model: "{model.name}"',
             _rule("┏", "┳", "┓", "━"),
             _row(("Layer (type)", "Output Shape", "Param #"), "┃"),
             _rule("┡", "╇", "┩", "━")]
    for i, layer in enumerate(layers):
        if i:
            lines.append(_rule("├", "┼", "┤", "─"))
        kind = layer.class_name if isinstance(layer, SymbolicOp) else type(layer).__name__  # an op: its Keras class
        lines.append(_row((f"{layer.name} ({kind})", _shape_text(layer._last_output_shape),
                           f"{layer.count_params():,}"), "│"))
    lines.append(_rule("└", "┴", "┘", "─"))
    for label, weights in (("Total", model.weights), ("Trainable", model.trainable_weights),
                           ("Non-trainable", model.non_trainable_weights)):
        n, size = _count(weights)
        lines.append(f" {label} params: {n:,} ({readable_memory_size(size)})")
    return lines
