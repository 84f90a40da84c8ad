"""Sharded and sliced tensor bundles: TensorFlow's own sharded checkpoint (MaxShardSizePolicy) and a tf.compat.v1
partitioned variable read back whole with TensorFlow's values; slice keys byte-identical to TensorFlow's; our
writer's shards read back; an index whose slices lie is DataLossError naming the file."""
import base64
import os
import random

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.formats import sorted_table, tensor_slices
from eagerflow._src.formats.protos import tensor_bundle_pb2
from eagerflow._src.formats.tensor_bundle import BundleReader, index_path, write_bundle

from .tf_recorded_slices import TF_SLICED_FILES

KEY = "{}/.ATTRIBUTES/VARIABLE_VALUE".format


def _recorded(tmp_path, folder):
    for name, text in TF_SLICED_FILES.items():
        if name.startswith(folder + "/"):
            path = tmp_path / name
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(base64.b64decode("".join(text)))
    return str(tmp_path / folder / ("ck" if folder == "sh" else "model"))


def test_tensorflows_sharded_checkpoint_reads_whole(tmp_path):
    reader = BundleReader(_recorded(tmp_path, "sh"))
    assert reader.num_shards == 4
    assert reader.keys() == ["_CHECKPOINTABLE_OBJECT_GRAPH", KEY("m"), KEY("n"), KEY("s")]  # no slice keys
    assert reader.shape(KEY("m")) == [3, 4] and reader.dtype(KEY("m")) == tf.float32
    np.testing.assert_array_equal(reader.read(KEY("m")), np.arange(12, dtype=np.float32).reshape(3, 4) / 4)
    assert reader.read(KEY("s")).tolist() == [b"ab", b"cde", b""]
    assert int(reader.read(KEY("n"))) == -5


def test_a_partitioned_variable_reads_whole_through_load_checkpoint(tmp_path):
    prefix = _recorded(tmp_path, "part")
    assert tf.train.list_variables(prefix) == [("emb", [5, 2])]
    np.testing.assert_array_equal(tf.train.load_variable(prefix, "emb"), np.arange(10, dtype=np.float32).reshape(5, 2))


@pytest.mark.parametrize("name, extents, recorded", [  # keys TensorFlow 2.21 wrote (tf_recorded_slices and others)
    ("emb", [(0, 3), (0, 2)], b"\x00emb\x00\x01\x01\x02\x80\x83\x80\x82"),
    ("emb", [(3, 2), (0, 2)], b"\x00emb\x00\x01\x01\x02\x83\x82\x80\x82"),
    ("v2/.ATTRIBUTES/VARIABLE_VALUE", [(148, 53)], b"\x00v2/.ATTRIBUTES/VARIABLE_VALUE\x00\x01\x01\x01\xc0\x94\xb5"),
    ("mid", [(10000, 10000)], b"\x00mid\x00\x01\x01\x01\xe0'\x10\xe0'\x10"),
    ("big", [(0, 100000)], b"\x00big\x00\x01\x01\x01\x80\xe1\x86\xa0"),
])
def test_slice_keys_are_tensorflows(name, extents, recorded):
    assert tensor_slices.slice_key(name, extents) == recorded


def test_signed_numbers_keep_their_order_as_bytes():
    rng = random.Random(3)
    numbers = [-1, 0, 63, 64, -64, -65, 2 ** 62, -(2 ** 63), 2 ** 63 - 1] + \
        [rng.randrange(-(2 ** 63), 2 ** 63) >> rng.randrange(64) for _ in range(400)]
    encoded = {n: tensor_slices._signed(n) for n in numbers}
    assert encoded[-1] == b"\x7f" and encoded[0] == b"\x80"
    assert sorted(numbers) == sorted(numbers, key=encoded.__getitem__)
    assert all(1 <= len(e) <= 10 for e in encoded.values())


