"""TF op type -> ONNX nodes: one small converter per op type, in one table.

A converter gets the builder (`export.py`: names, constants, `add(op_type, inputs, **attrs)`) and
the Operation, and returns the ONNX names of the op's outputs in order. Layout: TensorFlow's convs
and pools are NHWC, ONNX's NCHW, so those ops are wrapped in Transposes (ONNX Runtime folds the
ones on constant weights). TF's 'SAME' padding puts the odd pixel at the end: ONNX's SAME_UPPER.

The long-term plan puts each op's ONNX mapping next to its `defop` in `eagerflow/_src/ops/` (as the JAX
lowering is); this table is where they live until then, so moving them is mechanical.
"""
from __future__ import annotations

import numpy as np

NHWC_TO_NCHW = [0, 3, 1, 2]
NCHW_TO_NHWC = [0, 2, 3, 1]
HWIO_TO_OIHW = [3, 2, 0, 1]


def _unary(onnx_type):
    def convert(b, op):
        return [b.add(onnx_type, [b.name(op.inputs[0])])]
    return convert


def _binary(onnx_type):
    def convert(b, op):
        return [b.add(onnx_type, [b.name(op.inputs[0]), b.name(op.inputs[1])])]
    return convert


def _identity(b, op):
    return [b.add("Identity", [b.name(t)]) for t in op.inputs[:len(op.outputs)]]


def _matmul(b, op, a_attr="transpose_a", b_attr="transpose_b"):
    x, y = b.name(op.inputs[0]), b.name(op.inputs[1])
    if op.attrs.get(a_attr):
        x = b.add("Transpose", [x], perm=_swap_last(op.inputs[0]))
    if op.attrs.get(b_attr):
        y = b.add("Transpose", [y], perm=_swap_last(op.inputs[1]))
    return [b.add("MatMul", [x, y])]


def _batch_matmul(b, op):
    return _matmul(b, op, "adj_x", "adj_y")


def _swap_last(tensor):
    rank = tensor.shape.rank
    if rank is None:
        raise ValueError(f"cannot export {tensor.name}: a transpose of a tensor of unknown rank")
    return list(range(rank - 2)) + [rank - 1, rank - 2]


def _const_value(op, index):
    """The compile-time value of input `index` (a Const), for attributes ONNX wants as constants."""
    producer = op.inputs[index].op
    if producer.type != "Const":
        raise ValueError(f"cannot export {op.type} op {op.name!r}: its input {index} must be a constant, "
                         f"not the output of {producer.type} {producer.name!r}")
    return np.asarray(producer.attrs["value"])


def _int64(b, tensor):
    """A shape/axes tensor as int64, the type ONNX requires for them."""
    if tensor.dtype.name == "int64":
        return b.name(tensor)
    return b.add("Cast", [b.name(tensor)], to=b.onnx_type(np.dtype(np.int64)))


def _relu6(b, op):
    return [b.add("Clip", [b.name(op.inputs[0]), b.scalar(0, op.inputs[0]), b.scalar(6, op.inputs[0])])]


def _leaky_relu(b, op):
    return [b.add("LeakyRelu", [b.name(op.inputs[0])], alpha=float(op.attrs.get("alpha", 0.2)))]


def _softmax(onnx_type):
    def convert(b, op):
        return [b.add(onnx_type, [b.name(op.inputs[0])], axis=-1)]
    return convert


def _square(b, op):
    x = b.name(op.inputs[0])
    return [b.add("Mul", [x, x])]


def _rsqrt(b, op):
    return [b.add("Reciprocal", [b.add("Sqrt", [b.name(op.inputs[0])])])]


def _bias_add(b, op):
    if op.attrs.get("data_format", "NHWC") not in ("NHWC", b"NHWC"):
        raise ValueError(f"cannot export BiasAdd {op.name!r}: only data_format NHWC is mapped")
    return [b.add("Add", [b.name(op.inputs[0]), b.name(op.inputs[1])])]


def _cast(b, op):
    return [b.add("Cast", [b.name(op.inputs[0])], to=b.onnx_type(op.outputs[0].dtype.np_dtype))]


