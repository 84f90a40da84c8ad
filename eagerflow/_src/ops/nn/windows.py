"""What convolution and pooling share: window geometry on NHWC tensors, and turning the public
functions' strides/ksize/padding arguments into op attributes.

Kernels work on windows, never on single pixels: `window_view` views the padded input as
[N, OH, OW, KH, KW, C] with stride tricks (no copy), and every "scatter back into the input"
(input gradients, pooling gradients) is `scatter_windows`, a loop over the KH*KW window offsets,
each a strided slice of the whole batch.

Padding follows TensorFlow exactly: SAME gives ceil(in / stride) outputs and splits the padding
with the extra cell on the bottom/right; VALID gives ceil((in - k_eff + 1) / stride); EXPLICIT
takes the user's [[top, bottom], [left, right]].
"""
from __future__ import annotations

import numpy as np

from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.context import state
from ...core.tensor import Tensor
from ..registry import static_value


# ----------------------------------------------------------------------------------------------
# Geometry: output sizes, padding, window views
# ----------------------------------------------------------------------------------------------


def out_size(size, k, stride, dilation, padding, explicit=(0, 0)):
    """(output size, pad before, pad after) for one spatial dimension, as TensorFlow computes it."""
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + eff - size, 0)
        return out, total // 2, total - total // 2
    before, after = explicit if padding == "EXPLICIT" else (0, 0)
    out = (size + before + after - eff + stride) // stride
    if out < 0:
        raise InvalidArgumentError(None, None, f"Computed output size would be negative: {out} [input_size: "
                                               f"{size}, effective_filter_size: {eff}, stride: {stride}]")
    return out, before, after


def geometry(in_hw, k_hw, attrs):
    """[(out, before, after)] for height and width, from an op's attrs."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    padding = attrs["padding"]
    explicit = attrs.get("explicit_paddings") or (0,) * 8
    return [out_size(in_hw[i], k_hw[i], strides[i + 1], dil[i + 1], padding,
                      (explicit[2 * i + 2], explicit[2 * i + 3])) for i in range(2)]


def pad_spatial(x, geo, value=0):
    (_, t, b), (_, lt, r) = geo
    if not (t or b or lt or r):
        return x
    return np.pad(x, ((0, 0), (t, b), (lt, r), (0, 0)), constant_values=value)


def window_view(xp, geo, k_hw, attrs):
    """View of padded input `xp` as [N, OH, OW, KH, KW, C] (no copy)."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    n, _, _, c = xp.shape
    sn, sh, sw, sc = xp.strides
    shape = (n, geo[0][0], geo[1][0], k_hw[0], k_hw[1], c)
    st = (sn, sh * strides[1], sw * strides[2], sh * dil[1], sw * dil[2], sc)
    if xp.flags.c_contiguous and xp.size:  # a view on its buffer: half as_strided's cost, felt at batch 1
        view = np.ndarray(shape, xp.dtype, buffer=xp, strides=st)
        view.flags.writeable = False
        return view
    return np.lib.stride_tricks.as_strided(xp, shape, st, writeable=False)


def scatter_windows(cols, in_shape, geo, k_hw, attrs):
    """Adjoint of `window_view` followed by cropping: adds each window value [N,OH,OW,KH,KW,C] back
    into the input position it was read from; returns an array of `in_shape`."""
    strides, dil = attrs["strides"], attrs.get("dilations", (1, 1, 1, 1))
    n, h, w, c = in_shape
    (oh, t, b), (ow, lt, r) = geo
    out = np.zeros((n, h + t + b, w + lt + r, c), dtype=cols.dtype)
    for i in range(k_hw[0]):
        r0 = i * dil[1]
        for j in range(k_hw[1]):
            c0 = j * dil[2]
            out[:, r0:r0 + strides[1] * (oh - 1) + 1:strides[1], c0:c0 + strides[2] * (ow - 1) + 1:strides[2], :] \
                += cols[:, :, :, i, j, :]
    return out[:, t:t + h, lt:lt + w, :]


def spatial_infer(in_shape, k_hw, attrs):
    """Output [N, OH, OW] dims for a shape rule (None where unknown)."""
    dims = []
    for i in range(2):
        size, k = in_shape[i + 1], k_hw[i]
        if size is None or k is None:
            dims.append(None)
            continue
        explicit = attrs.get("explicit_paddings") or (0,) * 8
        dims.append(out_size(size, k, attrs["strides"][i + 1], attrs.get("dilations", (1, 1, 1, 1))[i + 1],
                              attrs["padding"], (explicit[2 * i + 2], explicit[2 * i + 3]))[0])
    return [in_shape[0]] + dims


def check_window_fits(in_hw, k_hw, attrs):
    """A graph's shape check of a VALID window op: TensorFlow refuses, while building the graph, a
    dilated window larger than the input (its kernels answer with an empty output)."""
    if attrs["padding"] != "VALID":
        return
    dil = attrs.get("dilations", (1,) * (len(in_hw) + 2))
    for i, (size, k) in enumerate(zip(in_hw, k_hw)):
        if size is not None and k is not None and size < (k - 1) * dil[i + 1] + 1:
            raise InvalidArgumentError(None, None, f"Negative dimension size caused by subtracting "
                                                   f"{(k - 1) * dil[i + 1] + 1} from {size}")


def check_strides(attrs, what="strides"):
    s = attrs[what]
    if s[0] != 1 or s[3] != 1:
        raise UnimplementedError(None, None, "Current implementation does not yet support strides in the batch "
                                             "and depth dimensions.")


