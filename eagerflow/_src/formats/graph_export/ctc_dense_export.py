"""CTCLossDense (tf.nn.ctc_loss with dense labels, Keras' CTC loss) written as TensorFlow writes its dense
CTC loss: ordinary ops with the forward-backward in While loops (ctc_dense_graph.py), here a function of
the library that a PartitionedCall node calls, returning (loss, gradient) as the op does. eagerflow's
loader reads the call node back as the one op (`_eagerflow_op`), so it runs eagerflow's kernel."""
from __future__ import annotations

from ...core.tensor import TensorSpec
from .generic_op import emit


def export_ctc_loss_dense(builder, op):
    from ...trace.function import function
    from .ctc_dense_graph import ctc_dense
    specs = [TensorSpec(t.shape, t.dtype) for t in op.inputs]
    traced = function(ctc_dense, input_signature=specs, autograph=False).get_concrete_function()
    name = builder.library.called_function(traced)
    emit(builder, op, "PartitionedCall", list(op.inputs), {"f": name, "Tout": [t.dtype for t in op.outputs]},
         list(op.outputs))
