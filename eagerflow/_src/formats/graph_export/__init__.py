"""eagerflow's traced graphs written as TensorFlow FunctionDefs: every node a registered TensorFlow op
with the attributes its OpDef requires. The result is plain data shaped like the protocol buffer
messages (dicts with the messages' field names), so it can be tested without the protobuf runtime
and turned into messages by one generic filler (proto_fill.py)."""
