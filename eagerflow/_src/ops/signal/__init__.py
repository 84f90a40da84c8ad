"""tf.signal: Fourier transforms, DCT, framing, windows, mel scales and spectrograms."""
