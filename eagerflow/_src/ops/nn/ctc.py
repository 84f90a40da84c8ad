"""`tf.nn.ctc_loss` and `tf.nn.ctc_unique_labels`: two ops over the one NumPy forward-backward of
ops/nn/ctc_core.py, each returning (loss, gradient) as TensorFlow's CTC ops do, the gradient rule
scaling the second output by the incoming loss gradient.

  - CTCLossDense: TensorFlow's dense path (labels padded, lengths given, blank = class 0), the
    one Keras' CTC loss runs. TensorFlow builds it from ordinary ops; here it is one op.
  - CTCLoss: TensorFlow's op for SparseTensor labels (blank = last class). A label its logits
    cannot hold is TensorFlow's InvalidArgumentError here, where the dense path gives a large loss.
Other blank indices are rotated to where each op wants the blank, as TensorFlow does.
"""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.context import state
from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from .. import shape_rules as R
from .ctc_core import ctc_loss_and_gradient, required_time
from ..array.joining import concat
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..validation import InputTypeError

_INDEX_TYPES = (_dt.int32, _dt.int64)
_LABEL_TYPES = (_dt.uint8, _dt.int8, _dt.int32, _dt.int64)  # what TensorFlow's one_hot of the labels takes


def _loss_and_gradient_specs(op_name, logits, lengths):
    R.check_dtype_in(op_name, logits.dtype, (_dt.float32, _dt.float64))
    shape = logits.shape
    if shape.rank is not None and shape.rank != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {shape.rank} for '{{{{node {op_name}}}}}'")
    batch = shape[1] if shape.rank == 3 else None
    for length in lengths:
        R.check_dtype_in(op_name, length.dtype, _INDEX_TYPES)
    return [Spec(TensorShape([batch]), logits.dtype), Spec(shape, logits.dtype)]


def _scaled_gradient(op, g_loss, g_gradient):
    """d loss / d logits is the op's second output; the second output is not differentiated again."""
    if g_loss is None:
        return (None,) * len(op.inputs)
    return (_array.reshape(g_loss, [1, -1, 1]) * op.outputs[1],) + (None,) * (len(op.inputs) - 1)


def _dense_kernel(logits, labels, label_length, logit_length):
    loss, gradient = ctc_loss_and_gradient(logits, labels, label_length, logit_length)
    return loss.astype(logits.dtype), gradient.astype(logits.dtype)


def _dense_infer(inputs, attrs):
    logits, labels, label_length, logit_length = inputs
    R.check_dtype_in("CTCLossDense", labels.dtype, _LABEL_TYPES, "labels")
    return _loss_and_gradient_specs("CTCLossDense", logits, (label_length, logit_length))


CTCLossDense = defop(
    "CTCLossDense", inputs=("logits", "labels", "label_length", "logit_length"), kernel=_dense_kernel,
    infer=_dense_infer, grad=_scaled_gradient, multi_output=True, sparse_output_grads=True)


def _sparse_kernel(inputs, labels_indices, labels_values, sequence_length):
    """TensorFlow's CTCLoss (ctc_merge_repeated, no label collapsing): labels as a SparseTensor's
    parts, the blank the last class; moved to the dense layout for the shared computation."""
    time, batch, classes = inputs.shape
    rows = [labels_values[labels_indices[:, 0] == b] for b in range(batch)]
    for b, label in enumerate(rows):
        needed, available = required_time(label), int(sequence_length[b])
        if needed > available:
            raise InvalidArgumentError(None, None, f"Not enough time for target transition sequence (required: "
                                                   f"{needed}, available: {available}){b}You can turn this error "
                                                   f"into a warning by using the flag "
                                                   f"ignore_longer_outputs_than_inputs")
    width = max([len(r) for r in rows] + [0])
    labels = np.zeros((batch, width), np.int64)
    for b, label in enumerate(rows):
        labels[b, :len(label)] = np.asarray(label, np.int64) + 1  # blank last -> blank first
    blank_first = np.concatenate([inputs[:, :, -1:], inputs[:, :, :-1]], axis=2)
    loss, gradient = ctc_loss_and_gradient(blank_first, labels, [len(r) for r in rows], sequence_length)
    gradient = np.concatenate([gradient[:, :, 1:], gradient[:, :, :1]], axis=2)
    return loss.astype(inputs.dtype), gradient.astype(inputs.dtype)


def _sparse_infer(inputs, attrs):
    logits, indices, values, sequence_length = inputs
    R.check_dtype_in("CTCLoss", indices.dtype, (_dt.int64,), "labels_indices")
    R.check_dtype_in("CTCLoss", values.dtype, (_dt.int32,), "labels_values")
    return _loss_and_gradient_specs("CTCLoss", logits, (sequence_length,))


CTCLoss = defop(
    "CTCLoss", inputs=("inputs", "labels_indices", "labels_values", "sequence_length"), kernel=_sparse_kernel,
    infer=_sparse_infer, grad=_scaled_gradient, multi_output=True, sparse_output_grads=True)


def _num_classes(logits):
    classes = logits.shape[2] if logits.shape.rank == 3 else None
    if classes is None:
        raise ValueError("ctc_loss needs the number of classes (the logits' last dimension) while tracing")
    return classes


