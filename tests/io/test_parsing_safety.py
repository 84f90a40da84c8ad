"""Parsing untrusted bytes: tf.train.Example.FromString and tf.io.parse_* on random and mutated
input raise only their clean errors (DecodeError / InvalidArgumentError), never anything else,
and the ops refuse jit_compile as TensorFlow's XLA does (no string type)."""
import random

import pytest

import eagerflow as tf
from google.protobuf.message import DecodeError

T = tf.train
GOOD = T.Example(features=T.Features(feature={
    "n": T.Feature(int64_list=T.Int64List(value=[1, -7, 300])),
    "f": T.Feature(float_list=T.FloatList(value=[0.5])),
    "b": T.Feature(bytes_list=T.BytesList(value=[b"xyz"]))})).SerializeToString()


def _mutations(count, seed=0):
    rng = random.Random(seed)
    for _ in range(count):
        data = bytearray(GOOD)
        for _ in range(rng.randint(1, 4)):
            choice = rng.random()
            if choice < 0.4 and data:
                data[rng.randrange(len(data))] = rng.randrange(256)
            elif choice < 0.7 and data:
                del data[rng.randrange(len(data)):]
            else:
                data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
        yield bytes(data)
    for _ in range(count):
        yield bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))


def test_from_string_raises_only_decode_error():
    outcomes = {"parsed": 0, "refused": 0}
    for data in _mutations(400):
        try:
            T.Example.FromString(data)
            outcomes["parsed"] += 1
        except DecodeError:
            outcomes["refused"] += 1
    assert outcomes["parsed"] and outcomes["refused"]  # both kinds of input were exercised


def test_parse_example_raises_only_invalid_argument():
    features = {"n": tf.io.FixedLenFeature([3], tf.int64, default_value=[0, 0, 0])}
    for data in _mutations(150, seed=1):
        try:
            tf.io.parse_single_example(data, features)
        except tf.errors.InvalidArgumentError:
            pass


@pytest.mark.parametrize("fn, arg", [
    (lambda r: tf.io.decode_csv(r, [[0]]), ["1"]),
    (lambda s: tf.io.parse_example(s, {"n": tf.io.FixedLenFeature([3], tf.int64)}), [GOOD]),
])
def test_jit_compile_refuses(fn, arg):
    pytest.importorskip("jax")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations when trying to compile"):
        tf.function(fn, jit_compile=True)(tf.constant(arg))