def _shape(b, op):
    shape = b.add("Shape", [b.name(op.inputs[0])])
    return [b.add("Cast", [shape], to=b.onnx_type(op.outputs[0].dtype.np_dtype))]


def _reshape(b, op):
    return [b.add("Reshape", [b.name(op.inputs[0]), _int64(b, op.inputs[1])])]


def _fill(b, op):
    return [b.add("Expand", [b.name(op.inputs[1]), _int64(b, op.inputs[0])])]


def _range(b, op):
    """TensorFlow's Range (start, limit, delta: scalars of the output's dtype) is ONNX's Range."""
    to = b.onnx_type(op.outputs[0].dtype.np_dtype)
    return [b.add("Range", [b.add("Cast", [b.name(t)], to=to) for t in op.inputs[:3]])]


def _reduce(onnx_type):
    def convert(b, op):
        keep = int(bool(op.attrs.get("keep_dims", False)))
        axes = _int64(b, op.inputs[1])
        axes = b.add("Reshape", [axes, b.constant(np.array([-1], np.int64))])  # a scalar axis -> [axis]
        return [b.add(onnx_type, [b.name(op.inputs[0]), axes], keepdims=keep)]
    return convert


def _concat(b, op):
    axis = int(_const_value(op, len(op.inputs) - 1))
    return [b.add("Concat", [b.name(t) for t in op.inputs[:-1]], axis=axis)]


def _pack(b, op):
    axis = int(op.attrs.get("axis", 0))
    axes = b.constant(np.array([axis], np.int64))
    return [b.add("Concat", [b.add("Unsqueeze", [b.name(t), axes]) for t in op.inputs], axis=axis)]


def _transpose(b, op):
    perm = [int(p) for p in _const_value(op, 1)]
    return [b.add("Transpose", [b.name(op.inputs[0])], perm=perm)]


def _squeeze(b, op):
    dims = op.attrs.get("squeeze_dims") or op.attrs.get("axis") or ()
    inputs = [b.name(op.inputs[0])]
    if dims:
        inputs.append(b.constant(np.array(list(dims), np.int64)))
    return [b.add("Squeeze", inputs)]


def _expand_dims(b, op):
    axes = b.add("Reshape", [_int64(b, op.inputs[1]), b.constant(np.array([-1], np.int64))])
    return [b.add("Unsqueeze", [b.name(op.inputs[0]), axes])]


def _gather(b, op):
    if op.attrs.get("batch_dims", 0):
        raise ValueError(f"cannot export GatherV2 {op.name!r}: batch_dims is not mapped")
    axis = int(_const_value(op, 2))
    return [b.add("Gather", [b.name(op.inputs[0]), b.name(op.inputs[1])], axis=axis)]


def _select(b, op):
    return [b.add("Where", [b.name(t) for t in op.inputs])]


def _strided_slice(b, op):
    """begin/end/strides with begin/end/shrink masks: `x[1:3, 0]` (constants) and `x[t]` in a loop
    (begin and end computed at run time, the masks still applied per axis)."""
    for mask in ("ellipsis_mask", "new_axis_mask"):
        if op.attrs.get(mask):
            raise ValueError(f"cannot export StridedSlice {op.name!r}: {mask} is not mapped")
    if any(op.inputs[i].op.type != "Const" for i in (1, 2)):
        return _strided_slice_dynamic(b, op)
    begin, end, strides = (_const_value(op, i).astype(np.int64) for i in (1, 2, 3))
    big = np.iinfo(np.int64).max
    starts, ends = begin.copy(), end.copy()
    shrink = []
    for axis in range(len(begin)):
        if op.attrs.get("shrink_axis_mask", 0) >> axis & 1:
            ends[axis] = begin[axis] + 1 if begin[axis] != -1 else big
            shrink.append(axis)
            continue
        if op.attrs.get("begin_mask", 0) >> axis & 1:
            starts[axis] = 0 if strides[axis] > 0 else big
        if op.attrs.get("end_mask", 0) >> axis & 1:
            ends[axis] = big if strides[axis] > 0 else -big
    out = b.add("Slice", [b.name(op.inputs[0]), b.constant(starts), b.constant(ends),
                          b.constant(np.arange(len(begin), dtype=np.int64)), b.constant(strides)])
    if shrink:
        out = b.add("Squeeze", [out, b.constant(np.array(shrink, np.int64))])
    return [out]


