"""The text of a failed assertion, in TensorFlow's words: what the Assert kernel writes.

Eagerly TensorFlow writes NumPy's text of the values in one of three layouts (the Assert op's
`form` attr): "data" (tf.Assert's "Expected '<condition>' to be true. Summarized data: ..."),
"compare" (the binary asserts: the failing indices and values, then the first `summarize`
elements of x and y) and "elementwise" (assert_positive & co.). Traced, its graph kernel writes
"assertion failed: [piece] [piece] ...", each tensor summarized in nested brackets ("graph").

Its own module because matching these texts (float digits, "..." placement, a missing newline
TensorFlow's source has) is a job apart from deciding whether the assertion holds (checks.py).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.tensor import make_eager


def summarize_limit(summarize) -> int:
    """TensorFlow's summarize: None -> 3, negative -> everything."""
    if summarize is None:
        return 3
    return np.iinfo(np.int64).max if summarize < 0 else int(summarize)


def _flat_list(value: np.ndarray, limit: int) -> list[str]:
    flat = value.reshape(-1)
    items = [str(v) for v in flat[:limit]]
    if len(items) < flat.size:
        items.append("...")
    return items


def _data_message(condition, data, summarize, condition_text=None):
    if condition_text is None:
        condition_text = str(make_eager(condition, _dt.from_numpy(condition.dtype)))
    limit = summarize_limit(summarize)
    parts = []
    for d in data:
        if d.ndim:
            parts.append(", ".join(_flat_list(d, limit)))
        else:
            parts.append(str(d[()]) if limit else "")
    return f"Expected '{condition_text}' to be true. Summarized data: " + "\n".join(parts)


def _compare_message(condition, data, summarize, symbol, message=None):
    x, y, test = data
    lines = [] if message is None else [str(message)]
    lines.append(f"Condition x {symbol} y did not hold.")
    limit = summarize_limit(summarize)
    if limit > 0:
        if x.shape == y.shape and x.ndim:
            # Only when the shapes agree: indices into a broadcast would confuse more than help.
            mask = np.logical_not(test)
            indices = np.argwhere(mask)
            n = min(limit, indices.shape[0])
            lines += [f"Indices of first {n} different values:", str(indices[:n]),
                      "Corresponding x values:", str(x[mask].reshape(-1)[:n]),
                      "Corresponding y values:", str(y[mask].reshape(-1)[:n])]
        for label, v in (("x", x), ("y", y)):
            flat = v.reshape(-1)
            n = min(flat.size, limit)
            lines += [f"First {n} elements of {label}:", str(flat[:n])]
    return "\n".join(lines)


def _elementwise_message(condition, data, summarize, prefix, header, fused=False):
    x, = data
    described = f"x (shape={tuple(x.shape)} dtype={_dt.from_numpy(x.dtype).name}) = "
    values = str(x[()]) if x.ndim == 0 else str(_flat_list(x, summarize_limit(summarize)))
    # NOTE: TensorFlow's assert_non_positive glues the header to "x (...)" without a newline (a
    # missing comma in its source); `fused` keeps its messages identical.
    head = [header + described] if fused else [header, described]
    return "\n".join([prefix] + head + [values])


def _element_text(value) -> str:
    """One element as TensorFlow's kernels print it: floats in their shortest %g form that reads
    back (6, then 9 digits for float32; 15, then 17 for float64), booleans as 1/0, strings raw."""
    if isinstance(value, (bytes, np.bytes_)):
        return bytes(value).decode("utf-8", "backslashreplace")
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, np.floating):
        short, long_ = (6, 9) if value.dtype.itemsize <= 4 else (15, 17)
        text = "%.*g" % (short, value)
        return text if type(value)(float(text)) == value else "%.*g" % (long_, value)
    return str(value)


def summarize_value(value: np.ndarray, limit: int) -> str:
    """A tensor as TensorFlow's graph kernels summarize it: nested brackets without separators
    ("[1 5 7][9 2 0]"), at most `limit` elements, "..." after the last when some are left out."""
    value = np.asarray(value)
    if value.size == 0:
        return ""
    if value.ndim == 0:
        return _element_text(value[()])
    flat, shape, out, seen = value.reshape(-1), value.shape, [], [0]

    def one_dim(dim):
        if seen[0] >= limit:
            return
        if dim == len(shape) - 1:
            for i in range(shape[dim]):
                if seen[0] >= limit:
                    if dim != 0:
                        out.append("...")
                    return
                out.append((" " if i else "") + _element_text(flat[seen[0]]))
                seen[0] += 1
            return
        for _ in range(shape[dim]):
            opened = seen[0] < limit
            if opened:
                out.append("[")
            one_dim(dim + 1)
            if seen[0] < limit or opened:
                out.append("]")

    one_dim(0)
    return "".join(out) + ("..." if flat.size > limit else "")


def _graph_message(condition, data, summarize, pieces):
    """TensorFlow's graph Assert text: each piece (a literal, or the next data tensor) in brackets."""
    limit = np.iinfo(np.int64).max if summarize is not None and summarize < 0 else summarize_limit(summarize)
    tensors = iter(data)
    parts = [p if p is not None else summarize_value(next(tensors), limit) for p in pieces]
    return "assertion failed: " + " ".join(f"[{p}]" for p in parts)


FORMS = {"data": _data_message, "compare": _compare_message, "elementwise": _elementwise_message,
          "graph": _graph_message}
