"""tf.audio.decode_wav / encode_wav (ops/audio/wav.py) against TensorFlow 2.21's recorded files, samples and
messages."""
import base64
import struct

import numpy as np
import pytest

import eagerflow as tf

AUDIO = np.array([[0.0, 0.5], [-0.5, 1.0], [0.25, -1.0]], np.float32)
# tf.audio.encode_wav(AUDIO, 16000) in TensorFlow 2.21, byte for byte.
TF_WAV = base64.b64decode("UklGRjAAAABXQVZFZm10IBAAAAABAAIAgD4AAAD6AAAEABAAZGF0YQwAAAAAAABAAMD/fwAgAIA=")


def _wav(bits, data, channels=1, rate=8000, audio_format=1):
    block = channels * bits // 8
    return (b"RIFF" + struct.pack("<I", 36 + len(data)) + b"WAVEfmt " +
            struct.pack("<IHHIIHH", 16, audio_format, channels, rate, rate * block, block, bits) + b"data" +
            struct.pack("<I", len(data)) + data)


def test_encode_writes_tensorflows_bytes():
    assert tf.audio.encode_wav(AUDIO, 16000).numpy() == TF_WAV


def test_decode_as_tensorflow():
    audio, rate = tf.audio.decode_wav(TF_WAV)
    assert audio.dtype == tf.float32 and rate.dtype == tf.int32 and int(rate) == 16000
    assert audio.numpy().tolist() == [[0.0, 0.5], [-0.5, 0.999969482421875], [0.25, -1.0]]
    result = tf.audio.decode_wav(TF_WAV, desired_channels=1)
    assert result.audio.numpy().tolist() == [[0.0], [-0.5], [0.25]]  # the first channel, not a mix
    assert tf.audio.decode_wav(TF_WAV, desired_channels=3).audio.numpy().tolist() == [
        [0.0, 0.5, 0.5], [-0.5, 0.999969482421875, 0.999969482421875], [0.25, -1.0, -1.0]]
    assert tf.audio.decode_wav(TF_WAV, desired_samples=5).audio.numpy().tolist() == [
        [0.0, 0.5], [-0.5, 0.999969482421875], [0.25, -1.0], [0.0, 0.0], [0.0, 0.0]]
    assert tf.audio.decode_wav(TF_WAV, desired_samples=2).audio.numpy().tolist() == [[0.0, 0.5],
                                                                                     [-0.5, 0.999969482421875]]


def test_encode_rounds_half_away_from_zero_and_clamps():
    quiet = np.array([[1.5], [-1.5], [2.5], [-2.5], [0.7], [-0.7], [np.nan]], np.float32) / np.float32(32768)
    samples = np.frombuffer(tf.audio.encode_wav(quiet, 8000).numpy()[44:], np.int16)
    assert samples.tolist() == [2, -2, 3, -3, 1, -1, 0]  # TensorFlow 2.21's answer
    loud = tf.audio.decode_wav(tf.audio.encode_wav(np.array([[2.0], [-3.0], [0.99999]], np.float32), 8000)).audio
    assert loud.numpy().tolist() == [[0.999969482421875], [-1.0], [0.999969482421875]]


def test_traced_shapes_as_tensorflow():
    spec = tf.TensorSpec([], tf.string)
    shapes = lambda **kw: [t.shape.as_list() for t in tf.function(  # noqa: E731
        lambda x: tf.audio.decode_wav(x, **kw)).get_concrete_function(spec).structured_outputs]
    assert shapes(desired_channels=2) == [[None, 2], []]
    assert shapes(desired_channels=2, desired_samples=16000) == [[16000, 2], []]
    assert shapes() == [[None, None], []]
    decoded = tf.function(lambda x: tf.audio.decode_wav(x))(TF_WAV)
    np.testing.assert_array_equal(decoded.audio.numpy(), tf.audio.decode_wav(TF_WAV).audio.numpy())


@pytest.mark.parametrize("data, message", [
    (b"hello", "Header mismatch: Expected RIFF but found hell"),
    (_wav(8, bytes([0, 128, 255])), "Can only read 16-bit WAV files, but received 8"),
    (_wav(24, b"\x00\x00\x40" * 2), "Can only read 16-bit WAV files, but received 24"),
    (_wav(32, struct.pack("<2f", 0.5, -0.25), audio_format=3), "Bad audio format for WAV: Expected 1 (PCM), but got3"),
])
def test_decode_errors_as_tensorflow(data, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        tf.audio.decode_wav(data)


def test_encode_errors_as_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"audio must be 2-dimensional\[3\]"):
        tf.audio.encode_wav(np.zeros([3], np.float32), 16000)
