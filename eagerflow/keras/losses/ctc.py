"""Connectionist Temporal Classification: `keras.ops.ctc_loss`, `keras.losses.ctc` and `keras.losses.CTC`.

As Keras 3.15 computes it on TensorFlow: tf.nn.ctc_loss with dense labels, batch-major logits and
`mask_index` as the blank (ops/nn/ctc.py, the one CTC computation, shared with tf.nn.ctc_loss).
`output` holds logits (batch, time, classes), softmaxed inside (a model's softmax output is taken as
logits too, as Keras does). float64 logits run in float32 and the loss comes back as float64;
float16 gives a float32 loss (Keras' result_type of float16 and float32). A label its logits cannot
hold gives TensorFlow's large finite loss (about 707 plus the path's cost), not inf.
"""
from __future__ import annotations

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.ops.nn.ctc import ctc_loss as _tf_ctc_loss
from .loss import LossFunctionWrapper


def ctc_loss(target, output, target_length, output_length, mask_index=0):
    """Per-sequence CTC loss (batch,): `target` (batch, max_label_length) int labels, `output`
    (batch, time, classes) logits, the true lengths of both, `mask_index` the blank class."""
    target = _math.cast(convert_to_tensor(target), _dt.int32)
    output = convert_to_tensor(output)
    result_dtype = _dt.float64 if output.dtype is _dt.float64 else _dt.float32
    if output.dtype is not _dt.float32:
        output = _math.cast(output, _dt.float32)
    loss = _tf_ctc_loss(target, output, target_length, output_length, logits_time_major=False,
                        blank_index=mask_index)
    return loss if result_dtype is _dt.float32 else _math.cast(loss, result_dtype)


def ctc(y_true, y_pred):
    """`keras.losses.ctc`: y_true (batch, max_length) labels padded with 0 (the blank), y_pred
    (batch, time, classes); every sequence uses the whole time axis."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.shape.rank != 2:
        raise ValueError(f"Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` in "
                         f"integer format. Received: y_true.shape={tuple(y_true.shape.as_list())}")
    if y_pred.shape.rank != 3:
        raise ValueError(f"Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={tuple(y_pred.shape.as_list())}")
    shape = _array.shape(y_pred)
    input_length = _array.fill(shape[:1], shape[1])
    label_length = _reduce.reduce_sum(_math.cast(_math.not_equal(y_true, _math.cast(0, y_true.dtype)), _dt.int32),
                                      axis=-1)
    return ctc_loss(y_true, y_pred, label_length, input_length, mask_index=0)


class CTC(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction)

    def call(self, y_true, y_pred):
        return ctc(y_true, y_pred)  # no rank pairing: labels (batch, L) and logits (batch, T, C) differ by design

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction}
