"""tf.debugging: run-time assertions and checks of static properties."""
