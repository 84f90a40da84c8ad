"""TensorFlow's file formats: protocol buffer messages, the tensor bundle, and the mapping between
eagerflow's graph IR and TensorFlow's GraphDef/FunctionDef."""