def _strided_slice_dynamic(b, op):
    """Begin/end known at run time (constant strides): the masks pick, axis by axis, between the
    run-time value and the value the mask stands for (Where over constant per-axis choices)."""
    strides = _const_value(op, 3).astype(np.int64)
    rank = len(strides)
    big = np.iinfo(np.int64).max
    bits = {m: [bool(op.attrs.get(m, 0) >> a & 1) for a in range(rank)]
            for m in ("begin_mask", "end_mask", "shrink_axis_mask")}
    begin, end = (b.add("Cast", [b.name(op.inputs[i])], to=b.onnx_type(np.int64)) for i in (1, 2))
    starts = b.add("Where", [b.constant(np.array(bits["begin_mask"])),
                             b.constant(np.where(strides > 0, 0, big)), begin])
    after_begin = b.add("Where", [b.add("Equal", [begin, b.constant(np.full(rank, -1, np.int64))]),
                                  b.constant(np.full(rank, big)), b.add("Add", [begin, b.constant(np.ones(rank, np.int64))])])
    ends = b.add("Where", [b.constant(np.array(bits["end_mask"])),
                           b.constant(np.where(strides > 0, big, -big)), end])
    ends = b.add("Where", [b.constant(np.array(bits["shrink_axis_mask"])), after_begin, ends])
    out = b.add("Slice", [b.name(op.inputs[0]), starts, ends, b.constant(np.arange(rank, dtype=np.int64)),
                          b.constant(strides)])
    shrink = [a for a in range(rank) if bits["shrink_axis_mask"][a]]
    if shrink:
        out = b.add("Squeeze", [out, b.constant(np.array(shrink, np.int64))])
    return [out]


def _zeros_like(b, op):
    x = op.inputs[0]
    zero = b.onnx.numpy_helper.from_array(np.zeros([1], x.dtype.np_dtype))
    return [b.add("ConstantOfShape", [b.add("Shape", [b.name(x)])], value=zero)]


def _split(b, op):
    """Split(axis, value) into `num_split` equal parts."""
    n = int(op.attrs["num_split"])
    axis = int(_const_value(op, 0))
    return b.add_multi("Split", [b.name(op.inputs[1])], n, axis=axis, num_outputs=n)


def _window(op, what):
    if op.attrs.get("data_format", "NHWC") not in ("NHWC", b"NHWC"):
        raise ValueError(f"cannot export {op.type} {op.name!r}: only data_format NHWC is mapped")
    padding = op.attrs.get("padding")
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"cannot export {op.type} {op.name!r}: padding {padding!r} is not mapped")
    strides = [int(s) for s in list(op.attrs.get("strides", [1, 1, 1, 1]))[1:3]]
    attrs = {"strides": strides, "auto_pad": "VALID"}
    if what == "pool":
        kernel, dilations = [int(k) for k in list(op.attrs["ksize"])[1:3]], [1, 1]
        attrs["kernel_shape"] = kernel
    else:
        kernel = op.inputs[1].shape.as_list()[:2] if op.inputs[1].shape.rank == 4 else [None, None]
        dilations = [int(d) for d in list(op.attrs.get("dilations", [1, 1, 1, 1]))[1:3]]
        attrs["dilations"] = dilations
    if padding == "SAME":
        attrs.update(_same_padding(op, kernel, strides, dilations))
    return attrs


