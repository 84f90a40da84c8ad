"""Ops on SparseTensors (tf.sparse), and tf.edit_distance."""
