"""Differential rows (generated code == eager == reference interpreter) for the tf.strings ops
(ops/strings/elementwise.py), beside test_differential.py. `rows(Row)` builds them with that test's Row class."""
import numpy as np

import eagerflow as tf
from eagerflow._src.ops.strings.hashed_cross import hashed_cross

WORDS = np.array([[b"Hello World ", "  ÄbC  ".encode()], [b"x", b""]], dtype=object)
NUMBERS = np.array([b"1.5", b"  2", b"-3e2"], dtype=object)


def rows(Row):
    S = tf.strings
    return [
        Row("StringLength", lambda s: S.length(s, unit="UTF8_CHAR"), (WORDS,)),
        Row("StringLower", lambda s: S.lower(s, encoding="utf-8"), (WORDS,)),
        Row("StringUpper", S.upper, (WORDS,)),
        Row("StringStrip", S.strip, (WORDS,)),
        Row("StaticRegexFullMatch", lambda s: S.regex_full_match(s, r"H.*"), (WORDS,)),
        Row("RegexFullMatch", lambda s, p: S.regex_full_match(s, p), (WORDS, np.array(b"x|", dtype=object))),
        Row("StaticRegexReplace", lambda s: S.regex_replace(s, r"(l+)", r"<\1>"), (WORDS,)),
        Row("RegexReplace", lambda s, p: S.regex_replace(s, p, "0", replace_global=False),
            (WORDS, np.array(b"o", dtype=object))),
        Row("Substr", lambda s: S.substr(s, [0, 1], [2, 1]), (np.array([b"abc", b"defg"], dtype=object),)),
        Row("Substr", lambda s: S.substr(s, 1, 3), (WORDS,), raises=tf.errors.InvalidArgumentError,
            label="out_of_range"),
        Row("StringJoin", lambda s: S.join([s, "!", s], separator="-"), (WORDS,)),
        Row("ReduceJoin", lambda s: S.reduce_join(s, axis=[0, 1], separator="."), (WORDS,)),
        Row("ReduceJoin", lambda s: S.reduce_join(s, axis=-1, keepdims=True), (WORDS,), label="keepdims"),
        Row("AsString", lambda x: S.as_string(x, precision=3), (np.array([1.5, -2.25], np.float32),)),
        Row("StringToNumber", lambda s: S.to_number(s, out_type=tf.float64), (NUMBERS,)),
        Row("StringToNumber", S.to_number, (np.array([b"1.5x"], dtype=object),),
            raises=tf.errors.InvalidArgumentError, label="bad"),
        Row("StringToHashBucketFast", lambda s: S.to_hash_bucket_fast(s, 7), (WORDS,)),
        Row("StringToHashBucketStrong", lambda s: S.to_hash_bucket_strong(s, 7, key=[1, 2]), (WORDS,)),
        Row("Fingerprint", tf.fingerprint, (WORDS,)),
        Row("Fingerprint", tf.fingerprint, (np.arange(6, dtype=np.int32).reshape(3, 2),), label="int32"),
        Row("HashedCrossStep", lambda s, i: hashed_cross([s, i], 7),
            (np.array([b"x", b"y"], dtype=object), np.array([1, -2], np.int64))),
    ]