def _same_padding(op, kernel, strides, dilations):
    """TF's SAME: output ceil(in / stride), the odd pixel of padding at the end. Explicit pads when
    the spatial sizes are static (ONNX Runtime refuses auto_pad with dilations), else SAME_UPPER."""
    spatial = op.inputs[0].shape.as_list()[1:3] if op.inputs[0].shape.rank == 4 else [None, None]
    if None in spatial or None in kernel:
        if dilations != [1, 1]:
            raise ValueError(f"cannot export {op.type} {op.name!r}: SAME padding with dilations needs static "
                             "spatial sizes and kernel sizes")
        return {"auto_pad": "SAME_UPPER"}
    before, after = [], []
    for size, k, s, d in zip(spatial, kernel, strides, dilations):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        before.append(total // 2)
        after.append(total - total // 2)
    return {"auto_pad": "NOTSET", "pads": before + after}


def _conv2d(b, op):
    attrs = _window(op, "conv")
    x = b.add("Transpose", [b.name(op.inputs[0])], perm=NHWC_TO_NCHW)
    w = b.add("Transpose", [b.name(op.inputs[1])], perm=HWIO_TO_OIHW)
    return [b.add("Transpose", [b.add("Conv", [x, w], **attrs)], perm=NCHW_TO_NHWC)]


def _pool(onnx_type):
    def convert(b, op):
        attrs = _window(op, "pool")
        x = b.add("Transpose", [b.name(op.inputs[0])], perm=NHWC_TO_NCHW)
        return [b.add("Transpose", [b.add(onnx_type, [x], **attrs)], perm=NCHW_TO_NHWC)]
    return convert


CONVERTERS = {
    "Identity": _identity, "StopGradient": _identity,
    "AddV2": _binary("Add"), "Add": _binary("Add"), "Sub": _binary("Sub"), "Mul": _binary("Mul"),
    "RealDiv": _binary("Div"), "Maximum": _binary("Max"), "Minimum": _binary("Min"), "Pow": _binary("Pow"),
    "Greater": _binary("Greater"), "GreaterEqual": _binary("GreaterOrEqual"), "Less": _binary("Less"),
    "LessEqual": _binary("LessOrEqual"), "Equal": _binary("Equal"),
    "LogicalAnd": _binary("And"), "LogicalOr": _binary("Or"), "LogicalNot": _unary("Not"),
    "Neg": _unary("Neg"), "Abs": _unary("Abs"), "Exp": _unary("Exp"), "Log": _unary("Log"),
    "Sqrt": _unary("Sqrt"), "Rsqrt": _rsqrt, "Square": _square, "Reciprocal": _unary("Reciprocal"),
    "Tanh": _unary("Tanh"), "Sigmoid": _unary("Sigmoid"), "Relu": _unary("Relu"), "Relu6": _relu6,
    "Elu": _unary("Elu"), "Selu": _unary("Selu"), "Softplus": _unary("Softplus"), "LeakyRelu": _leaky_relu,
    "Softmax": _softmax("Softmax"), "LogSoftmax": _softmax("LogSoftmax"),
    "MatMul": _matmul, "BatchMatMulV2": _batch_matmul, "BiasAdd": _bias_add,
    "Cast": _cast, "Shape": _shape, "Reshape": _reshape, "Fill": _fill, "Range": _range,
    "Sum": _reduce("ReduceSum"), "Mean": _reduce("ReduceMean"), "Max": _reduce("ReduceMax"),
    "Min": _reduce("ReduceMin"), "Prod": _reduce("ReduceProd"),
    "ConcatV2": _concat, "Pack": _pack, "Transpose": _transpose, "Squeeze": _squeeze,
    "ExpandDims": _expand_dims, "SelectV2": _select, "GatherV2": _gather, "StridedSlice": _strided_slice,
    "ZerosLike": _zeros_like, "Split": _split,
    "Conv2D": _conv2d, "MaxPool": _pool("MaxPool"), "AvgPool": _pool("AveragePool"),
}


def _register_control_flow():
    from .control_flow import convert_if, convert_while
    from .lists import CONVERTERS as lists
    CONVERTERS.update({"If": convert_if, "StatelessIf": convert_if,
                       "While": convert_while, "StatelessWhile": convert_while})
    CONVERTERS.update(lists)


_register_control_flow()
