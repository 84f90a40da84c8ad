"""tf.nn: activations, convolution, pooling, normalization, losses, CTC and embedding lookups."""
