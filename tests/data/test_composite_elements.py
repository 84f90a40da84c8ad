"""RaggedTensor and SparseTensor dataset elements (data/composite_elements.py, data/ragged_batch.py) against
TensorFlow 2.21's recorded answers: element specs, values of slices, batches, unbatches, ragged_batch,
dense_to_ragged_batch, padded_batch's refusal, and iteration inside tf.function."""
import numpy as np
import pytest

import eagerflow as tf

Dataset = tf.data.Dataset


def _rt():
    return tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])


def _st():
    return tf.sparse.SparseTensor(indices=[[0, 1], [1, 0], [1, 2], [3, 3]], values=[1., 2., 3., 4.],
                                  dense_shape=[4, 5])


def _sparse_parts(st):
    return [st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()]


def test_slices_of_a_ragged_tensor_are_dense_rows():
    ds = Dataset.from_tensor_slices(_rt())
    assert ds.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0, tf.int64)
    assert repr(ds.element_spec) == "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)"
    rows = list(ds)
    assert [type(r).__name__ for r in rows] == ["EagerTensor"] * 4
    assert [r.numpy().tolist() for r in rows] == [[1, 2], [3], [4, 5, 6], []]
    assert int(ds.cardinality()) == 4
    rt3 = Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], []]))
    assert rt3.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert [r.to_list() for r in rt3] == [[[1], [2, 3]], [[4]], []]
    uniform = Dataset.from_tensor_slices(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))
    assert uniform.element_spec == tf.RaggedTensorSpec([None, 2], tf.int32, 0, tf.int64)


def test_batch_of_ragged_rows_is_ragged():
    ds = Dataset.from_tensor_slices(_rt())
    batched = ds.batch(2)
    assert batched.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert [b.to_list() for b in batched] == [[[1, 2], [3]], [[4, 5, 6], []]]
    assert ds.batch(3, drop_remainder=True).element_spec == tf.RaggedTensorSpec([3, None], tf.int32, 1, tf.int64)
    assert [b.numpy().tolist() for b in batched.map(lambda r: r.row_lengths())] == [[2, 1], [3, 0]]
    assert batched.rebatch(1).element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert [b.to_list() for b in batched.rebatch(3)] == [[[1, 2], [3], [4, 5, 6]], [[]]]
    unbatched = batched.unbatch()
    assert unbatched.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0, tf.int64)
    assert [r.numpy().tolist() for r in unbatched] == [[1, 2], [3], [4, 5, 6], []]
    mixed = Dataset.from_tensor_slices({"a": _rt(), "b": tf.range(4)}).batch(3)
    assert mixed.element_spec == {"a": tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64),
                                  "b": tf.TensorSpec([None], tf.int32)}
    first = next(iter(mixed))
    assert first["a"].to_list() == [[1, 2], [3], [4, 5, 6]] and first["b"].numpy().tolist() == [0, 1, 2]


def test_map_returning_ragged_then_batch_and_unbatch():
    mapped = Dataset.range(4).map(lambda x: tf.RaggedTensor.from_tensor(tf.reshape(tf.range(x), [1, -1])))
    assert mapped.element_spec == tf.RaggedTensorSpec([1, None], tf.int64, 1, tf.int64)
    assert [r.to_list() for r in mapped] == [[[]], [[0]], [[0, 1]], [[0, 1, 2]]]  # TF 2.21 (tf.ragged.range(x))
    batched = mapped.batch(2)
    assert batched.element_spec == tf.RaggedTensorSpec([None, 1, None], tf.int64, 2, tf.int64)
    assert [b.to_list() for b in batched] == [[[[]], [[0]]], [[[0, 1]], [[0, 1, 2]]]]
    assert [type(r).__name__ for r in batched.unbatch()] == ["RaggedTensor"] * 4
    assert [r.to_list() for r in batched.unbatch()] == [[[]], [[0]], [[0, 1]], [[0, 1, 2]]]


