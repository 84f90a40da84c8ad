"""`tf.nn.ctc_greedy_decoder` and `tf.nn.ctc_beam_search_decoder`: the ops CTCGreedyDecoder and
CTCBeamSearchDecoder, whose outputs are SparseTensors' parts (int64 indices, values and shape, one
set per path) and a log-probability per sequence and path.

Greedy: the best class at each step of a sequence's length; blanks dropped and, with
merge_repeated, a class equal to the previous step's best dropped too (a blank in between keeps
both). Its "log probability" is TensorFlow's: minus the sum of the best raw logits.

Beam search follows TensorFlow's CTC prefix beam search step by step (so its approximations agree
too): each step log-softmaxes the logits; every prefix in the beam updates P(ends in blank) and
P(ends in its last label); then, best prefix first, each prefix's one-label extensions that are not
in the beam are scored, and one enters if the beam has room or it beats the worst, which then leaves
(forgetting its probabilities). The blank is the last class; tf.nn's v2 decoder does not merge
repeated labels of a path. The result is the beam's best `top_paths` prefixes, best first.
"""
from __future__ import annotations

import heapq
import math

import numpy as np

from ...composite.sparse_tensor import SparseTensor
from ...core import dtypes as _dt
from ...core.convert import convert_to_tensor
from ...core.errors import FailedPreconditionError, InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..shape_rules import rank_message

_NEG_INF = -math.inf


def _check_lengths(sequence_length, time):
    for b, length in enumerate(np.asarray(sequence_length).tolist()):
        if length > time:
            raise FailedPreconditionError(None, None, f"sequence_length({b}) <= {time}")


def _sparse_parts(paths, batch):
    """[(batch row, label sequence)] of one path rank -> (indices, values, dense_shape), int64."""
    indices = [[b, i] for b, seq in enumerate(paths) for i in range(len(seq))]
    values = [label for seq in paths for label in seq]
    width = max([len(seq) for seq in paths] + [0])
    return (np.array(indices, np.int64).reshape(-1, 2), np.array(values, np.int64),
            np.array([batch, width], np.int64))


def _decoder_infer(op_name, inputs, outputs_per_path, paths):
    logits, lengths = inputs
    R.check_dtype_in(op_name, logits.dtype, (_dt.float32, _dt.float64), "inputs")
    R.check_dtype_in(op_name, lengths.dtype, (_dt.int32,), "sequence_length")
    rank = logits.shape.rank
    if rank is not None and rank != 3:
        raise InvalidArgumentError(None, None, rank_message(rank, "inputs is not a 3-Tensor", expected=3))
    batch = logits.shape[1] if rank == 3 else None
    parts = [Spec(TensorShape([None, 2]), _dt.int64), Spec(TensorShape([None]), _dt.int64),
             Spec(TensorShape([2]), _dt.int64)]
    specs = [parts[k] for k in range(3) for _ in range(paths)]
    return specs + [Spec(TensorShape([batch, outputs_per_path]), logits.dtype)]


# --- greedy ---

def _greedy_kernel(inputs, sequence_length, merge_repeated=True, blank_index=-1):
    time, batch, classes = inputs.shape
    _check_lengths(sequence_length, time)
    blank = blank_index + classes if blank_index < 0 else blank_index
    paths, scores = [], np.zeros((batch, 1), inputs.dtype)
    best = np.argmax(inputs, axis=2)  # the first best class, as TensorFlow's
    for b in range(batch):
        length = int(sequence_length[b])
        seq, previous = [], -1
        for t in range(length):
            label = int(best[t, b])
            if label != blank and not (merge_repeated and label == previous):
                seq.append(label)
            previous = label
        paths.append(seq)
        if length:
            scores[b, 0] = -np.sum(inputs[np.arange(length), b, best[:length, b]], dtype=inputs.dtype)
    return _sparse_parts(paths, batch) + (scores,)


CTCGreedyDecoder = defop(
    "CTCGreedyDecoder", inputs=("inputs", "sequence_length"), kernel=_greedy_kernel,
    infer=lambda inputs, attrs: _decoder_infer("CTCGreedyDecoder", inputs, 1, 1), grad=NO_GRADIENT,
    multi_output=True)


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """`tf.nn.ctc_greedy_decoder`: ([SparseTensor of the best path], [batch, 1] minus the sum of the
    best logits). `inputs` [time, batch, classes] logits; blank the last class unless `blank_index`
    says otherwise (negative counts from the end)."""
    inputs = convert_to_tensor(inputs)
    lengths = convert_to_tensor(sequence_length, dtype=_dt.int32)
    attrs = {"merge_repeated": bool(merge_repeated), "blank_index": -1 if blank_index is None else int(blank_index)}
    indices, values, shape, log_probability = bind(CTCGreedyDecoder, (inputs, lengths), attrs)
    return [SparseTensor._from_parts(indices, values, shape)], log_probability


# --- beam search ---

class _Beam:
    """A prefix in the beam tree: its last label, its parent, and its probabilities (log) at the
    previous step (old_*) and this one (new_*): ending in a blank, ending in its label, total."""

    __slots__ = ("label", "parent", "children", "old_blank", "old_label", "old_total", "new_blank",
                 "new_label", "new_total")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, None
        self.old_blank = self.old_label = self.old_total = _NEG_INF
        self.new_blank = self.new_label = self.new_total = _NEG_INF

    def labels(self):
        out, beam = [], self
        while beam.parent is not None:
            out.append(beam.label)
            beam = beam.parent
        return out[::-1]


