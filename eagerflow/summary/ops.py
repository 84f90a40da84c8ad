"""tf.summary.scalar / histogram / text / image: one stateful op, `WriteSummary`, for all four.

The op takes the step and the data as inputs and the writer, tag and kind as attributes, and
its kernel turns the data into what TensorBoard's plugin reads (a float32 scalar, [k, 3] float64
histogram buckets, a string tensor, [width, height, png...] strings) and queues the Event. Eagerly
it runs at once; inside tf.function it is a node of the graph (stateful, so no pass drops it) and
writes each time the function runs, with that run's values. Static checks (shape, dtype) raise
when the summary is called, with TensorFlow's class and words, eagerly and while tracing alike;
the kernel repeats them for shapes only known at run time.

Without a default writer, or under a false `record_if`, nothing is recorded and the result is a
constant False, as in TensorFlow.
"""
from __future__ import annotations

import numpy as np

from .._src.core import dtypes as _dt
from .._src.core.convert import convert_to_tensor
from .._src.core.errors import InvalidArgumentError, UnimplementedError
from .._src.core.shape import TensorShape
from .._src.core.tensor import Tensor, wrap_array
from .._src.ops.registry import FILES, NO_GRADIENT, Spec, bind, defop
from . import messages
from .png import encode_png, to_uint8
from .writer import current_condition, evaluate_condition, state

DEFAULT_BUCKET_COUNT = 30
_PLUGINS = {"scalar": "scalars", "histogram": "histograms", "text": "text", "image": "images"}
_NO_STEP = ("No step set. Please specify one either through the `step` argument or through "
            "tf.summary.experimental.set_step()")


def histogram_buckets(data: np.ndarray, bucket_count: int) -> np.ndarray:
    """[bucket_count, 3] rows (left edge, right edge, count), TensorBoard's bucketing: equal widths
    from min to max (the last edge exactly max, the last bucket closed); one value: every edge at
    it and every count in the last bucket; no data: zeros."""
    data = np.asarray(data, np.float64).reshape(-1)
    bucket_count = max(0, int(bucket_count))
    if data.size == 0 or bucket_count == 0:
        return np.zeros((bucket_count, 3), np.float64)
    low, high = data.min(), data.max()
    if low == high:
        counts = np.zeros(bucket_count)
        counts[-1] = data.size
        return np.stack([np.full(bucket_count, high), np.full(bucket_count, high), counts], axis=1)
    width = (high - low) / bucket_count
    index = np.minimum(np.floor((data - low) / width).astype(np.int64), bucket_count - 1)
    counts = np.bincount(index, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(low, high, bucket_count + 1)
    edges[-1] = high
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def _check(kind, shape, dtype, name):
    """TensorFlow's complaints about summary data, for a static or a run-time shape."""
    if dtype is _dt.string and kind in ("scalar", "histogram", "image"):
        target = {"scalar": "float", "histogram": "double", "image": "float"}[kind]
        raise UnimplementedError(None, None, f"Cast string to {target} is not supported")
    if shape.rank is None:
        return
    if kind == "scalar" and shape.rank != 0:
        raise ValueError(f"Expected scalar shape, saw shape: {shape}.")
    if kind == "image":
        if shape.rank != 4:
            raise ValueError(f"Tensor {name} must have rank 4.  Received rank {shape.rank}, shape {shape}")
        if shape[3] is not None and not 1 <= shape[3] <= 4:
            raise InvalidArgumentError(None, None, f"image must have 1, 2, 3, or 4 channels, got {shape[3]}")


def _summary_array(kind, data, buckets, max_outputs):
    if kind == "scalar":
        return np.asarray(data, np.float32)
    if kind == "histogram":
        return histogram_buckets(data, DEFAULT_BUCKET_COUNT if buckets is None else buckets)
    if kind == "text":
        return np.asarray(data, dtype=object)
    images = to_uint8(np.asarray(data))[:max(0, max_outputs)]
    height, width = data.shape[1], data.shape[2]
    return np.array([str(width).encode(), str(height).encode()] + [encode_png(im) for im in images], dtype=object)


def _write_kernel(step, data, writer, tag, kind, buckets, max_outputs, condition, description):
    """Writes one summary now; returns whether it did (a bool scalar)."""
    if not evaluate_condition(condition):
        return np.bool_(False)
    data = np.asarray(data)
    dtype = _dt.string if data.dtype == object or data.dtype.kind in "SU" else _dt.from_numpy(data.dtype)
    _check(kind, TensorShape(data.shape), dtype, "")
    value = messages.summary_value(tag, _summary_array(kind, data, buckets, max_outputs), _PLUGINS[kind],
                                   description or "")
    return np.bool_(writer.write_event(int(step), summary_values=[value]))


def _write_infer(inputs, attrs):
    return [Spec(TensorShape([]), _dt.bool_)]


WriteSummary = defop("WriteSummary", inputs=("step", "tensor"), kernel=_write_kernel, infer=_write_infer,
                     grad=NO_GRADIENT, stateful=True,
                     doc="Writes one summary (scalar, histogram, text or image) to a summary writer when it runs.")
WriteSummary.effects = FILES  # the writer's event file


def _write(kind, name, data, step, description, buckets=None, max_outputs=3):
    writer = state.writer
    condition = current_condition()
    if isinstance(condition, Tensor) and condition.is_symbolic:
        raise TypeError("tf.summary.record_if inside tf.function takes a Python bool, an eager tensor or a "
                        "callable; a tensor computed in the function is not supported")
    if writer is None or (not callable(condition) and not evaluate_condition(condition)):
        return wrap_array(np.bool_(False))
    tensor = convert_to_tensor(data)
    _check(kind, tensor.shape, tensor.dtype, "")
    step = state.step if step is None else step
    if step is None:
        raise ValueError(_NO_STEP)
    step = step if isinstance(step, Tensor) or hasattr(step, "read_value") else convert_to_tensor(step, _dt.int64)
    step = convert_to_tensor(step)  # a tf.Variable step is read when the summary is written
    if not step.dtype.is_integer:
        raise TypeError(f"step must be an integer tensor, got {step.dtype.name}")
    attrs = {"writer": writer, "tag": name, "kind": kind, "buckets": buckets, "max_outputs": max_outputs,
             "condition": condition, "description": description}
    return bind(WriteSummary, [step, tensor], attrs)


def scalar(name, data, step=None, description=None):
    """Writes a scalar (cast to float32) for the scalars dashboard; returns True if written."""
    return _write("scalar", name, data, step, description)


def histogram(name, data, step=None, buckets=None, description=None):
    """Writes `data`'s histogram (`buckets` equal-width buckets, 30 by default)."""
    return _write("histogram", name, data, step, description, buckets=buckets)


def text(name, data, step=None, description=None):
    """Writes a string tensor (Markdown in TensorBoard's text dashboard)."""
    return _write("text", name, data, step, description)


def image(name, data, step=None, max_outputs=3, description=None):
    """Writes up to `max_outputs` images from `data`, shaped [k, height, width, channels] with 1-4
    channels, float in [0, 1] or uint8, as PNG."""
    return _write("image", name, data, step, description, max_outputs=max_outputs)


def should_record_summaries():
    """Whether a summary written here would be recorded: a default writer exists and the
    innermost record_if condition holds."""
    if state.writer is None:
        return wrap_array(np.bool_(False))
    return wrap_array(np.bool_(evaluate_condition(current_condition())))
