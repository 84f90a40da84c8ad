"""`tf.signal`: Fourier transforms (ops/signal/fourier.py, ops/signal/fft.py), framing and overlap-add
(ops/signal/frames.py), windows (ops/signal/windows.py), STFTs (ops/signal/spectral.py), DCTs and
MDCTs (ops/signal/dct.py), mel weights and MFCCs (ops/signal/mel.py)."""
from ..ops.signal.fft import (fft, fft2d, fft3d, fftshift, ifft, ifft2d, ifft3d, ifftshift, irfft,  # noqa: F401
                              irfft2d, irfft3d, rfft, rfft2d, rfft3d)
from ..ops.signal.frames import frame, overlap_and_add  # noqa: F401
from ..ops.signal.spectral import inverse_stft, inverse_stft_window_fn, stft  # noqa: F401
from ..ops.signal.windows import (hamming_window, hann_window, kaiser_bessel_derived_window,  # noqa: F401
                                  kaiser_window, vorbis_window)
from ..ops.signal.dct import dct, idct, inverse_mdct, mdct  # noqa: F401
from ..ops.signal.mel import linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms  # noqa: F401
