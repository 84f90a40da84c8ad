"""File input and output behind `tf.io`: gfile, TFRecord framing, CSV parsing, tf.train.Example."""