def check_positive_strides(attrs):
    """TensorFlow's shape check of a window op: every stride at least 1 (eagerly InvalidArgumentError,
    while tracing the graph's ValueError), before any output size divides by one."""
    bad = [s for s in attrs["strides"] if s <= 0]
    if bad:
        raise InvalidArgumentError(None, None, f"Stride must be > 0, but got {bad[0]}")


def check_positive_ksize(attrs):
    """TensorFlow's run-time check of a pooling window (the graph's shape check lets it through)."""
    ksize = attrs["ksize"]
    if min(ksize) <= 0:
        raise InvalidArgumentError(None, None, "Sliding window ksize must be positive. The specified or inferred "
                                               f"ksize is: {','.join(str(k) for k in ksize)}")


def static_sizes(t, rank=4):
    value = static_value(t)
    return [None] * rank if value is None else [int(d) for d in np.ravel(value)]


# ----------------------------------------------------------------------------------------------
# Attributes from the public functions' arguments
# ----------------------------------------------------------------------------------------------


def four(value, name, n=2):
    """An int or a list of 1, n or n + 2 ints -> the full [1, ..., 1] attribute list."""
    if value is None:
        return [1] * (n + 2)
    if isinstance(value, Tensor):
        value = static_value(value)
    if np.ndim(value) == 0:
        return [1] + [int(value)] * n + [1]
    value = [int(v) for v in value]
    if len(value) == 1:
        return [1] + value * n + [1]
    if len(value) == n:
        return [1] + value + [1]
    if len(value) == n + 2:
        return value
    raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: {name}={value} of length {len(value)}")


_PADDINGS = {"AvgPool": ("SAME", "VALID")}  # other window ops also take "EXPLICIT"


def padding_attrs(padding, op_name=None):
    """The padding attributes of a window op. A string must be one of the op's attribute values exactly
    (TensorFlow passes it to the op as it is: "same" is refused); `op_name` None: any case (the
    callers that were given a Keras-style padding)."""
    if isinstance(padding, str):
        if op_name is not None:
            check_attr_choice(op_name, "padding", padding, _PADDINGS.get(op_name, ("SAME", "VALID", "EXPLICIT")))
        p = padding.upper()
        if p not in ("SAME", "VALID"):
            raise ValueError(f"`padding` must be either 'VALID', 'SAME', or a list of paddings. "
                             f"Received: padding={padding}")
        return {"padding": p}
    pairs = [[int(a), int(b)] for a, b in padding]
    if len(pairs) != 4:
        raise ValueError(f"When padding is a list, it must be of size 4. Received: padding={padding} of size "
                         f"{len(pairs)}")
    if pairs[0] != [0, 0] or pairs[3] != [0, 0]:
        raise ValueError(f"When `padding` is a list it must have 4 [before, after] pairs with zeros for the "
                         f"batch and channel dimensions. Received: padding={padding}")
    return {"padding": "EXPLICIT", "explicit_paddings": [v for p in pairs for v in p]}


def check_attr_choice(op_name, attr, value, allowed):
    """A string attribute outside the op's allowed values, as TensorFlow refuses it: eagerly an
    InvalidArgumentError, while building a graph a ValueError."""
    if value in allowed:
        return
    listed = ", ".join(f'"{a}"' for a in allowed)
    if state.graph is not None:
        raise ValueError(f"Attr '{attr}' of '{op_name}' Op passed string '{value}' not in: {listed}.")
    raise InvalidArgumentError(None, None, f"Value for attr '{attr}' of \"{value}\" is not in the list of allowed "
                                           f"values: {listed} [Op:{op_name}]")


def check_dilations(attrs, graph):
    """TensorFlow's refusal of a dilation below 1, in its eager kernel's or (`graph`) its graph shape
    function's words."""
    bad = [d for d in attrs.get("dilations", ()) if d < 1]
    if bad:
        message = (f"Dilation rate must be >= 1, but got {bad[0]}" if graph
                   else "Dilated rates should be larger than 0.")
        raise InvalidArgumentError(None, None, message)


def check_format(data_format, op_name=None, allowed=("NHWC", "NCHW")):
    """Channels-last only; with `op_name`, a format the op does not know at all is refused as
    TensorFlow refuses the attribute value."""
    if op_name is not None and data_format is not None:
        check_attr_choice(op_name, "data_format", data_format, allowed)
    if data_format not in (None, "NHWC", "NWC", "NDHWC"):
        raise UnimplementedError(None, None, f"eagerflow implements the channels-last layout only; got "
                                             f"data_format={data_format!r}")


_FLOORS = {}  # np.dtype -> its max_pool_floor (finfo/iinfo per call cost a microsecond)


def max_pool_floor(dtype):
    """The value a max-pool window starts from: the dtype's lowest finite value (so a window of only
    -inf or NaN cells gives it, as TensorFlow's CPU kernel does), or the integer minimum."""
    dtype = np.dtype(dtype)
    floor = _FLOORS.get(dtype)
    if floor is None:
        floor = _FLOORS[dtype] = _lowest(dtype)
    return floor


def _lowest(dtype):
    if dtype.kind in "iub":
        return np.iinfo(dtype).min if dtype.kind != "b" else False
    if dtype.kind == "V":  # bfloat16: NumPy before 2 has no finfo for ml_dtypes' types
        import ml_dtypes
        return dtype.type(ml_dtypes.finfo(dtype).min)
    return np.finfo(dtype).min


def nan_as_floor(x):
    """`x` with NaN cells replaced by `max_pool_floor`: max pooling skips NaN instead of spreading it."""
    if np.dtype(x.dtype).kind in "iub":
        return x
    nan = np.isnan(x)
    return np.where(nan, max_pool_floor(x.dtype), x).astype(x.dtype, copy=False) if nan.any() else x
