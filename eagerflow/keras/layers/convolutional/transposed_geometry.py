"""The geometry Keras 3 (on TensorFlow) gives a transposed convolution along one axis, shared by
Conv1D/2D/3DTranspose: its output length, where the result window starts, and the argument checks.

With a dilated kernel of effective size k = (kernel - 1) * dilation + 1 and stride s, an input of length n
gives (n - 1) * s + k + output_padding for "valid" (output_padding defaulting to max(k, s) - k) and, for
"same", n * s without output_padding, else (n - 1) * s + k % 2 + output_padding. The values land as
TensorFlow's gradient of a convolution places them: input i's kernel tap t at position i * s + t * dilation,
less the "same" padding TensorFlow puts before (half of the padding the forward convolution would need).
"""
from __future__ import annotations


def transposed_length(size, kernel, stride, padding, output_padding, dilation):
    if size is None:
        return None
    effective = (kernel - 1) * dilation + 1
    if padding == "VALID":
        extra = max(effective, stride) - effective if output_padding is None else output_padding
        return (size - 1) * stride + effective + extra
    if output_padding is None:
        return size * stride
    return (size - 1) * stride + effective % 2 + output_padding


def window_start(size, kernel, stride, padding, out_length, dilation):
    """Where the output window starts among the placed taps (0 for "valid")."""
    if padding == "VALID":
        return 0
    effective = (kernel - 1) * dilation + 1
    return max(0, (size - 1) * stride + effective - out_length) // 2


def checked_output_padding(output_padding, strides, parse):
    """output_padding parsed per axis (None stays None), each strictly below its stride (Keras' message)."""
    if output_padding is None:
        return None
    parsed = parse(output_padding, "output_padding")
    parsed = (parsed,) if isinstance(parsed, int) else tuple(parsed)
    for axis, (pad, stride) in enumerate(zip(parsed, strides)):
        if pad >= stride:
            raise ValueError(f"`output_padding` must be strictly less than `strides` for all dimensions. At "
                             f"dimension {axis}, `output_padding` is {pad} but `strides` is {stride}. Received: "
                             f"output_padding={parsed}, strides={tuple(strides)}")
    return parsed


def check_strides_and_dilation(strides, dilation_rate):
    if any(d != 1 for d in dilation_rate) and any(s != 1 for s in strides):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={tuple(strides)} and dilation_rate={tuple(dilation_rate)}")
