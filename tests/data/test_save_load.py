"""Dataset.save / Dataset.load: eagerflow's own documented format (data/save_load.py), written atomically,
loaded without pickle; structures, shards and cardinalities as TensorFlow 2.21 gives them back."""
import collections
import gzip
import json
import os

import numpy as np
import pytest

import eagerflow as tf

Dataset = tf.data.Dataset
Point = collections.namedtuple("Point", "x y")


def _mixed():
    return Dataset.from_tensor_slices({"a": np.arange(6, dtype=np.int64),
                                       "b": [b"x", b"yy", b"", b"z", b"w", b"\x00\xff"],
                                       "c": np.arange(12, dtype=np.float32).reshape(6, 2)})


def _ragged_points():
    return Dataset.range(7).map(lambda x: Point(x, tf.fill([x], x)))


def test_round_trip_of_dicts_strings_and_floats(tmp_path):
    path = str(tmp_path / "saved")
    _mixed().save(path)
    loaded = Dataset.load(path)
    assert loaded.element_spec == _mixed().element_spec
    assert int(loaded.cardinality()) == 6  # TF 2.21: the saved count
    got = list(loaded.as_numpy_iterator())
    assert [int(e["a"]) for e in got] == list(range(6))
    assert [bytes(e["b"]) for e in got] == [b"x", b"yy", b"", b"z", b"w", b"\x00\xff"]
    np.testing.assert_array_equal(np.stack([e["c"] for e in got]), np.arange(12, dtype=np.float32).reshape(6, 2))
    assert sorted(os.listdir(path)) == ["dataset_spec.json", "shard_0.npys"]
    assert [int(v) for v in Dataset.load(path, element_spec=_mixed().element_spec).map(lambda e: e["a"])] == \
        list(range(6))


def test_namedtuples_variable_shapes_and_batches(tmp_path):
    path = str(tmp_path / "points")
    _ragged_points().save(path)
    loaded = Dataset.load(path)
    assert type(loaded.element_spec).__name__ == "Point"
    assert loaded.element_spec.y.shape.as_list() == [None]
    assert [e.y.numpy().tolist() for e in loaded][:3] == [[], [1], [2, 2]]
    Dataset.range(5).batch(2).save(str(tmp_path / "batches"))
    batches = Dataset.load(str(tmp_path / "batches"))
    assert batches.element_spec.shape.as_list() == [None]  # TF 2.21
    assert [b.tolist() for b in batches.as_numpy_iterator()] == [[0, 1], [2, 3], [4]]
    Dataset.range(3).map(lambda x: (x, tf.cast(x, tf.bfloat16))).save(str(tmp_path / "tuple"))
    pairs = Dataset.load(str(tmp_path / "tuple"))
    assert [s.dtype for s in pairs.element_spec] == [tf.int64, tf.bfloat16]
    assert [float(b) for _, b in pairs] == [0.0, 1.0, 2.0]


def test_shard_func_and_reader_func(tmp_path):
    path = str(tmp_path / "sharded")
    _ragged_points().save(path, shard_func=lambda p: p.x % 3)
    assert sorted(os.listdir(path)) == ["dataset_spec.json", "shard_0.npys", "shard_1.npys", "shard_2.npys"]
    loaded = Dataset.load(path)
    assert int(loaded.cardinality()) == 7
    # shards one after another: TF 2.21 gives this order with reader_func=lambda d: d.flat_map(lambda x: x)
    assert [int(p.x) for p in loaded] == [0, 3, 6, 1, 4, 2, 5]
    flat = Dataset.load(path, reader_func=lambda shards: shards.flat_map(lambda d: d))
    assert [int(p.x) for p in flat] == [0, 3, 6, 1, 4, 2, 5]
    mixed = Dataset.load(path, reader_func=lambda shards: shards.interleave(lambda d: d, cycle_length=3))
    assert [int(p.x) for p in mixed] == list(range(7))
    with pytest.raises(tf.errors.InvalidArgumentError, match="`shard_func` must return a scalar int64."):
        Dataset.range(3).save(str(tmp_path / "bad"), shard_func=lambda x: tf.cast(x, tf.int32))
    assert not os.path.exists(str(tmp_path / "bad"))


