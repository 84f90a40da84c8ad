"""Ops on RaggedTensors (tf.ragged): building, converting, indexing, joining and reducing them."""
