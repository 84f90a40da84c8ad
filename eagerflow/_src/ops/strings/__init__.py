"""tf.strings: elementwise string ops, splitting, joining, hashing and tokens."""
