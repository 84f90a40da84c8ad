"""tf.data.TextLineDataset against TensorFlow 2.21 (values and messages recorded from the oracle)."""
import gzip
import zlib

import numpy as np
import pytest

import eagerflow as tf


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    contents = {"l1.txt": b"a\nb\r\nc\n\nd", "l2.txt": b"", "l3.txt": b"x\n", "l4.txt": b"\n", "l5.txt": b"p\rq\r\n"}
    for name, data in contents.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "g.gz").write_bytes(gzip.compress(b"g1\ng2\n"))
    (tmp_path / "z.z").write_bytes(zlib.compress(b"z1\nz2"))
    return tmp_path


def _lines(ds):
    return [t.numpy() for t in ds]


def test_line_rules(files):
    assert _lines(tf.data.TextLineDataset("l1.txt")) == [b"a", b"b", b"c", b"", b"d"]
    # empty file: no line; "x\n": one; "\n": one empty line; every "\r" dropped
    assert _lines(tf.data.TextLineDataset(["l1.txt", "l2.txt", "l3.txt", "l4.txt", "l5.txt"])) == [
        b"a", b"b", b"c", b"", b"d", b"x", b"", b"pq"]


def test_spec_cardinality_repr(files):
    ds = tf.data.TextLineDataset("l1.txt")
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert ds.cardinality().numpy() == -2
    assert repr(ds) == "<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"


def test_filenames_forms(files):
    assert _lines(tf.data.TextLineDataset(tf.constant(["l3.txt", "l1.txt"]))) == [b"x", b"a", b"b", b"c", b"", b"d"]
    assert _lines(tf.data.TextLineDataset(tf.data.Dataset.from_tensor_slices(["l3.txt", "l5.txt"]))) == [b"x", b"pq"]
    assert _lines(tf.data.TextLineDataset([["l3.txt"]])) == [b"x"]
    with pytest.raises(TypeError, match="^The `filenames` argument must contain `tf.string` elements. Got `tf.int32` "
                                        "elements.$"):
        tf.data.TextLineDataset(3)


def test_missing_file_fails_at_iteration(files):
    ds = tf.data.TextLineDataset("nope.txt")  # building it reads nothing
    with pytest.raises(tf.errors.NotFoundError, match="nope.txt; No such file or directory"):
        _lines(ds)


def test_compression(files):
    assert _lines(tf.data.TextLineDataset("g.gz", compression_type="GZIP")) == [b"g1", b"g2"]
    assert _lines(tf.data.TextLineDataset("z.z", compression_type="ZLIB")) == [b"z1", b"z2"]
    assert _lines(tf.data.TextLineDataset("l3.txt", compression_type="")) == [b"x"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unsupported compression_type."):
        _lines(tf.data.TextLineDataset("z.z", compression_type="LZ4"))
    with pytest.raises(tf.errors.DataLossError, match="inflate\\(\\) failed with error -3: incorrect header check"):
        _lines(tf.data.TextLineDataset("l1.txt", compression_type="GZIP"))


def test_large_compressed_file_streams(files):
    text = b"".join(b"line %d\n" % i for i in range(50000))
    (files / "big.gz").write_bytes(gzip.compress(text))
    lines = _lines(tf.data.TextLineDataset("big.gz", compression_type="GZIP"))
    assert len(lines) == 50000 and lines[0] == b"line 0" and lines[-1] == b"line 49999"


def test_num_parallel_reads_interleaves_as_tensorflow(files):
    ds = tf.data.TextLineDataset(["l1.txt", "l3.txt", "l5.txt"], num_parallel_reads=2)
    assert _lines(ds) == [b"a", b"x", b"b", b"c", b"pq", b"", b"d"]


def test_in_a_pipeline_eager_and_traced(files):
    ds = (tf.data.TextLineDataset(["l1.txt", "l3.txt"]).filter(lambda s: tf.strings.length(s) > 0)
          .map(tf.strings.upper).batch(2))
    expected = [[b"A", b"B"], [b"C", b"D"], [b"X"]]
    assert [list(b.numpy()) for b in ds] == expected

    @tf.function
    def total_length(dataset):
        n = tf.constant(0)
        for batch in dataset:
            n += tf.reduce_sum(tf.strings.length(batch))
        return n

    assert total_length(ds).numpy() == 5
    assert total_length(ds).numpy() == 5  # a fresh pass per call

    @tf.function
    def count_lines():
        n = tf.constant(0)
        for _ in tf.data.TextLineDataset("l1.txt"):
            n += 1
        return n

    assert count_lines().numpy() == 5


def test_keras_fit_on_csv_lines(files):
    rows = "\n".join(f"{x},{2.0 * x + 1.0}" for x in np.linspace(-1, 1, 32)) + "\n"
    (files / "train.csv").write_text(rows)

    def parse(line):
        x, y = tf.io.decode_csv(line, [[0.0], [0.0]])
        return tf.reshape(x, [1]), tf.reshape(y, [1])

    ds = tf.data.TextLineDataset("train.csv").map(parse).batch(8)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="mse")
    history = model.fit(ds, epochs=30, verbose=0)
    assert history.history["loss"][-1] < 1e-3


def test_stacking_string_scalars_keeps_their_bytes():
    # Regression: Pack's scalar fast path nested the 0-d object arrays, so a batch of lines held
    # arrays and tf.strings.length measured 8-byte pointers (ops/array/joining.py).
    packed = tf.stack([tf.constant(b"ab"), tf.constant(b"c")])
    assert list(packed.numpy()) == [b"ab", b"c"]
    assert tf.strings.length(packed).numpy().tolist() == [2, 1]