def test_ragged_batch_and_dense_to_ragged_batch():
    ranges = Dataset.range(4).map(lambda x: tf.range(x))
    assert ranges.batch(2).element_spec == tf.TensorSpec([None, None], tf.int64)
    with pytest.raises(tf.errors.InvalidArgumentError):  # dense batch of rows of different lengths
        list(ranges.batch(2))
    ragged = ranges.ragged_batch(2)
    assert ragged.element_spec == tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)
    assert [b.to_list() for b in ragged] == [[[], [0]], [[0, 1], [0, 1, 2]]]
    assert ranges.ragged_batch(3, drop_remainder=True).element_spec == \
        tf.RaggedTensorSpec([3, None], tf.int64, 1, tf.int64)
    assert ranges.ragged_batch(2, row_splits_dtype=tf.int32).element_spec == \
        tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int32)
    assert next(iter(ranges.ragged_batch(2, row_splits_dtype=tf.int32))).row_splits.dtype == tf.int32
    applied = ranges.apply(tf.data.experimental.dense_to_ragged_batch(2))
    assert applied.element_spec == tf.RaggedTensorSpec([None, None], tf.int64, 1, tf.int64)
    assert [b.to_list() for b in applied] == [[[], [0]], [[0, 1], [0, 1, 2]]]
    scalars = Dataset.range(5).ragged_batch(2)  # fully known shapes stay dense
    assert scalars.element_spec == tf.TensorSpec([None], tf.int64)
    assert [b.numpy().tolist() for b in scalars] == [[0, 1], [2, 3], [4]]
    fixed = Dataset.from_tensor_slices(tf.zeros([5, 3])).ragged_batch(2)
    assert fixed.element_spec == tf.TensorSpec([None, 3], tf.float32)
    assert [b.shape.as_list() for b in fixed] == [[2, 3], [2, 3], [1, 3]]
    of_ragged = Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]], []])).ragged_batch(2)
    assert of_ragged.element_spec == tf.RaggedTensorSpec([None, None, None], tf.int32, 2, tf.int64)
    assert [b.to_list() for b in of_ragged] == [[[[1], [2, 3]], [[4]]], [[]]]
    # the last unknown dimension is 1: ragged_rank 1, batched 2
    inner = Dataset.range(3).map(lambda x: tf.reshape(tf.fill([2 * x], x), [2, -1])).ragged_batch(2)
    assert inner.element_spec == tf.RaggedTensorSpec([None, 2, None], tf.int64, 2, tf.int64)
    assert [b.to_list() for b in inner] == [[[[], []], [[1], [1]]], [[[2, 2], [2, 2]]]]

    def square(x):
        a = tf.range(x)[:, None] + tf.range(x)[None, :]
        return tf.stack([a, a * 10], axis=-1)  # [x, x, 2]
    squares = Dataset.range(1, 3).map(square).ragged_batch(2)
    assert squares.element_spec == tf.RaggedTensorSpec([None, None, None, 2], tf.int64, 2, tf.int64)
    assert [b.to_list() for b in squares] == [[[[[0, 0]]], [[[0, 0], [1, 10]], [[1, 10], [2, 20]]]]]  # TF 2.21


def test_padded_batch_refuses_composites_as_tensorflow():
    with pytest.raises(TypeError) as info:
        Dataset.from_tensor_slices(_rt()).padded_batch(2)
    assert str(info.value) == (
        "`padded_batch` is only supported for datasets that produce tensor elements but type spec of elements in "
        "the input dataset is not a subclass of TensorSpec: `RaggedTensorSpec(TensorShape([None]), tf.int32, 0, "
        "tf.int64)`.")
    with pytest.raises(TypeError, match=r"not a subclass of TensorSpec: `SparseTensorSpec\(TensorShape\(\[5\]\), "
                                        r"tf.float32\)`."):
        Dataset.from_tensor_slices(_st()).padded_batch(2)


def test_sparse_slices_batches_and_unbatches():
    ds = Dataset.from_tensor_slices(_st())
    assert ds.element_spec == tf.SparseTensorSpec([5], tf.float32)
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([5]), tf.float32)"
    assert [_sparse_parts(e) for e in ds] == [[[[1]], [1.0], [5]], [[[0], [2]], [2.0, 3.0], [5]], [[], [], [5]],
                                              [[[3]], [4.0], [5]]]
    batched = ds.batch(3)
    assert batched.element_spec == tf.SparseTensorSpec([None, 5], tf.float32)
    assert [_sparse_parts(b) for b in batched] == [[[[0, 1], [1, 0], [1, 2]], [1.0, 2.0, 3.0], [3, 5]],
                                                   [[[0, 3]], [4.0], [1, 5]]]
    rows = batched.unbatch()
    assert rows.element_spec == tf.SparseTensorSpec([5], tf.float32)
    assert [_sparse_parts(r)[2] for r in rows] == [[5]] * 4
    mapped = Dataset.range(3).map(lambda x: tf.sparse.SparseTensor([[x]], [x], [x + 1]))
    assert mapped.element_spec == tf.SparseTensorSpec([None], tf.int64)
    assert _sparse_parts(next(iter(mapped.batch(3)))) == [[[0, 0], [1, 1], [2, 2]], [0, 1, 2], [3, 3]]
    assert Dataset.from_tensors(_st()).element_spec == tf.SparseTensorSpec([4, 5], tf.float32)
    whole = next(iter(Dataset.from_tensors(_st())))
    assert _sparse_parts(whole) == _sparse_parts(_st())
    value = next(Dataset.from_tensor_slices(_st()).batch(2).as_numpy_iterator())  # TF 2.21: made dense
    assert isinstance(value, np.ndarray) and value.tolist() == [[0, 1, 0, 0, 0], [2, 0, 3, 0, 0]]


