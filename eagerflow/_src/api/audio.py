"""`tf.audio`: 16-bit PCM WAV files."""
from ..ops.audio.wav import decode_wav, encode_wav  # noqa: F401
