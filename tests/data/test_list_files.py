"""Dataset.list_files and tf.io.matching_files (data/list_files.py, ops/io/matching_files.py) against
TensorFlow 2.21's recorded answers on the same folder."""
import os

import pytest

import eagerflow as tf


@pytest.fixture
def folder(tmp_path):
    for name in ("b.txt", "a.txt", "c.csv"):
        (tmp_path / name).write_text("")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "z.txt").write_text("")
    return str(tmp_path)


def _names(folder, values):
    return [os.path.relpath(v.decode(), folder) for v in values]


def test_matches_as_tensorflow(folder):
    listed = lambda pattern, **kw: _names(folder, tf.data.Dataset.list_files(pattern, **kw).as_numpy_iterator())  # noqa: E731
    assert listed(folder + "/*.txt", shuffle=False) == ["a.txt", "b.txt"]
    assert listed(folder + "/*", shuffle=False) == ["a.txt", "b.txt", "c.csv", "sub"]
    assert listed([folder + "/*.csv", folder + "/*.txt"], shuffle=False) == ["a.txt", "b.txt", "c.csv"]
    assert listed(folder + "/*/*.txt", shuffle=False) == ["sub/z.txt"]
    tf.random.set_seed(None)
    assert listed(folder + "/*.txt", seed=4) == ["b.txt", "a.txt"]  # TensorFlow's shuffle for the seed
    assert _names(folder, tf.io.matching_files(folder + "/[ab].txt").numpy()) == ["a.txt", "b.txt"]
    ds = tf.data.Dataset.list_files(folder + "/*.txt")
    assert ds.element_spec == tf.TensorSpec([], tf.string) and int(ds.cardinality()) == 2


def test_no_match_as_tensorflow(folder):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        list(tf.data.Dataset.list_files(folder + "/*.zzz"))
    assert str(info.value) == ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
                               f"b'No files matched pattern: {folder}/*.zzz'")


def test_matching_files_in_a_function(folder):
    match = tf.function(lambda p: tf.io.matching_files(p))
    assert _names(folder, match(tf.constant(folder + "/*.txt")).numpy()) == ["a.txt", "b.txt"]
