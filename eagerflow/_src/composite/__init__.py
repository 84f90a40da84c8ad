"""Composite tensors: values made of several tensors (SparseTensor, RaggedTensor), each with a TypeSpec.

A composite flattens to its component tensors (`__tf_flatten__`, core/nest.py) and is described,
for tracing, by its TypeSpec (`_type_spec`): tf.function keys a trace by the spec, feeds the
components as the trace's inputs and rebuilds the composite from placeholders (trace/signature.py,
trace/placeholders.py); a composite returned from a traced function is repacked by the same protocol.
"""
