"""DecodeWav and EncodeWav: `tf.audio.decode_wav` / `tf.audio.encode_wav`, 16-bit PCM WAV files.

As TensorFlow: decoding reads only 16-bit PCM (other sample sizes and compressed formats are refused
with TensorFlow's words), samples become float32 in [-1, 1) (int16 / 32768), `desired_channels` keeps
the first channels or repeats the last one, `desired_samples` cuts or pads with zeros. Encoding scales
by 32768, rounds half away from zero and clamps to int16 (so 1.0 is written as 32767 and NaN as 0).
The file layout is read with struct from the bytes; nothing touches the file system.
"""
from __future__ import annotations

import collections
import struct

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


def _bad(message):
    return InvalidArgumentError(None, None, message)


class _Reader:
    """Walks a WAV file's bytes, raising TensorFlow's messages for a short or malformed header."""

    def __init__(self, data: bytes):
        self.data, self.at = data, 0

    def take(self, count: int) -> bytes:
        if self.at + count > len(self.data):
            raise _bad("Data too short when trying to read string")
        piece = self.data[self.at:self.at + count]
        self.at += count
        return piece

    def expect(self, word: bytes):
        got = self.take(len(word))
        if got != word:
            raise _bad(f"Header mismatch: Expected {word.decode()} but found {got.decode('latin-1')}")

    def u32(self) -> int:
        return struct.unpack("<I", self.take(4))[0]

    def u16(self) -> int:
        return struct.unpack("<H", self.take(2))[0]


def parse_wav(data: bytes):
    """(int16 samples [frames, channels], sample rate) of a 16-bit PCM WAV file's bytes."""
    reader = _Reader(data)
    reader.expect(b"RIFF")
    reader.u32()
    reader.expect(b"WAVE")
    fmt = None
    while True:
        chunk, size = reader.take(4), reader.u32()
        if chunk == b"fmt ":
            body = _Reader(reader.take(size))
            audio_format, channels, rate = body.u16(), body.u16(), body.u32()
            body.u32()
            body.u16()
            bits = body.u16()
            if audio_format != 1:
                raise _bad(f"Bad audio format for WAV: Expected 1 (PCM), but got{audio_format}")
            if channels == 0:
                raise _bad("Bad number of channels for WAV file: 0")
            if bits != 16:
                raise _bad(f"Can only read 16-bit WAV files, but received {bits}")
            fmt = (channels, rate)
        elif chunk == b"data":
            if fmt is None:
                raise _bad("The fmt chunk must come before the data chunk")
            channels, rate = fmt
            body = reader.take(size)
            frames = len(body) // (2 * channels)
            samples = np.frombuffer(body[:frames * 2 * channels], dtype="<i2").reshape(frames, channels)
            return samples, rate
        else:
            reader.take(size + (size & 1))


def _decode_kernel(contents, desired_channels=-1, desired_samples=-1):
    data = contents[()] if isinstance(contents, np.ndarray) else contents
    samples, rate = parse_wav(bytes(data))
    audio = samples.astype(np.float32) / np.float32(32768.0)
    channels = audio.shape[1]
    if desired_channels >= 0 and desired_channels != channels:
        if desired_channels < channels:
            audio = audio[:, :desired_channels]
        else:
            audio = np.concatenate([audio] + [audio[:, -1:]] * (desired_channels - channels), axis=1)
    if desired_samples >= 0 and desired_samples != audio.shape[0]:
        if desired_samples < audio.shape[0]:
            audio = audio[:desired_samples]
        else:
            pad = np.zeros((desired_samples - audio.shape[0], audio.shape[1]), np.float32)
            audio = np.concatenate([audio, pad])
    return np.ascontiguousarray(audio), np.array(rate, np.int32)


def _decode_infer(inputs, attrs):
    R.check_input_dtype("DecodeWav", inputs, 0, _dt.string)
    if inputs[0].shape.rank not in (None, 0):
        raise InvalidArgumentError(None, None, f"Shape must be rank 0 but is rank {inputs[0].shape.rank}")
    samples, channels = attrs.get("desired_samples", -1), attrs.get("desired_channels", -1)
    return [Spec(TensorShape([None if samples < 0 else samples, None if channels < 0 else channels]), _dt.float32),
            Spec(TensorShape([]), _dt.int32)]


DecodeWav = defop("DecodeWav", inputs=("contents",), kernel=_decode_kernel, infer=_decode_infer, grad=NO_GRADIENT,
                  multi_output=True, doc="The float32 samples and the sample rate of a 16-bit PCM WAV file.")


def _encode_kernel(audio, sample_rate):
    if audio.ndim != 2:
        raise _bad(f"audio must be 2-dimensional[{','.join(str(d) for d in audio.shape)}]")
    if np.ndim(sample_rate) != 0:
        raise _bad(f"Input sample_rate should be a scalar tensor, got {list(np.shape(sample_rate))} instead.")
    scaled = np.nan_to_num(audio.astype(np.float64) * 32768.0, nan=0.0)
    pcm = np.clip(np.trunc(scaled + np.copysign(0.5, scaled)), -32768, 32767).astype("<i2")
    frames, channels = audio.shape
    rate = int(sample_rate)
    body = pcm.tobytes()
    header = (b"RIFF" + struct.pack("<I", 36 + len(body)) + b"WAVEfmt " +
              struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2, channels * 2, 16) +
              b"data" + struct.pack("<I", len(body)))
    return np.array(header + body, dtype=object)


def _encode_infer(inputs, attrs):
    R.check_dtype_in("EncodeWav", inputs[0].dtype, (_dt.float32,), arg="audio")
    R.check_input_dtype("EncodeWav", inputs, 1, _dt.int32)
    return [Spec(TensorShape([]), _dt.string)]


EncodeWav = defop("EncodeWav", inputs=("audio", "sample_rate"), kernel=_encode_kernel, infer=_encode_infer,
                  grad=NO_GRADIENT, doc="A 16-bit PCM WAV file of float32 samples [frames, channels].")


# TensorFlow's named result: `.audio`, `.sample_rate` (a namedtuple, so tf.nest sees two tensors).
DecodedWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """`tf.audio.decode_wav`: (audio float32 [samples, channels], sample_rate int32)."""
    audio, rate = bind(DecodeWav, [as_tensor(contents, _dt.string)],
                       {"desired_channels": int(desired_channels), "desired_samples": int(desired_samples)}, name=name)
    return DecodedWav(audio, rate)


def encode_wav(audio, sample_rate, name=None):
    """`tf.audio.encode_wav`: the WAV file's bytes as a string scalar."""
    return bind(EncodeWav, [as_tensor(audio, _dt.float32), as_tensor(sample_rate, _dt.int32)], name=name)