def test_zip_filter_and_numpy_iterator():
    zipped = Dataset.zip((Dataset.from_tensor_slices(_rt()), Dataset.range(4)))
    assert zipped.element_spec == (tf.RaggedTensorSpec([None], tf.int32, 0, tf.int64), tf.TensorSpec([], tf.int64))
    assert [(r.numpy().tolist(), int(i)) for r, i in zipped][1] == ([3], 1)
    kept = Dataset.from_tensor_slices(_rt()).filter(lambda r: tf.size(r) > 1)
    assert [r.numpy().tolist() for r in kept] == [[1, 2], [4, 5, 6]]
    values = list(Dataset.from_tensor_slices(_rt()).batch(2).as_numpy_iterator())
    assert [v.dtype for v in values] == [np.dtype(object)] * 2  # rows of different lengths, as TF 2.21
    assert [[row.tolist() for row in v] for v in values] == [[[1, 2], [3]], [[4, 5, 6], []]]


def test_iteration_inside_tf_function():
    ds = Dataset.from_tensor_slices(_rt()).batch(2)

    @tf.function
    def total(d):
        s = tf.constant(0)
        for e in d:
            s += tf.reduce_sum(e.flat_values) * 10 + tf.cast(e.nrows(), tf.int32)
        return s
    assert int(total(ds)) == 214  # TF 2.21
    assert int(total(ds)) == 214

    @tf.function
    def first_splits(d):
        return next(iter(d)).row_splits
    assert first_splits(ds).numpy().tolist() == [0, 2, 3]  # TF 2.21

    @tf.function
    def sparse_sum(d):
        s = tf.constant(0.)
        for e in d:
            s += tf.reduce_sum(e.values) * tf.cast(e.dense_shape[0], tf.float32)
        return s
    assert float(sparse_sum(Dataset.from_tensor_slices(_st()).batch(3))) == 22.0  # TF 2.21

    it = iter(Dataset.from_tensor_slices(_rt()))

    @tf.function
    def pull(iterator):
        return iterator.get_next()
    assert pull(it).numpy().tolist() == [1, 2]
    assert pull(it).numpy().tolist() == [3]


def test_from_generator_with_composite_signatures():
    def ragged_rows():
        yield tf.ragged.constant([[1, 2], [3]])
        yield tf.ragged.constant([[4]])
    ds = Dataset.from_generator(ragged_rows, output_signature=tf.RaggedTensorSpec([None, None], tf.int32, 1))
    assert ds.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert [r.to_list() for r in ds] == [[[1, 2], [3]], [[4]]]  # TF 2.21
    assert [b.to_list() for b in ds.batch(2)] == [[[[1, 2], [3]], [[4]]]]

    def sparse_rows():
        yield tf.sparse.SparseTensor([[0]], [1.], [3])
    sparse = Dataset.from_generator(sparse_rows, output_signature=tf.SparseTensorSpec([3], tf.float32))
    assert sparse.element_spec == tf.SparseTensorSpec([3], tf.float32)
    assert [_sparse_parts(b) for b in sparse.batch(1)] == [[[[0, 0]], [1.0], [1, 3]]]

    for rows, spec, shown in [([1, 2], tf.RaggedTensorSpec([None], tf.int32, 0), r"\(2,\)"),
                              ([[4]], tf.RaggedTensorSpec([None, None], tf.int32, 1), r"\(1, 1\)")]:
        refused = Dataset.from_generator(lambda rows=rows: iter([rows]), output_signature=spec)
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"TypeError: `generator` yielded an element of "
                                                                 rf"TensorSpec\(shape={shown}, dtype=tf.int32, "
                                                                 r"name=None\) where an element of RaggedTensorSpec"):
            list(refused)  # TF 2.21 refuses lists where a RaggedTensorSpec is declared