def _log_add(a, b):
    if a == _NEG_INF:
        return b
    if b == _NEG_INF:
        return a
    top = max(a, b)
    return top + math.log1p(math.exp(-abs(a - b)))


def _beam_search_one(log_probs, width, num_labels):
    """The beam after feeding the rows of `log_probs` [steps, classes] (blank last), as a list."""
    root = _Beam(None, -1)
    root.new_total = root.new_blank = 0.0
    leaves = [root]
    counter = 0
    for row in log_probs.tolist():
        blank = row[-1]
        branches = sorted(leaves, key=lambda beam: -beam.new_total)
        for beam in branches:
            beam.old_blank, beam.old_label, beam.old_total = beam.new_blank, beam.new_label, beam.new_total
        heap = []
        for beam in branches:
            if beam.parent is not None:
                if beam.parent.new_total != _NEG_INF:  # the parent is still in the beam
                    previous = beam.parent.old_blank if beam.label == beam.parent.label else beam.parent.old_total
                    beam.new_label = _log_add(beam.new_label, previous)
                beam.new_label += row[beam.label]
            beam.new_blank = beam.old_total + blank
            beam.new_total = _log_add(beam.new_blank, beam.new_label)
            counter += 1
            heapq.heappush(heap, (beam.new_total, counter, beam))
        for beam in branches:
            if not (beam.old_total > _NEG_INF and (len(heap) < width or beam.old_total > heap[0][0])):
                continue
            if beam.children is None:
                beam.children = [_Beam(beam, label) for label in range(num_labels)]
            for child in beam.children:
                if child.new_total != _NEG_INF:  # already in the beam
                    continue
                child.new_blank = _NEG_INF
                child.new_label = row[child.label] + (beam.old_blank if child.label == beam.label else beam.old_total)
                child.new_total = child.new_label
                if child.new_total > _NEG_INF and (len(heap) < width or child.new_total > heap[0][0]):
                    counter += 1
                    if len(heap) == width:  # the worst leaves the beam and forgets its probabilities
                        _, _, bottom = heapq.heapreplace(heap, (child.new_total, counter, child))
                        bottom.new_blank = bottom.new_label = bottom.new_total = _NEG_INF
                    else:
                        heapq.heappush(heap, (child.new_total, counter, child))
                else:
                    child.old_blank = child.old_label = child.old_total = _NEG_INF
                    child.new_blank = child.new_label = child.new_total = _NEG_INF
        leaves = [entry[2] for entry in heap]
    return sorted(leaves, key=lambda beam: -beam.new_total)


def _beam_kernel(inputs, sequence_length, beam_width=100, top_paths=1, merge_repeated=False):
    time, batch, classes = inputs.shape
    if top_paths > beam_width:
        raise InvalidArgumentError(None, None, "requested more paths than the beam width.")
    _check_lengths(sequence_length, time)
    x = inputs.astype(np.float64)
    top = x.max(axis=2, keepdims=True)
    log_probs = x - top - np.log(np.sum(np.exp(x - top), axis=2, keepdims=True))
    ranked_paths = [[] for _ in range(top_paths)]
    scores = np.zeros((batch, top_paths), inputs.dtype)
    for b in range(batch):
        beams = _beam_search_one(log_probs[:int(sequence_length[b]), b], beam_width, classes - 1)
        if top_paths > len(beams):
            raise InvalidArgumentError(None, None, "Less leaves in the beam search than requested.")
        for k in range(top_paths):
            labels = beams[k].labels()
            if merge_repeated:
                labels = [v for i, v in enumerate(labels) if i == 0 or v != labels[i - 1]]
            ranked_paths[k].append(labels)
            scores[b, k] = beams[k].new_total
    parts = [_sparse_parts(paths, batch) for paths in ranked_paths]
    return tuple(p[j] for j in range(3) for p in parts) + (scores,)


CTCBeamSearchDecoder = defop(
    "CTCBeamSearchDecoder", inputs=("inputs", "sequence_length"), kernel=_beam_kernel,
    infer=lambda inputs, attrs: _decoder_infer("CTCBeamSearchDecoder", inputs, attrs.get("top_paths", 1),
                                               attrs.get("top_paths", 1)),
    grad=NO_GRADIENT, multi_output=True)


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """`tf.nn.ctc_beam_search_decoder` (TensorFlow 2's): ([top_paths SparseTensors, best first],
    [batch, top_paths] log probabilities). `inputs` [time, batch, classes] logits, blank the last
    class; repeated labels of a path are kept (not merged)."""
    inputs = convert_to_tensor(inputs)
    lengths = convert_to_tensor(sequence_length, dtype=_dt.int32)
    attrs = {"beam_width": int(beam_width), "top_paths": int(top_paths), "merge_repeated": False}
    outputs = bind(CTCBeamSearchDecoder, (inputs, lengths), attrs)
    n = int(top_paths)
    decoded = [SparseTensor._from_parts(outputs[k], outputs[n + k], outputs[2 * n + k]) for k in range(n)]
    return decoded, outputs[-1]
