"""`tf.edit_distance` (EditDistance): the Levenshtein distance between the sequences of two
SparseTensors, one sequence per position of their leading dimensions (the last dimension orders
each sequence). The result has the leading dimensions' shape, the larger of the two inputs' in
each dimension; `normalize` divides by the truth sequence's length (an empty truth gives inf, or
0 against an empty hypothesis, as TensorFlow). No gradient (TensorFlow has none)."""
from __future__ import annotations

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.shape import TensorShape
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value


def _sequences(indices, values, lead):
    groups = {}
    for index, value in zip(np.asarray(indices).tolist(), np.asarray(values).tolist()):
        groups.setdefault(tuple(index[:-1]), []).append((index[-1], value))
    return {key: [v for _, v in sorted(items)] for key, items in groups.items()}


def _levenshtein(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def _kernel(h_indices, h_values, h_shape, t_indices, t_values, t_shape, normalize=True):
    lead = [max(int(a), int(b)) for a, b in zip(np.asarray(h_shape)[:-1], np.asarray(t_shape)[:-1])]
    hyp, truth = _sequences(h_indices, h_values, lead), _sequences(t_indices, t_values, lead)
    out = np.zeros(lead, np.float32)
    for key in np.ndindex(*lead):
        a, b = hyp.get(key, []), truth.get(key, [])
        d = float(_levenshtein(a, b))
        if normalize:
            d = d / len(b) if b else (np.inf if a else 0.0)
        out[key] = d
    return out


def _infer(inputs, attrs):
    h_shape, t_shape = static_value(inputs[2]), static_value(inputs[5])
    if h_shape is not None and t_shape is not None:
        return [Spec(TensorShape([max(int(a), int(b)) for a, b in zip(np.ravel(h_shape)[:-1], np.ravel(t_shape)[:-1])]),
                     _dt.float32)]
    rank = inputs[2].shape[0] if inputs[2].shape.rank == 1 else None
    return [Spec(TensorShape(None if rank is None else [None] * (rank - 1)), _dt.float32)]


def _check_values(inputs, attrs):
    h_values, t_values = inputs[1], inputs[4]
    if h_values.dtype is not t_values.dtype:
        from ...core.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, f"cannot compute EditDistance as input #4(zero-based) was expected to "
                                               f"be a {h_values.dtype.name} tensor but is a {t_values.dtype.name} "
                                               f"tensor")
    return _infer(inputs, attrs)


EditDistance = defop("EditDistance", inputs=("hypothesis_indices", "hypothesis_values", "hypothesis_shape",
                                             "truth_indices", "truth_values", "truth_shape"),
                     kernel=_kernel, infer=_check_values, grad=NO_GRADIENT,
                     doc="Levenshtein distances between two SparseTensors' sequences (tf.edit_distance).")


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    return bind(EditDistance, (hypothesis.indices, hypothesis.values, hypothesis.dense_shape, truth.indices,
                               truth.values, truth.dense_shape), {"normalize": bool(normalize)})