def _listed(ds):
    return [x.to_list() if hasattr(x, "to_list") else x.numpy().tolist() for x in ds]


def test_other_transformations_of_ragged_elements_as_tensorflow():
    rows = Dataset.from_tensor_slices(_rt())
    pairs = rows.batch(2)
    joined = pairs.concatenate(pairs)
    assert joined.element_spec == tf.RaggedTensorSpec([None, None], tf.int32, 1, tf.int64)
    assert _listed(joined) == [[[1, 2], [3]], [[4, 5, 6], []]] * 2
    assert sorted(map(str, _listed(rows.shuffle(4, seed=1)))) == ["[1, 2]", "[3]", "[4, 5, 6]", "[]"]
    assert _listed(pairs.repeat(2).skip(1).take(2)) == [[[4, 5, 6], []], [[1, 2], [3]]]
    assert _listed(pairs.cache().prefetch(2)) == [[[1, 2], [3]], [[4, 5, 6], []]]
    assert [(int(i), x.to_list()) for i, x in pairs.enumerate()] == [(0, [[1, 2], [3]]), (1, [[4, 5, 6], []])]
    assert _listed(Dataset.range(2).flat_map(lambda i: Dataset.from_tensor_slices(_rt()))) == \
        [[1, 2], [3], [4, 5, 6], []] * 2
    assert _listed(Dataset.range(2).interleave(lambda i: Dataset.from_tensor_slices(_rt()), cycle_length=2)) == \
        [[1, 2], [1, 2], [3], [3], [4, 5, 6], [4, 5, 6], [], []]  # TF 2.21
    assert int(rows.reduce(tf.constant(0), lambda s, x: s + tf.reduce_sum(x))) == 21
    assert _listed(rows.scan(tf.constant(0), lambda s, x: (s + tf.size(x), s))) == [0, 2, 3, 6]
    windows = rows.window(2)
    assert repr(windows.element_spec) == "DatasetSpec(RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64), " \
                                         "TensorShape([]))"
    assert [_listed(w) for w in windows] == [[[1, 2], [3]], [[4, 5, 6], []]]
    assert _listed(rows.group_by_window(lambda x: tf.cast(tf.size(x) % 2, tf.int64), lambda k, w: w.batch(2), 2)) \
        == [[[3], [4, 5, 6]], [[1, 2], []]]  # TF 2.21
    assert _listed(rows.take_while(lambda x: tf.size(x) > 0)) == [[1, 2], [3], [4, 5, 6]]
    assert Dataset.from_tensors(_rt()).get_single_element().to_list() == [[1, 2], [3], [4, 5, 6], []]
    zipped = [(a.to_list(), b.numpy().tolist()) for a, b in Dataset.zip((rows, Dataset.range(4))).batch(3)]
    assert zipped == [([[1, 2], [3], [4, 5, 6]], [0, 1, 2]), ([[]], [3])]
    sparse = Dataset.from_tensor_slices(_st())
    assert sparse.concatenate(sparse).element_spec == tf.SparseTensorSpec([5], tf.float32)
    assert _listed(sparse.map(tf.sparse.to_dense))[1] == [2.0, 0.0, 3.0, 0.0, 0.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="UniqueDataset only supports inputs with a single "
                                                             "`tf.int32`, `tf.int64`, or `tf.string` component."):
        rows.unique()
    with pytest.raises(TypeError, match="`padded_batch` is only supported"):  # TF 2.21: bucketing pads
        rows.bucket_by_sequence_length(lambda x: tf.size(x), [2], [2, 2])

    @tf.function
    def count_rows(d):
        return d.reduce(tf.constant(0, tf.int64), lambda s, x: s + x.nrows())
    assert int(count_rows(pairs)) == 4


def test_map_of_ragged_range_keeps_its_static_rows():
    ranges = Dataset.range(4).map(lambda x: tf.ragged.range(x))
    assert ranges.element_spec == tf.RaggedTensorSpec([1, None], tf.int64, 1, tf.int64)  # TF 2.21
    assert ranges.batch(2).element_spec == tf.RaggedTensorSpec([None, 1, None], tf.int64, 2, tf.int64)
    assert [b.to_list() for b in ranges.batch(2)] == [[[[]], [[0]]], [[[0, 1]], [[0, 1, 2]]]]
    pairs = Dataset.range(4).map(lambda x: tf.ragged.range([x, x + 1]))
    assert pairs.element_spec == tf.RaggedTensorSpec([2, None], tf.int64, 1, tf.int64)  # TF 2.21