def _sparse_ctc_loss(labels, logits, logit_length, logits_time_major, blank_index):
    if blank_index is None:
        raise ValueError("Argument `blank_index` must be provided when `labels` is a `SparseTensor`.")
    logits = convert_to_tensor(logits)
    classes = _num_classes(logits)
    if blank_index < 0:
        blank_index += classes
    if not logits_time_major:
        logits = _array.transpose(logits, [1, 0, 2])
    values = _math.cast(labels.values, _dt.int32)
    if blank_index != classes - 1:  # TensorFlow's CTCLoss wants the blank last
        logits = concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                         logits[:, :, blank_index:blank_index + 1]], axis=2)
        values = _array.where(_math.less(values, np.int32(blank_index)), values, values - np.int32(1))
    length = _math.cast(convert_to_tensor(logit_length), _dt.int32)
    return bind(CTCLoss, (logits, _math.cast(labels.indices, _dt.int64), values, length))[0]


def _refuse_dtype(op_name, dtype, allowed, arg, attr):
    """TensorFlow's dense path refuses a dtype where its LogSoftmax / OneHot meets it: that op's
    InvalidArgumentError eagerly, its TypeError while tracing (as at op construction)."""
    try:
        R.check_dtype_in(op_name, dtype, allowed, arg, attr=attr)
    except InputTypeError as err:
        if state.graph is not None:
            raise TypeError(err.graph_message) from None
        raise


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None, blank_index=None,
             name=None):
    """`tf.nn.ctc_loss` (TensorFlow 2's): the negative log-probability of each label sequence.
    `logits` [frames, batch, classes] (or [batch, frames, classes] with logits_time_major=False) are
    softmaxed here. Dense `labels` [batch, max_length] with `label_length`, blank 0 by default; a
    SparseTensor needs `blank_index` (negative counts from the end). `unique`
    (ctc_unique_labels(labels)) only speeds TensorFlow up on TPU: the result is the same without it."""
    if isinstance(labels, SparseTensor):
        return _sparse_ctc_loss(labels, logits, logit_length, logits_time_major, blank_index)
    del unique  # the same loss; TensorFlow uses it for a faster TPU path only
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    label_length = convert_to_tensor(label_length)
    logit_length = convert_to_tensor(logit_length)
    orig_dtype = logits.dtype
    if not orig_dtype.is_floating:
        _refuse_dtype("LogSoftmax", orig_dtype, R.FLOATS, "logits", "T")
    if labels.dtype not in _LABEL_TYPES:
        _refuse_dtype("OneHot", labels.dtype, _LABEL_TYPES, "indices", "TI")
    if orig_dtype is _dt.float16 or orig_dtype.name == "bfloat16":  # (bfloat16 once core/dtypes.py has it)
        logits = _math.cast(logits, _dt.float32)
    elif orig_dtype is _dt.float64:
        # TensorFlow's dense path mixes float32 masks into the float64 logits: its Mul dtype error.
        _math.multiply(_array.zeros([], _dt.float64), _array.zeros([], _dt.float32))
    if not logits_time_major:
        logits = _array.transpose(logits, [1, 0, 2])
    blank_index = 0 if blank_index is None else blank_index
    if blank_index != 0:  # the dense computation wants the blank first
        if blank_index < 0:
            blank_index += _num_classes(logits)
        logits = concat([logits[:, :, blank_index:blank_index + 1], logits[:, :, :blank_index],
                         logits[:, :, blank_index + 1:]], axis=2)
        labels = _array.where(_math.less(labels, _math.cast(blank_index, labels.dtype)),
                              labels + _math.cast(1, labels.dtype), labels)
    loss = bind(CTCLossDense, (logits, labels, label_length, logit_length), name=name)[0]
    return loss if loss.dtype is orig_dtype else _math.cast(loss, orig_dtype)


def _unique_kernel(labels):
    """Per row: the distinct labels in first-seen order, zero-padded, and each label's index there."""
    out_labels = np.zeros(labels.shape, np.int64)
    out_index = np.zeros(labels.shape, np.int32)
    for b, row in enumerate(labels):
        seen = {}
        for k, value in enumerate(row.tolist()):
            out_index[b, k] = seen.setdefault(value, len(seen))
        out_labels[b, :len(seen)] = list(seen)
    return out_labels, out_index


def _unique_infer(inputs, attrs):
    (labels,) = inputs
    R.check_dtype_in("CTCUniqueLabels", labels.dtype, _INDEX_TYPES, "labels")
    if labels.shape.rank is not None and labels.shape.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {labels.shape.rank} for '{{{{node CTCUniqueLabels}}}}'")
    return [Spec(labels.shape, _dt.int64), Spec(labels.shape, _dt.int32)]


CTCUniqueLabels = defop("CTCUniqueLabels", inputs=("labels",), kernel=_unique_kernel, infer=_unique_infer,
                        grad=NO_GRADIENT, multi_output=True)


def ctc_unique_labels(labels, name=None):
    """`tf.nn.ctc_unique_labels`: (unique labels of each row, zero-padded (int64); the index of each
    label in its row's unique list (int32)), TensorFlow's `unique` argument of ctc_loss."""
    return tuple(bind(CTCUniqueLabels, (convert_to_tensor(labels),), name=name))


def _dense_jax(logits, labels, label_length, logit_length):
    from .ctc_jax import ctc_dense_jax
    return ctc_dense_jax(logits, labels, label_length, logit_length)


CTCLossDense.jax = _dense_jax  # TensorFlow's XLA compiles its dense CTC loss; the others have no XLA kernel
