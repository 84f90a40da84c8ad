"""tf.audio: WAV decoding and encoding."""
