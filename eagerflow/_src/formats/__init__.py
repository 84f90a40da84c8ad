"""TensorFlow's file formats: protocol buffer messages (protos/), the tensor bundle of checkpoints and
SavedModel variables (tensor_bundle.py over sorted_table.py), and the dtype numbers they store (dtypes.py).

Used by saved_model/, train/, summary/ and serving/. Nothing here is imported by `import eagerflow`.
"""