def test_gzip_and_the_experimental_names(tmp_path):
    path = str(tmp_path / "zipped")
    _ragged_points().save(path, compression="GZIP")
    assert sorted(os.listdir(path)) == ["dataset_spec.json", "shard_0.npys.gz"]
    with gzip.open(os.path.join(path, "shard_0.npys.gz")) as f:
        assert f.read(6) == b"\x93NUMPY"  # .npy records inside one gzip stream
    assert [int(p.x) for p in Dataset.load(path)] == list(range(7))
    assert [int(p.x) for p in Dataset.load(path, compression="GZIP")] == list(range(7))
    tf.data.experimental.save(Dataset.range(3), str(tmp_path / "exp"))
    assert [int(v) for v in tf.data.experimental.load(str(tmp_path / "exp"))] == [0, 1, 2]
    with pytest.raises(ValueError, match="`compression` must be None or 'GZIP'"):
        Dataset.range(3).save(str(tmp_path / "bz"), compression="BZ2")


def test_saving_again_replaces_the_directory_atomically(tmp_path):
    path = str(tmp_path / "again")
    _ragged_points().save(path, shard_func=lambda p: p.x % 3)
    Dataset.range(2).save(path)
    assert sorted(os.listdir(path)) == ["dataset_spec.json", "shard_0.npys"]
    assert [int(v) for v in Dataset.load(path)] == [0, 1]

    def failing(x):
        return tf.debugging.check_numerics(1.0 / tf.cast(x - 1, tf.float32), "boom")
    with pytest.raises(tf.errors.InvalidArgumentError):
        Dataset.range(3).map(failing).save(path)
    assert [int(v) for v in Dataset.load(path)] == [0, 1]  # the previous save, intact
    assert sorted(os.listdir(tmp_path)) == ["again"]  # no temporary left behind


def test_loading_is_safe_and_checked(tmp_path):
    with pytest.raises(tf.errors.NotFoundError, match="tf.data snapshot element_spec file not found"):
        Dataset.load(str(tmp_path / "nothing"))
    path = str(tmp_path / "saved")
    _mixed().save(path)
    spec_file = os.path.join(path, "dataset_spec.json")
    meta = json.load(open(spec_file))
    assert meta["format"] == "eagerflow.data.save" and meta["cardinality"] == 6

    def rewrite(change):
        edited = json.loads(json.dumps(meta))
        change(edited)
        with open(spec_file, "w") as f:
            json.dump(edited, f)

    rewrite(lambda m: m["shards"][0].update(file="../../etc/passwd"))
    with pytest.raises(tf.errors.DataLossError, match="shard file name"):
        Dataset.load(path)
    rewrite(lambda m: m["element_spec"]["dict"][0][1]["tensor"].update(dtype="resource"))
    with pytest.raises(tf.errors.DataLossError, match="not valid"):
        Dataset.load(path)
    rewrite(lambda m: m["element_spec"]["dict"][0][1]["tensor"].update(dtype="int32"))
    with pytest.raises(tf.errors.DataLossError, match="has dtype int64, expected int32"):
        list(Dataset.load(path))
    rewrite(lambda m: None)
    with open(os.path.join(path, "shard_0.npys"), "r+b") as f:  # an object (pickled) array in place of a record
        f.truncate(0)
        np.lib.format.write_array(f, np.array([{"code": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(tf.errors.DataLossError, match="could not be read"):
        list(Dataset.load(path))
    with pytest.raises(ValueError, match="does not match the saved element spec"):
        Dataset.load(path, element_spec=tf.TensorSpec([], tf.int64))
