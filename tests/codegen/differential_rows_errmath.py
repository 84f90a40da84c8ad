"""Differential rows (generated code == eager == reference interpreter) for tf.io's byte codecs
(ops/io/byte_codecs.py), tf.strings' Unicode ops and ngrams (ops/strings/unicode.py, ngrams.py) and
tf.nn's 3-D convolution and max pooling (ops/nn/volumes.py), beside test_differential.py.
`rows(Row)` builds them with that test's Row class."""
import numpy as np

import eagerflow as tf

RAW = np.array([b"abcd", b"efgh"], dtype=object)
TEXT = np.array(["h\u00e9llo".encode(), b"a\xffb", b""], dtype=object)
B64 = np.array([b"aGVsbG8_Pg", b"aGk="], dtype=object)
TOKENS = np.array([b"a", b"b", b"c"], dtype=object)
VOLUME = np.random.default_rng(7).uniform(-2, 2, (1, 3, 4, 3, 2)).astype(np.float32)
FILTER = np.random.default_rng(8).uniform(-2, 2, (2, 2, 2, 2, 3)).astype(np.float32)


def _grad(f, argnum=0):
    def g(*args):
        with tf.GradientTape() as tape:
            tape.watch(args[argnum])
            y = tf.reduce_sum(f(*args) ** 2)
        return tape.gradient(y, args[argnum])
    return g


def _grad2(f):
    def g(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            dy = _grad(f)(x)
            z = tf.reduce_sum(dy * dy)
        return outer.gradient(z, x)
    return g


def rows(Row):
    conv = lambda x, w: tf.nn.conv3d(x, w, [1, 1, 2, 1, 1], "SAME")  # noqa: E731
    pool = lambda x: tf.nn.max_pool3d(x, 2, 1, "VALID")  # noqa: E731
    return [
        Row("DecodeRaw", lambda s: tf.io.decode_raw(s, tf.int16, little_endian=False), (RAW,)),
        Row("DecodeRaw", lambda s: tf.io.decode_raw(s, tf.int32), (np.array([b"abc"], dtype=object),),
            raises=tf.errors.InvalidArgumentError, label="length"),
        Row("DecodePaddedRaw", lambda s: tf.io.decode_raw(s, tf.uint8, fixed_length=3), (RAW,)),
        Row("DecodeBase64", tf.io.decode_base64, (B64,)),
        Row("DecodeBase64", tf.io.decode_base64, (np.array([b"@@@"], dtype=object),),
            raises=tf.errors.InvalidArgumentError, label="bad"),
        Row("EncodeBase64", lambda s: tf.io.encode_base64(s, pad=True), (RAW,)),
        Row("UnicodeDecode", lambda s: tf.strings.unicode_decode(s, "UTF-8"), (TEXT,)),
        Row("UnicodeDecodeWithOffsets", lambda s: tf.strings.unicode_decode_with_offsets(s, "UTF-8", errors="ignore"),
            (TEXT,)),
        Row("UnicodeEncode", lambda c: tf.strings.unicode_encode(c, "UTF-16-BE"),
            (np.array([[104, 233], [0x110000, 66]], np.int32),)),
        Row("UnicodeEncode", lambda c: tf.strings.unicode_encode(c, "UTF-8", errors="strict"),
            (np.array([0xD800], np.int32),), raises=tf.errors.InvalidArgumentError, label="strict"),
        Row("UnicodeTranscode", lambda s: tf.strings.unicode_transcode(s, "UTF-8", "UTF-16-BE"), (TEXT,)),
        Row("UnicodeTranscode", lambda s: tf.strings.unicode_transcode(s, "UTF-8", "UTF-8", errors="strict"), (TEXT,),
            raises=tf.errors.InvalidArgumentError, label="strict"),
        Row("UnicodeScript", tf.strings.unicode_script, (np.array([[65, 0x416], [-1, 0x4E00]], np.int32),)),
        Row("StringSplit", tf.strings.bytes_split, (TEXT,)),
        Row("StringNGrams", lambda t: tf.strings.ngrams(t, (1, 3), pad_values=("<s>", "</s>"), padding_width=1),
            (TOKENS,), label="padded"),
        Row("Conv3D", conv, (VOLUME, FILTER)),
        Row("Conv3DBackpropInputV2", _grad(conv, 0), (VOLUME, FILTER)),
        Row("Conv3DBackpropFilterV2", _grad(conv, 1), (VOLUME, FILTER)),
        Row("MaxPool3D", pool, (VOLUME,)),
        Row("MaxPool3DGrad", _grad(pool), (VOLUME,)),
        Row("MaxPool3DGradGrad", _grad2(pool), (VOLUME,)),
    ]
