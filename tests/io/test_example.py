"""tf.train.Example & co. and tf.io.parse_example / parse_single_example against TensorFlow 2.21.

TensorFlow writes a Features map's entries in a hash order that changes between runs (two runs of
the same program gave different bytes), so byte equality is checked on single-feature messages and,
for several features, entry by entry."""
import numpy as np
import pytest

import eagerflow as tf
import google.protobuf
from google.protobuf.message import DecodeError

from ..summary.wire import fields

T = tf.train


def _example():
    return T.Example(features=T.Features(feature={
        "name": T.Feature(bytes_list=T.BytesList(value=[b"cat", b"dog"])),
        "score": T.Feature(float_list=T.FloatList(value=[1.5, -2.0])),
        "ids": T.Feature(int64_list=T.Int64List(value=[1, -7, 300])),
        "age": T.Feature(int64_list=T.Int64List(value=[42])),
    }))


# Recorded from TensorFlow 2.21 (one run's order of the map entries).
TF_BYTES = bytes.fromhex(
    "0a550a140a046e616d65120c0a0a0a036361740a03646f670a0c0a0361676512051a030a012a0a180a0369647312111a0f0a0d01f9ff"
    "ffffffffffffff01ac020a150a0573636f7265120c120a0a080000c03f000000c0")
TF_ENTRIES = {  # each map entry of that Example, as TensorFlow wrote it
    "name": "0a140a046e616d65120c0a0a0a036361740a03646f67", "age": "0a0c0a0361676512051a030a012a",
    "ids": "0a180a0369647312111a0f0a0d01f9ffffffffffffffff01ac02",
    "score": "0a150a0573636f7265120c120a0a080000c03f000000c0"}


def _entries(example_bytes):
    """Each map entry of an Example's features, re-framed as the field-1 record it was (tag 0a, length)."""
    (features,) = fields(example_bytes)[1]
    return sorted((b"\x0a" + bytes([len(raw)]) + raw).hex() for raw in fields(features)[1])


def test_serialized_bytes_match_tensorflow():
    data = _example().SerializeToString()
    assert len(data) == len(TF_BYTES) and data[:2] == TF_BYTES[:2]
    assert _entries(data) == sorted(TF_ENTRIES.values()) == _entries(TF_BYTES)
    assert T.Example(features=T.Features(feature={"age": T.Feature(int64_list=T.Int64List(value=[42]))})) \
        .SerializeToString().hex() == "0a0e" + TF_ENTRIES["age"]
    assert T.Feature(int64_list=T.Int64List(value=[-1])).SerializeToString().hex() == "1a0c0a0affffffffffffffffff01"
    assert T.Feature(float_list=T.FloatList(value=[])).SerializeToString().hex() == "1200"
    assert T.Feature().SerializeToString() == b"" and T.Example().SerializeToString() == b""


def test_parsing_tensorflows_bytes():
    ex = T.Example.FromString(TF_BYTES)
    assert ex == _example()
    assert ex.features.feature["ids"].int64_list.value[:] == [1, -7, 300]
    assert ex.features.feature["name"].WhichOneof("kind") == "bytes_list"
    assert sorted(ex.features.feature.keys()) == ["age", "ids", "name", "score"]
    fresh = T.Example()
    assert (fresh.ParseFromString(TF_BYTES), len(fresh.features.feature)) == (87, 4)
    assert T.FloatList(value=[0.1]).value[0] == 0.10000000149011612  # stored as float32


def test_building_by_mutation():
    e = T.Example()
    e.features.feature["k"].int64_list.value.append(5)
    e.features.feature["b"].bytes_list.value.extend([b"x"])
    # TensorFlow wrote the entries k then b: '0a18' + k entry + b entry
    assert e.SerializeToString()[:2].hex() == "0a18"
    assert _entries(e.SerializeToString()) == sorted(["0a0a0a016b12051a030a0105", "0a0a0a016212050a030a0178"])


def test_text_form():
    text = str(T.Example(features=T.Features(feature={"score": T.Feature(float_list=T.FloatList(value=[1.5, -2.0]))})))
    assert text == ('features {\n  feature {\n    key: "score"\n    value {\n      float_list {\n        value: 1.5\n'
                    '        value: -2\n      }\n    }\n  }\n}\n')


def test_type_and_corruption_errors():
    with pytest.raises(TypeError, match="^'float' object cannot be interpreted as an integer$"):
        T.Int64List(value=[1.5])
    with pytest.raises(TypeError, match="^expected bytes, str found$"):
        T.BytesList(value=["str"])
    # The message is the protobuf runtime's (TensorFlow's too): TensorFlow 2.21's, with protobuf 7, is
    # "Error parsing message with type 'tensorflow.Example': Wire format was corrupt"; protobuf 5.28-6 stop
    # after the type name, older releases after "message".
    with pytest.raises(DecodeError, match="^Error parsing message") as caught:
        T.Example.FromString(b"\xff\xff\x00garbage")
    if int(google.protobuf.__version__.split(".")[0]) >= 7:
        assert str(caught.value) == "Error parsing message with type 'tensorflow.Example': Wire format was corrupt"
    for bad in (b"\x0a\x05", b"\x0a", b"\x0b\x00", b"\x0a\x03\x0a\x01", b"\x80" * 11):
        with pytest.raises(DecodeError):
            T.Example.FromString(bad)


