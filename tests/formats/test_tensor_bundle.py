"""TensorFlow's tensor bundle (checkpoint .index + .data files): every dtype round trips, TensorFlow's own files
read back with TensorFlow's values, and damaged files fail as DataLossError naming the file, never otherwise."""
import base64
import os
import random

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats import sorted_table
from eagerflow._src.formats.protos import trackable_object_graph_pb2
from eagerflow._src.formats.tensor_bundle import BundleReader, data_path, index_path, write_bundle

from .tf_recorded import TF_CHECKPOINT_DATA, TF_CHECKPOINT_INDEX

VALUES = {
    "f32": np.arange(6, dtype=np.float32).reshape(2, 3) / 3,
    "f64": np.array([np.pi, -0.0, np.inf]),
    "f16": np.array([1.5, 65504], np.float16),
    "i8": np.array([-128, 127], np.int8), "i16": np.array([-3], np.int16), "i32": np.int32(7),
    "i64": np.array([[2 ** 40]], np.int64), "u8": np.array([255], np.uint8), "u16": np.array([65535], np.uint16),
    "u32": np.array([2 ** 32 - 1], np.uint32), "u64": np.array([2 ** 64 - 1], np.uint64),
    "bool": np.array([True, False]), "c64": np.array([1 + 2j], np.complex64), "c128": np.array([-1j]),
    "str": np.array([[b"hi", b""], ["é".encode(), b"x" * 300]], object),
    "empty": np.zeros((0, 4), np.float32), "scalar_str": np.array(b"one", object),
}


def test_every_dtype_round_trips(tmp_path):
    prefix = str(tmp_path / "ck")
    write_bundle(prefix, dict(VALUES, bf16=tf.constant([1.5, -2.0], tf.bfloat16)))
    reader = BundleReader(prefix)
    assert reader.keys() == sorted(list(VALUES) + ["bf16"])
    for key, value in VALUES.items():
        value = np.asarray(value)
        got = reader.read(key)
        assert reader.shape(key) == list(value.shape), key
        assert got.shape == value.shape, key
        if value.dtype == object:
            assert reader.dtype(key) == tf.string and got.tolist() == value.tolist(), key
        else:
            assert got.dtype == value.dtype and np.array_equal(got, value), key
    assert reader.dtype("bf16") == tf.bfloat16
    assert reader.read("bf16").astype(np.float32).tolist() == [1.5, -2.0]
    assert sorted(os.listdir(tmp_path)) == ["ck.data-00000-of-00001", "ck.index"]  # no temporary left


def _tf_checkpoint(tmp_path):
    prefix = str(tmp_path / "tfsmall")
    with open(index_path(prefix), "wb") as fh:
        fh.write(base64.b64decode("".join(TF_CHECKPOINT_INDEX)))
    with open(data_path(prefix), "wb") as fh:
        fh.write(base64.b64decode("".join(TF_CHECKPOINT_DATA)))
    return prefix


def test_a_checkpoint_written_by_tensorflow_reads_with_its_values(tmp_path):
    reader = BundleReader(_tf_checkpoint(tmp_path))
    key = "{}/.ATTRIBUTES/VARIABLE_VALUE".format
    assert reader.keys() == ["_CHECKPOINTABLE_OBJECT_GRAPH"] + [key(n) for n in ("b", "h", "i", "st", "w")]
    assert reader.read(key("w")).tolist() == [[0.0, 0.25], [0.5, 0.75]]
    assert reader.read(key("st")).tolist() == [b"ab", b"", "é".encode()]
    assert reader.read(key("i")).dtype == np.int64 and int(reader.read(key("i"))) == -7
    assert reader.read(key("h")).astype(np.float32).tolist() == [2.5, -1.0]
    assert reader.read(key("b")).tolist() == [True, False]
    graph = trackable_object_graph_pb2.TrackableObjectGraph.FromString(
        reader.read("_CHECKPOINTABLE_OBJECT_GRAPH")[()])
    assert sorted(child.local_name for child in graph.nodes[0].children) == ["b", "h", "i", "st", "w"]
    w_node = graph.nodes[next(c.node_id for c in graph.nodes[0].children if c.local_name == "w")]
    assert [(a.name, a.checkpoint_key) for a in w_node.attributes] == [("VARIABLE_VALUE", key("w"))]


