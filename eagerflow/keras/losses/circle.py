"""keras.losses.circle / Circle (Keras 3.15): the Circle loss of metric learning over L2-normalised
embeddings, labels giving the classes.

With d the pairwise cosine distances (1 - y_pred . ref^T, floored at 0), positives the pairs of the
same class (the diagonal left out with remove_diagonal) and negatives the others:
    p = logsumexp over positives of  -gamma * max(margin + d, 0) * (margin - d)
    n = logsumexp over negatives of   gamma * max(1 + margin - d, 0) * (1 - margin - d)
    loss = softplus(p + n)                     (0 for a row with no positive or no negative)
Keras masks the rows whose loss is 0, so the class's default reduction divides the summed loss by
the number of rows with a loss above 0, not by the batch size.
"""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.core.convert import convert_to_tensor
from ..._src.ops.array import basic as _array
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.ops.linalg.matmul import matmul
from ..._src.ops.nn.basic import softplus
from ..._src.ops.array.sequences import range as _range
from .loss import LossFunctionWrapper, reduce_values


def _masked_logsumexp(values, mask):
    """logsumexp of each row over the entries where `mask` holds; -inf for a row with none (finite
    gradients everywhere: the left-out entries never reach an exp)."""
    top = _reduce.reduce_max(_array.where(mask, values, _array.fill(_array.shape(values), np.float32(-np.inf))),
                             axis=1)
    top = _array.where(_math.is_finite(top), top, _array.zeros_like(top))
    shifted = _array.where(mask, values - _array.expand_dims(top, 1), _array.zeros_like(values))
    total = _reduce.reduce_sum(_array.where(mask, _math.exp(shifted), _array.zeros_like(values)), axis=1)
    return top + _math.log(total)


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True, gamma=80, margin=0.4):
    y_pred = convert_to_tensor(y_pred)
    y_true = _math.cast(convert_to_tensor(y_true), _dt.int32)
    ref_embeddings = y_pred if ref_embeddings is None else convert_to_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else _math.cast(convert_to_tensor(ref_labels), _dt.int32)
    distances = _math.maximum(1.0 - matmul(y_pred, ref_embeddings, transpose_b=True), 0.0)
    query, key = _array.reshape(y_true, [-1, 1]), _array.reshape(ref_labels, [1, -1])
    positive = _math.equal(query, key)
    negative = _math.logical_not(positive)
    if remove_diagonal:
        rows = _array.reshape(_range(_array.size(y_true)), [-1, 1])
        cols = _array.reshape(_range(_array.size(ref_labels)), [1, -1])
        positive = _math.logical_and(positive, _math.not_equal(rows, cols))
    pos_weights = _math.maximum((margin + distances) * _math.cast(positive, distances.dtype), 0.0)
    neg_weights = _math.maximum((1 + margin - distances) * _math.cast(negative, distances.dtype), 0.0)
    p_loss = _masked_logsumexp(-1.0 * gamma * pos_weights * (margin - distances), positive)
    n_loss = _masked_logsumexp(gamma * neg_weights * ((1 - margin) - distances), negative)
    return softplus(p_loss + n_loss)


class Circle(LossFunctionWrapper):
    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True, reduction="sum_over_batch_size", name="circle",
                 dtype=None):
        super().__init__(circle, name=name, reduction=reduction, gamma=gamma, margin=margin,
                         remove_diagonal=remove_diagonal)
        self.gamma, self.margin, self.remove_diagonal = gamma, margin, remove_diagonal

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = circle(y_true, y_pred, gamma=self.gamma, margin=self.margin, remove_diagonal=self.remove_diagonal)
        kept = _math.cast(_math.greater(values, 0.0), values.dtype)
        weighted = reduce_values(values, sample_weight, "none") * kept
        if self.reduction in ("sum_over_batch_size", "mean", "mean_with_sample_weight"):
            return _math.div_no_nan(_reduce.reduce_sum(weighted), _reduce.reduce_sum(kept))
        return reduce_values(weighted, None, self.reduction)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction, "gamma": self.gamma, "margin": self.margin,
                "remove_diagonal": self.remove_diagonal}
