"""tf.lookup static tables (ops/lookup/tables.py, ops/lookup/text_file.py). Expected values, dtypes and error
messages were recorded from TensorFlow 2.21."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf


def _table():
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3]), -1)


@pytest.fixture
def vocab_file(tmp_path):
    path = tmp_path / "v.txt"
    path.write_bytes(b"emerson\t10\nlake\t20\npalmer\t30\n")
    return str(path)


def test_static_hash_table_lookup_any_shape_and_dtypes():
    init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3])
    assert (init.key_dtype, init.value_dtype) == (tf.string, tf.int32)
    t = tf.lookup.StaticHashTable(init, -1)
    assert (t.key_dtype, t.value_dtype) == (tf.string, tf.int32)
    assert t.default_value.dtype == tf.int32 and t.default_value.numpy() == -1
    out = t.lookup(tf.constant([["a", "z"], ["c", "b"]]))
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [[1, -1], [3, 2]])
    assert t[tf.constant("b")].numpy() == 2 and t[tf.constant("b")].shape == ()
    size = t.size()
    assert size.dtype == tf.int64 and size.numpy() == 3
    keys, values = t.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 1), (b"b", 2), (b"c", 3)]
    assert values.dtype == tf.int32


def test_integer_and_float_tables():
    t2 = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
        [1, 2, 3], [1.5, 2.5, 3.5], key_dtype=tf.int64, value_dtype=tf.float64), 0.0)
    assert (t2.key_dtype, t2.value_dtype) == (tf.int64, tf.float64)
    np.testing.assert_array_equal(t2.lookup(tf.constant([3, 4], tf.int64)).numpy(), [3.5, 0.0])
    t3 = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2, 3], [10, 20, 30]), -1)
    assert t3.key_dtype == tf.int32
    np.testing.assert_array_equal(t3.lookup(tf.constant([1, 5])).numpy(), [10, -1])


def test_key_dtype_mismatch_same_error_eager_and_traced():
    t = _table()
    msg = "Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int32'>"
    with pytest.raises(TypeError, match=msg):
        t.lookup(tf.constant([1, 2]))
    with pytest.raises(TypeError, match=msg):
        tf.function(lambda x: t.lookup(x))(tf.constant([1, 2]))
    t2 = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [1.0, 2.0], key_dtype=tf.int64), 0.0)
    with pytest.raises(TypeError, match="must be <dtype: 'int64'>, received: <dtype: 'int32'>"):
        t2.lookup(tf.constant([3, 4], tf.int32))


def test_bad_contents_and_default():
    with pytest.raises(tf.errors.FailedPreconditionError,
                       match="HashTable has different value for same key. Key a has 1 and trying to add value 2"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
    same = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a", "b"], [1, 1, 2]), -1)
    assert same.size().numpy() == 2  # a repeated key with the same value is accepted
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[2\] for value, got \[3\]"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2, 3]), -1)
    init = tf.lookup.KeyValueTensorInitializer(["a"], [1])
    with pytest.raises(TypeError, match="Cannot convert -1.5 to EagerTensor of dtype int32"):
        tf.lookup.StaticHashTable(init, -1.5)
    with pytest.raises(TypeError, match="Cannot convert 'x' to EagerTensor of dtype int32"):
        tf.lookup.StaticHashTable(init, "x")


def test_sparse_and_ragged_keys_keep_their_structure():
    t = _table()
    out = t.lookup(tf.sparse.SparseTensor([[0, 0], [1, 2]], ["a", "q"], [2, 3]))
    np.testing.assert_array_equal(out.indices.numpy(), [[0, 0], [1, 2]])
    np.testing.assert_array_equal(out.values.numpy(), [1, -1])
    np.testing.assert_array_equal(out.dense_shape.numpy(), [2, 3])
    assert out.values.dtype == tf.int32
    ragged = t.lookup(tf.ragged.constant([["a", "b"], ["c"]]))
    assert ragged.to_list() == [[1, 2], [3]]


def test_tf_function_and_dataset_map():
    t = _table()
    f = tf.function(lambda x: t.lookup(x))
    np.testing.assert_array_equal(f(tf.constant(["c", "zz"])).numpy(), [3, -1])
    np.testing.assert_array_equal(f(tf.constant(["b"])).numpy(), [2])
    ds = tf.data.Dataset.from_tensor_slices(["a b z", "c"]).map(lambda s: t.lookup(tf.strings.split(s)))
    assert [x.numpy().tolist() for x in ds] == [[1, 2, -1], [3]]


def test_text_file_initializer(vocab_file):
    TFI, idx = tf.lookup.TextFileInitializer, tf.lookup.TextFileIndex
    assert (idx.WHOLE_LINE, idx.LINE_NUMBER) == (-2, -1)
    t = tf.lookup.StaticHashTable(TFI(vocab_file, tf.string, 0, tf.int64, 1, delimiter="\t"), -1)
    np.testing.assert_array_equal(t.lookup(tf.constant(["lake", "x"])).numpy(), [20, -1])
    assert t.size().numpy() == 3
    t = tf.lookup.StaticHashTable(TFI(vocab_file, tf.string, idx.WHOLE_LINE, tf.int64, idx.LINE_NUMBER), -1)
    np.testing.assert_array_equal(t.lookup(tf.constant(["lake\t20", "x"])).numpy(), [1, -1])
    t = tf.lookup.StaticHashTable(TFI(vocab_file, tf.int64, idx.LINE_NUMBER, tf.string, 0), "?")
    assert t.lookup(tf.constant([0, 2, 7], tf.int64)).numpy().tolist() == [b"emerson", b"palmer", b"?"]
    t = tf.lookup.StaticHashTable(TFI(vocab_file, tf.string, 0, tf.int64, idx.LINE_NUMBER, vocab_size=2), -1)
    np.testing.assert_array_equal(t.lookup(tf.constant(["lake", "palmer"])).numpy(), [1, -1])


def test_text_file_errors(vocab_file, tmp_path):
    TFI = tf.lookup.TextFileInitializer
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid vocab_size in .*v.txt: expected 5 but got 3"):
        tf.lookup.StaticHashTable(TFI(vocab_file, tf.string, 0, tf.int64, 1, vocab_size=5), -1)
    with pytest.raises(tf.errors.NotFoundError, match="nonexist.txt; No such file or directory"):
        tf.lookup.StaticHashTable(TFI(str(tmp_path / "nonexist.txt"), tf.string, 0, tf.int64, 1), -1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Invalid number of columns in .*v.txt line 0 \(emerson\t10\) : expected at least 6 got 2"):
        tf.lookup.StaticHashTable(TFI(vocab_file, tf.string, 0, tf.int64, 5), -1)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"a\t1\nb\tx\n")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field x in line 1 is not a valid int64."):
        tf.lookup.StaticHashTable(TFI(str(bad), tf.string, 0, tf.int64, 1), -1)
    with pytest.raises(ValueError, match="`key_dtype` must be int64 if `key_index` is -1, received: <dtype: 'string'>"):
        TFI(str(bad), tf.string, -1, tf.int64, 1)
    with pytest.raises(ValueError, match="`value_dtype` must be int64 for `value_index` -1, received: <dtype: 'int32'>"):
        TFI(str(bad), tf.string, 0, tf.int32, -1)


def _vocab_table(num_oov=5):
    init = tf.lookup.KeyValueTensorInitializer(["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64))
    return tf.lookup.StaticVocabularyTable(init, num_oov)


def test_static_vocabulary_table_string_buckets(vocab_file):
    vt = _vocab_table()
    assert (vt.key_dtype, vt.value_dtype) == (tf.string, tf.int64)
    assert vt.size().numpy() == 8
    out = vt.lookup(tf.constant(["emerson", "lake", "palmer", "king", "crimson", "", "x"]))
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), [0, 1, 2, 6, 7, 6, 3])
    vt2 = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
        vocab_file, tf.string, 0, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), 3)
    np.testing.assert_array_equal(vt2.lookup(tf.constant([["lake", "zz"], ["palmer", "qq"]])).numpy(),
                                  [[1, 4], [2, 3]])
    np.testing.assert_array_equal(tf.function(lambda x: vt.lookup(x))(tf.constant(["lake", "king"])).numpy(), [1, 6])
    np.testing.assert_array_equal(tf.lookup.StaticVocabularyTable(None, 2).lookup(tf.constant(["a", "b"])).numpy(),
                                  [1, 0])
    assert vt.lookup(tf.ragged.constant([["king"], ["lake", "x"]])).to_list() == [[6], [1, 3]]


def test_static_vocabulary_table_integer_keys_hash_their_decimal_text():
    init = tf.lookup.KeyValueTensorInitializer(tf.constant([7, 9], tf.int64), tf.constant([0, 1], tf.int64))
    vt3 = tf.lookup.StaticVocabularyTable(init, 4)
    assert vt3.key_dtype == tf.int64
    np.testing.assert_array_equal(vt3.lookup(tf.constant([7, 9, 1, 2, 3, -5, 100], tf.int64)).numpy(),
                                  [0, 1, 3, 5, 3, 2, 5])
    vt4 = tf.lookup.StaticVocabularyTable(init, 4, lookup_key_dtype=tf.int32)
    assert vt4.key_dtype == tf.int32
    np.testing.assert_array_equal(vt4.lookup(tf.constant([7, 9, 1, 2, 3], tf.int32)).numpy(), [0, 1, 3, 5, 3])
    with pytest.raises(TypeError, match="must be <dtype: 'int64'>, received: <dtype: 'int32'>"):
        vt3.lookup(tf.constant([1], tf.int32))


def test_static_vocabulary_table_errors():
    with pytest.raises(ValueError, match="`num_oov_buckets` must be > 0; use StaticHashTable."):
        _vocab_table(0)
    with pytest.raises(TypeError, match="Invalid `value_dtype`, expected <dtype: 'int64'> but got <dtype: 'int32'>."):
        tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], [0]), 2)
    with pytest.raises(TypeError, match="Invalid `key_dtype`, expected integer but got <dtype: 'string'>."):
        tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], tf.constant([0], tf.int64)), 2,
                                        lookup_key_dtype=tf.int64)
    msg = "Dtype of argument `keys` must be <dtype: 'string'>, received: <dtype: 'int32'>"
    with pytest.raises(TypeError, match=msg):
        _vocab_table().lookup(tf.constant([1]))
    with pytest.raises(TypeError, match=msg):
        tf.function(lambda x: _vocab_table().lookup(x))(tf.constant([1]))


def test_tables_are_freed():
    refs = []
    for _ in range(2000):
        t = _table()
        t.lookup(tf.constant(["a"]))
        refs.append(weakref.ref(t))
    del t
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_import_eagerflow_does_not_load_lookup():
    import subprocess
    import sys
    code = "import sys, eagerflow; print('eagerflow._src.api.lookup' in sys.modules, " \
           "'eagerflow._src.ops.lookup.tables' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]


def test_table_built_inside_tf_function_from_constants():
    @tf.function
    def f(x):
        init = tf.lookup.KeyValueTensorInitializer(tf.constant(["x", "y"]), tf.constant([5, 6], tf.int64))
        return tf.lookup.StaticHashTable(init, tf.constant(-1, tf.int64)).lookup(x)

    np.testing.assert_array_equal(f(tf.constant(["y", "q", "x"])).numpy(), [6, -1, 5])


def test_table_from_function_inputs_is_refused_clearly():
    @tf.function
    def f(keys):
        return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, [1, 2]), -1).size()

    with pytest.raises(ValueError, match="must be known when the table is built"):
        f(tf.constant(["a", "b"]))