def test_our_sharded_writer_reads_back(tmp_path):
    values = {"a": np.arange(60, dtype=np.float32).reshape(6, 10), "b": np.arange(7, dtype=np.int64),
              "s": np.array([b"x" * 90, b"y"], object), "z": np.float64(2.5), "e": np.zeros((0, 3), np.int32)}
    prefix = str(tmp_path / "ck")
    write_bundle(prefix, values, max_shard_size=100)
    files = sorted(os.listdir(tmp_path))
    shards = len(files) - 1
    assert shards > 2 and files[-1] == "ck.index"
    assert files[:-1] == [f"ck.data-{k:05d}-of-{shards:05d}" for k in range(shards)]
    assert all(os.path.getsize(tmp_path / f) <= 100 for f in files[:-1])
    reader = BundleReader(prefix)
    assert reader.keys() == sorted(values)
    for key, value in values.items():
        got = reader.read(key)
        assert reader.shape(key) == list(np.shape(value)), key
        assert got.tolist() == np.asarray(value).tolist(), key
    table = sorted_table.read_table(open(index_path(prefix), "rb").read(), "ck.index")
    whole = tensor_bundle_pb2.BundleEntryProto.FromString(table[b"a"])
    assert [[(e.start, e.length) for e in s.extent] for s in whole.slices] == [[(0, 2), (0, 10)], [(2, 2), (0, 10)],
                                                                              [(4, 2), (0, 10)]]
    assert tensor_slices.slice_key("a", [(2, 2), (0, 10)]) in table


def test_checkpoint_options_shard_a_checkpoint(tmp_path):
    ck = tf.train.Checkpoint(w=tf.Variable(np.arange(40, dtype=np.float32).reshape(10, 4)))
    options = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(max_shard_size=48))
    prefix = ck.write(str(tmp_path / "ck"), options=options)
    assert len([f for f in os.listdir(tmp_path) if ".data-" in f]) > 3
    other = tf.train.Checkpoint(w=tf.Variable(np.zeros((10, 4), np.float32)))
    other.read(prefix).assert_consumed()
    np.testing.assert_array_equal(other.w.numpy(), np.arange(40, dtype=np.float32).reshape(10, 4))
    assert tf.train.experimental.MaxShardSizePolicy(5).description == "Split tensors into shards with a max shard size."
    ck.write(str(tmp_path / "one"), options=tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.ShardByTaskPolicy()))
    assert os.path.exists(tmp_path / "one.data-00000-of-00001")


def _rewrite_index(prefix, change):
    path = index_path(prefix)
    table = sorted_table.read_table(open(path, "rb").read(), path)
    change(table)
    with open(path, "wb") as fh:
        fh.write(sorted_table.build_table(sorted(table.items())))


def _entry_change(key, edit):
    def change(table):
        entry = tensor_bundle_pb2.BundleEntryProto.FromString(table[key])
        edit(entry)
        table[key] = entry.SerializeToString()
    return change


def _drop_piece(table):
    del table[tensor_slices.slice_key("a", [(2, 2), (0, 10)])]


def _amplify(table):  # many slices all naming the bytes of one stored piece
    whole = tensor_bundle_pb2.BundleEntryProto.FromString(table[b"a"])
    piece = table[tensor_slices.slice_key("a", [(0, 2), (0, 10)])]
    whole.shape.dim[0].size = 2000
    del whole.slices[:]
    for start in range(0, 2000, 2):
        whole.slices.add().extent.extend([tensor_bundle_pb2.TensorSliceProto.Extent(start=start, length=2),
                                          tensor_bundle_pb2.TensorSliceProto.Extent(start=0, length=10)])
        table[tensor_slices.slice_key("a", [(start, 2), (0, 10)])] = piece
    table[b"a"] = whole.SerializeToString()


@pytest.mark.parametrize("change, words", [
    (_drop_piece, "has no entry"),
    (_entry_change(b"a", lambda e: e.slices.pop()), "do not cover"),
    (_entry_change(b"a", lambda e: setattr(e.slices[0].extent[0], "length", 9)), "outside a dimension"),
    (_entry_change(b"a", lambda e: e.slices[0].extent.pop()), "rank"),
    (_entry_change(tensor_slices.slice_key("a", [(0, 2), (0, 10)]), lambda e: setattr(e, "dtype", 2)),
     "does not match"),
    (_amplify, "more than its data files hold"),
])
def test_slices_that_lie_are_data_loss_naming_the_file(tmp_path, change, words):
    prefix = str(tmp_path / "ck")
    write_bundle(prefix, {"a": np.arange(60, dtype=np.float32).reshape(6, 10)}, max_shard_size=80)
    _rewrite_index(prefix, change)
    with pytest.raises(tf.errors.DataLossError, match=words) as info:
        BundleReader(prefix).read("a")
    assert "ck.index" in str(info.value)