def test_missing_files_raise_not_found(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for"):
        BundleReader(str(tmp_path / "nothing"))
    prefix = _tf_checkpoint(tmp_path)
    os.unlink(data_path(prefix))
    with pytest.raises(tf.errors.NotFoundError, match="data file is missing"):
        BundleReader(prefix).read("w/.ATTRIBUTES/VARIABLE_VALUE")


def test_a_failed_write_keeps_the_previous_bundle(tmp_path):
    prefix = str(tmp_path / "ck")
    write_bundle(prefix, {"a": np.ones(3, np.float32)})
    with pytest.raises(TypeError, match="cannot be saved"):
        write_bundle(prefix, {"a": np.zeros(3, np.float32), "r": (np.zeros(()), tf.resource)})
    assert BundleReader(prefix).read("a").tolist() == [1.0, 1.0, 1.0]
    assert sorted(os.listdir(tmp_path)) == ["ck.data-00000-of-00001", "ck.index"]


def _rewrite_entry(prefix, key, **fields):
    """Rewrite one entry of the index with some fields changed (a valid table with a lying entry)."""
    from eagerflow._src.formats.protos import tensor_bundle_pb2

    with open(index_path(prefix), "rb") as fh:
        table = sorted_table.read_table(fh.read(), "x")
    entry = tensor_bundle_pb2.BundleEntryProto.FromString(table[key.encode()])
    for name, value in fields.items():
        if name == "shape":
            entry.shape.Clear()
            for size in value:
                entry.shape.dim.add(size=size)
        else:
            setattr(entry, name, value)
    table[key.encode()] = entry.SerializeToString()
    with open(index_path(prefix), "wb") as fh:
        fh.write(sorted_table.build_table(sorted(table.items())))


@pytest.mark.parametrize("fields, words", [
    ({"shape": [10 ** 6, 10 ** 6]}, "needs 4000000000000 bytes"),  # refused before allocating
    ({"offset": 10 ** 9}, "claims bytes"),
    ({"shard_id": 3}, "data shard 3 of 1"),
    ({"crc32c": 12345}, "checksum of tensor"),
    ({"shape": [-1]}, "negative dimension"),
])
def test_an_entry_that_lies_is_data_loss_naming_the_file(tmp_path, fields, words):
    prefix = str(tmp_path / "ck")
    write_bundle(prefix, {"a": np.arange(4, dtype=np.float32)})
    _rewrite_entry(prefix, "a", **fields)
    with pytest.raises(tf.errors.DataLossError, match=words) as caught:
        BundleReader(prefix).read("a")
    assert "ck." in str(caught.value)


def test_a_string_tensor_claiming_more_elements_than_bytes_is_refused(tmp_path):
    prefix = str(tmp_path / "ck")
    write_bundle(prefix, {"s": np.array([b"ab", b"c"], object)})
    _rewrite_entry(prefix, "s", shape=[10 ** 9])
    with pytest.raises(tf.errors.DataLossError, match="claims 1000000000 strings"):
        BundleReader(prefix).read("s")


def test_random_damage_is_data_loss_or_harmless(tmp_path):
    """Flip, cut and overwrite bytes of both files: every read returns the saved values or raises
    DataLossError/NotFoundError, never another exception."""
    source = tmp_path / "src"
    write_bundle(str(source / "ck"), {k: v for k, v in VALUES.items() if k in ("f32", "str", "i64", "bool")})
    files = {name: (source / name).read_bytes() for name in ("ck.index", "ck.data-00000-of-00001")}
    expected = BundleReader(str(source / "ck")).read_all()
    rng = random.Random(0)
    for trial in range(int(os.environ.get("EAGERFLOW_FUZZ_TRIALS", "300"))):
        folder = tmp_path / f"t{trial % 4}"
        folder.mkdir(exist_ok=True)
        damaged = rng.choice(list(files))
        for name, raw in files.items():
            raw = bytearray(raw)
            if name == damaged:
                how = rng.random()
                if how < 0.6:
                    for _ in range(rng.randint(1, 4)):
                        raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
                elif how < 0.8:
                    del raw[rng.randrange(len(raw)):]
                else:
                    at = rng.randrange(len(raw))
                    raw[at:at + 8] = rng.randbytes(8)
            (folder / name).write_bytes(bytes(raw))
        try:
            got = BundleReader(str(folder / "ck")).read_all()
        except (tf.errors.DataLossError, tf.errors.NotFoundError):
            continue
        assert got.keys() == expected.keys()
        for key in got:
            assert got[key].tolist() == expected[key].tolist(), (trial, key)
