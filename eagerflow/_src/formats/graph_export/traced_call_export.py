"""eagerflow ops that TensorFlow builds from ordinary ops in loops (no kernel of its own), written as
TensorFlow writes them: the same computation traced from eagerflow's ordinary ops (tf.while_loop
included) into a function of the library, which a PartitionedCall node calls with the op's inputs and
whose outputs are the op's. eagerflow's loader reads the call node back as the one op (`_eagerflow_op`,
op_rules.py's _recorded), so a loaded model runs eagerflow's kernel.

  - CTCLossDense (tf.nn.ctc_loss with dense labels, Keras' CTC loss): ctc_dense_graph.py.
  - NonMaxSuppressionPaddedV2 (tf.image.non_max_suppression_padded): nms_padded_graph.py.
  - ShuffleOrder (a `for` loop over a shuffled dataset made in the function): shuffle_order_graph.py."""
from __future__ import annotations

from ...core.tensor import TensorSpec
from .generic_op import emit


def export_traced(builder, op, computation, structure=None):
    """Writes `op` as a call of `computation(*op.inputs)` traced at the inputs' shapes and dtypes
    (`structure(specs)`: the input signature, when the inputs are grouped; flat, it is op.inputs)."""
    from ...trace.function import function
    specs = [TensorSpec(t.shape, t.dtype) for t in op.inputs]
    signature = structure(specs) if structure else specs
    traced = function(computation, input_signature=signature, autograph=False).get_concrete_function()
    name = builder.library.called_function(traced)
    emit(builder, op, "PartitionedCall", list(op.inputs), {"f": name, "Tout": [t.dtype for t in op.outputs]},
         list(op.outputs))


def export_ctc_loss_dense(builder, op):
    from .ctc_dense_graph import ctc_dense
    export_traced(builder, op, ctc_dense)


def export_nms_padded(builder, op):
    from .nms_padded_graph import nms_padded
    attrs = {k: op.attrs[k] for k in ("tile_size", "sorted_input", "canonicalized_coordinates") if k in op.attrs}

    def computation(boxes, scores, max_output_size, iou_threshold, score_threshold):
        return nms_padded(boxes, scores, max_output_size, iou_threshold, score_threshold, **attrs)

    export_traced(builder, op, computation)


def export_shuffle_order(builder, op):
    """A shuffled dataset made inside the function (seeds: the (seed, seed2, reshuffle) every call starts
    its generator from); one made outside keeps its generator across calls, which no file holds."""
    from .attr_values import ExportError
    from .shuffle_order_graph import shuffle_order
    seeds = op.attrs.get("seeds")
    if not isinstance(seeds, tuple) or tuple(seeds[:2]) == (0, 0):
        raise ExportError(f"op {op.name!r} (ShuffleOrder) of function {op.graph.name!r} shuffles a dataset "
                          f"{'made outside the function' if not isinstance(seeds, tuple) else 'without a seed'}: "
                          f"its orders come from a seed generator kept across calls, which a SavedModel cannot hold "
                          f"(make the dataset inside the function, with a seed)")
    seed, seed2, reshuffle = seeds

    def computation(shape, buffer_size):
        return shuffle_order(shape, buffer_size, seed, seed2, reshuffle)

    export_traced(builder, op, computation)
