"""`tf.signal`: Fourier transforms (ops/fft.py, ops/signal_fft.py)."""
from ..ops.signal_fft import (fft, fft2d, fft3d, fftshift, ifft, ifft2d, ifft3d, ifftshift, irfft,  # noqa: F401
                              irfft2d, irfft3d, rfft, rfft2d, rfft3d)
