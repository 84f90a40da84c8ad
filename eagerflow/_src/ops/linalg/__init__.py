"""tf.linalg: matrix products, solves, decompositions, matrix functions, norms and linear operators."""
