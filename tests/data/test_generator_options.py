"""from_generator (signature, conversion, errors as TensorFlow 2.21 words them), options(),
as_numpy_iterator, len and the iterator's eager surface."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data

Dataset = data.Dataset


def _gen(values, spec):
    return Dataset.from_generator(lambda: iter(values), output_signature=spec)


def test_from_generator_signature_values_and_cardinality():
    ds = _gen([1, 2, 3], tf.TensorSpec((), tf.int32))
    assert ds.element_spec == tf.TensorSpec([], tf.int32)
    assert [int(v) for v in ds.as_numpy_iterator()] == [1, 2, 3]
    assert list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())  # every pass calls the generator again
    assert int(ds.cardinality()) == -2 and repr(ds).startswith("<_FlatMapDataset element_spec=")
    assert [v.tolist() for v in _gen([[1, 2]], tf.TensorSpec((None,), tf.int32)).as_numpy_iterator()] == [[1, 2]]
    assert [int(v) for v in _gen([1.5], tf.TensorSpec((), tf.int32)).as_numpy_iterator()] == [1]  # converted
    assert list(_gen([{"a": 1}], {"a": tf.TensorSpec((), tf.int32)}).as_numpy_iterator()) == [{"a": 1}]
    counted = Dataset.from_generator(lambda n: iter(range(n)), output_signature=tf.TensorSpec((), tf.int64), args=(3,))
    assert [int(v) for v in counted.as_numpy_iterator()] == [0, 1, 2]


def test_from_generator_output_types_and_shapes():
    loose = Dataset.from_generator(lambda: iter([(1, [2.0])]), output_types=(tf.int32, tf.float32))
    assert loose.element_spec == (tf.TensorSpec(None, tf.int32), tf.TensorSpec(None, tf.float32))
    shaped = Dataset.from_generator(lambda: iter([(1, [2.0])]), output_types=(tf.int32, tf.float32),
                                    output_shapes=((), (1,)))
    assert shaped.element_spec == (tf.TensorSpec([], tf.int32), tf.TensorSpec([1], tf.float32))
    (a, b), = list(shaped.as_numpy_iterator())
    assert int(a) == 1 and b.tolist() == [2.0] and b.dtype == np.float32


def test_from_generator_argument_errors():
    one = lambda: iter([1])  # noqa: E731
    with pytest.raises(TypeError, match="either the `output_signature` argument or the `output_types` argument."):
        Dataset.from_generator(one)
    with pytest.raises(TypeError, match="either the `output_signature` argument or the `output_types` argument."):
        Dataset.from_generator(one, output_shapes=())
    with pytest.raises(TypeError, match="The `output_types` argument can not be used together with the "
                                        "`output_signature` argument."):
        Dataset.from_generator(one, output_types=tf.int32, output_signature=tf.TensorSpec((), tf.int32))
    with pytest.raises(TypeError, match="`generator` must be a Python callable."):
        Dataset.from_generator(iter([1]), output_signature=tf.TensorSpec((), tf.int32))
    with pytest.raises(TypeError, match="`output_signature` must contain objects that are subclass of `tf.TypeSpec`"):
        Dataset.from_generator(one, output_signature=tf.int32)


def test_from_generator_element_errors():
    cases = [
        ([[1, 2]], tf.TensorSpec((3,), tf.int32),
         "`generator` yielded an element of shape (2,) where an element of shape (3,) was expected."),
        ([(1, 2)], tf.TensorSpec((), tf.int32),
         "`generator` yielded an element of shape (2,) where an element of shape () was expected."),
        ([{"b": 1}], {"a": tf.TensorSpec((), tf.int32)},
         "`generator` yielded an element that did not match the expected structure. The expected structure was "
         "{'a': tf.int32}, but the yielded element was {'b': 1}."),
        ([(1, 2, 3)], (tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32)),
         "The expected structure was (tf.int32, tf.int32), but the yielded element was (1, 2, 3)."),
        ([[1, 2]], (tf.TensorSpec((), tf.int32), tf.TensorSpec((), tf.int32)),
         "The expected structure was (tf.int32, tf.int32), but the yielded element was [1, 2]."),
        (["a"], tf.TensorSpec((), tf.int32),
         "`generator` yielded an element that could not be converted to the expected type. The expected type was "
         "int32, but the yielded element was a."),
    ]
    for values, spec, words in cases:
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            list(_gen(values, spec))
        assert words in str(info.value)


def test_options_accepted_merged_and_kept_downstream():
    assert isinstance(Dataset.range(3).options(), data.Options)
    assert Dataset.range(3).with_options(data.Options()).options() == data.Options()
    assert Dataset.range(3).with_options(data.Options()).options().deterministic is None
    opts = data.Options()
    opts.deterministic = False
    opts.threading.private_threadpool_size = 2
    ds = Dataset.range(3).with_options(opts).map(lambda x: x + 1)
    assert ds.options().deterministic is False and ds.options().threading.private_threadpool_size == 2
    assert [int(v) for v in ds.as_numpy_iterator()] == [1, 2, 3]
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options."):
        data.Options().foo = 1


def test_as_numpy_iterator_len_and_iterator():
    assert [int(v) for v in Dataset.range(3).as_numpy_iterator()] == [0, 1, 2]
    assert len(Dataset.range(3).batch(2)) == 2
    with pytest.raises(TypeError, match="The dataset length is unknown."):
        len(Dataset.range(3).filter(lambda x: True))
    with pytest.raises(TypeError, match="The dataset is infinite."):
        len(Dataset.range(3).repeat())
    it = iter(Dataset.range(3))
    assert it.element_spec == tf.TensorSpec([], tf.int64)
    assert int(it.get_next_as_optional().get_value()) == 0 and int(next(it)) == 1
    assert next(iter(Dataset.range(0)), "end") == "end"

    @tf.function
    def numpy_inside(ds):
        return list(ds.as_numpy_iterator())
    with pytest.raises(RuntimeError, match=r"`tf.data.Dataset.as_numpy_iterator\(\)` is only supported in eager mode."):
        numpy_inside(Dataset.range(3))


def test_streams_do_not_keep_their_inputs_alive():
    refs = []
    for _ in range(200):
        source = Dataset.range(5)
        refs.append(weakref.ref(source))
        ds = source.filter(lambda x: x > 2)
        assert [int(v) for v in ds.as_numpy_iterator()] == [3, 4]
        del source, ds
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