FEATURES = {"age": tf.io.FixedLenFeature([], tf.int64), "score": tf.io.FixedLenFeature([2], tf.float32),
            "name": tf.io.FixedLenFeature([2], tf.string),
            "missing": tf.io.FixedLenFeature([], tf.int64, default_value=-1)}


def test_parse_single_example_and_batch():
    out = tf.io.parse_single_example(TF_BYTES, FEATURES)
    assert {k: v.numpy().tolist() for k, v in out.items()} == {
        "age": 42, "missing": -1, "name": [b"cat", b"dog"], "score": [1.5, -2.0]}
    assert (out["age"].dtype, out["score"].dtype, out["name"].dtype) == (tf.int64, tf.float32, tf.string)
    batch = tf.io.parse_example([TF_BYTES, _example().SerializeToString()], FEATURES)
    assert batch["age"].numpy().tolist() == [42, 42] and batch["name"].shape == (2, 2)
    assert tf.io.parse_single_example(TF_BYTES, {"ids": tf.io.FixedLenFeature([3, 1], tf.int64)})[
        "ids"].numpy().tolist() == [[1], [-7], [300]]
    assert tf.io.parse_example([TF_BYTES], {"m": tf.io.FixedLenFeature([2], tf.int64, default_value=[1, 2])})[
        "m"].numpy().tolist() == [[1, 2]]
    assert repr(tf.io.FixedLenFeature([], tf.int64)) == "FixedLenFeature(shape=[], dtype=tf.int64, default_value=None)"


@pytest.mark.parametrize("parse, features, message", [
    (tf.io.parse_single_example, {"zzz": tf.io.FixedLenFeature([], tf.int64)},
     "Feature: zzz (data type: int64) is required but could not be found."),
    (tf.io.parse_example, {"zzz": tf.io.FixedLenFeature([], tf.int64)},
     "Name: <unknown>, Feature: zzz (data type: int64) is required but could not be found."),
    (tf.io.parse_single_example, {"age": tf.io.FixedLenFeature([], tf.float32)},
     "Key: age.  Data types don't match. Data type: int64 but expected type: float"),
    (tf.io.parse_single_example, {"ids": tf.io.FixedLenFeature([2], tf.int64)},
     "Key: ids.  Can't parse serialized Example: Some int64_list slice was not parsed."),
    (tf.io.parse_example, {"ids": tf.io.FixedLenFeature([2], tf.int64)},
     "Name: <unknown>, Key: ids, Index: 0.  Number of int64 values != expected.  Values size: 3 but output shape: [2]"),
])
def test_parse_errors_eager_and_traced(parse, features, message):
    serialized = TF_BYTES if parse is tf.io.parse_single_example else [TF_BYTES]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        parse(serialized, features)
    assert str(info.value) == message + " [Op:ParseExampleV2]"
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.function(lambda s: parse(s, features))(tf.constant(serialized))
    assert message in str(info.value)


def test_bad_requests():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tdense' of int32 is not in the list of "
                                                            "allowed values: float, int64, string"):
        tf.io.parse_single_example(TF_BYTES, {"age": tf.io.FixedLenFeature([], tf.int32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 1 values, but the "
                                                            "requested shape has 2"):
        tf.io.parse_example([TF_BYTES], {"m": tf.io.FixedLenFeature([2], tf.int64, default_value=5)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'sparse_types' of int32 is not in the "
                                                            "list of allowed values: float, int64, string"):
        tf.io.parse_single_example(TF_BYTES, {"ids": tf.io.VarLenFeature(tf.int32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example input"):
        tf.io.parse_single_example(b"\xff\xff\x00garbage", {"age": tf.io.FixedLenFeature([], tf.int64)})


def test_traced_shapes_and_pipeline(tmp_path):
    cf = tf.function(lambda x: tf.io.parse_example(x, FEATURES)).get_concrete_function(
        tf.TensorSpec([None], tf.string))
    assert {k: v.shape.as_list() for k, v in cf.structured_outputs.items()} == {
        "age": [None], "missing": [None], "name": [None, 2], "score": [None, 2]}
    path = str(tmp_path / "ex.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        for age in (3, 4, 5):
            w.write(T.Example(features=T.Features(feature={
                "age": T.Feature(int64_list=T.Int64List(value=[age]))})).SerializeToString())
    ds = tf.data.TFRecordDataset(path).map(
        lambda s: tf.io.parse_single_example(s, {"age": tf.io.FixedLenFeature([], tf.int64)})["age"]).batch(2)
    assert [b.numpy().tolist() for b in ds] == [[3, 4], [5]]
