"""tf.io and tf.print: printing, files, CSV decoding and tf.train.Example parsing."""
