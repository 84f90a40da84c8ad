"""shuffle keeps a real buffer of `buffer_size` elements (TensorFlow's algorithm): buffer_size=1
keeps the order, a buffer of b lets the k-th output be one of the first k + b inputs, and a buffer
as large as the input (or UNKNOWN_CARDINALITY) mixes everything; and a seeded shuffle iterated eagerly
gives TensorFlow 2.21's orders, pass after pass (recorded below)."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import data
from eagerflow._src.data.shuffle import buffered_order

Dataset = data.Dataset


def _ints(ds):
    return [int(v) for v in ds.as_numpy_iterator()]


def _assert_buffered(order, b):
    assert sorted(order) == list(range(len(order)))
    assert all(v < k + b for k, v in enumerate(order)), order


def test_buffer_of_one_keeps_the_order_everywhere():
    assert _ints(Dataset.range(10).shuffle(1)) == list(range(10))
    assert _ints(Dataset.range(10).filter(lambda x: True).shuffle(1)) == list(range(10))  # a stream input
    assert _ints(Dataset.range(10).repeat().shuffle(1).take(12)) == list(range(10)) + [0, 1]


@pytest.mark.parametrize("b", [2, 3, 5])
def test_small_buffer_moves_elements_only_a_little(b):
    for seed in range(20):
        _assert_buffered(_ints(Dataset.range(40).shuffle(b, seed=seed)), b)
        _assert_buffered(_ints(Dataset.range(40).filter(lambda x: True).shuffle(b, seed=seed)), b)
    tf.random.set_seed(1)
    orders = {tuple(_ints(Dataset.range(40).shuffle(b))) for _ in range(5)}
    assert len(orders) > 1 and tuple(range(40)) not in orders


def test_buffered_order_statistics_match_the_buffer_algorithm():
    # First output of a buffer of 3 over 10 positions: uniform over the first 3 inputs.
    firsts = np.bincount([buffered_order(10, 3, (seed, 1))[0] for seed in range(3000)], minlength=10)
    assert firsts[3:].sum() == 0 and all(abs(c - 1000) < 120 for c in firsts[:3])
    # A full buffer: every position equally likely first.
    firsts = np.bincount([buffered_order(6, 6, (7, seed))[0] for seed in range(3000)], minlength=6)
    assert all(abs(c - 500) < 90 for c in firsts)


def test_seeded_orders_are_tensorflows():
    """TensorFlow 2.21's orders, each pass of one dataset object taking the next seeds of its generator."""
    tf.random.set_seed(None)  # no global seed: (87654321, op seed), as TensorFlow
    ds = Dataset.range(8).shuffle(8, seed=1)
    assert _ints(ds) == [0, 1, 3, 6, 5, 2, 7, 4]
    assert _ints(ds) == [2, 1, 3, 6, 0, 4, 7, 5]
    assert _ints(ds.repeat(2)) == [7, 3, 1, 5, 6, 0, 2, 4, 4, 2, 1, 7, 3, 6, 0, 5]
    assert _ints(Dataset.range(8).shuffle(8, seed=1)) == [0, 1, 3, 6, 5, 2, 7, 4]  # a new dataset starts over
    fixed = Dataset.range(8).shuffle(8, seed=1, reshuffle_each_iteration=False)
    assert _ints(fixed.repeat(2)) == [7, 4, 5, 2, 3, 0, 6, 1] * 2
    assert _ints(Dataset.range(8).shuffle(3, seed=5)) == [1, 3, 4, 5, 2, 7, 0, 6]
    twelve = [0, 4, 5, 1, 2, 7, 9, 6, 3, 8, 11, 10]
    assert _ints(Dataset.range(12).shuffle(4, seed=1)) == twelve
    assert _ints(Dataset.range(12).filter(lambda x: x >= 0).shuffle(4, seed=1)) == twelve  # a stream input
    tf.random.set_seed(3)
    try:
        assert _ints(Dataset.range(12).shuffle(4, seed=1)) == [3, 1, 0, 6, 5, 8, 7, 9, 10, 2, 4, 11]
    finally:
        tf.random.set_seed(None)


def test_full_buffer_and_unknown_cardinality_buffer_mix_everything():
    for b in (40, 100, data.UNKNOWN_CARDINALITY):
        got = _ints(Dataset.range(40).shuffle(b, seed=3))
        assert sorted(got) == list(range(40)) and got != list(range(40))
        assert max(v - k for k, v in enumerate(got)) > 5  # elements jump far ahead


def test_reshuffle_each_iteration_false_repeats_one_order():
    for ds in (Dataset.range(20).shuffle(5, reshuffle_each_iteration=False),
               Dataset.range(20).filter(lambda x: True).shuffle(5, reshuffle_each_iteration=False)):
        first = _ints(ds)
        assert first == _ints(ds) and first != list(range(20))
        twice = _ints(ds.repeat(2))
        assert twice[:20] == twice[20:] == first


def test_bad_buffer_sizes():
    for bad in (0, -1):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="buffer_size must be greater than zero or UNKNOWN_CARDINALITY"):
            Dataset.range(3).shuffle(bad)
    assert int(Dataset.range(10).repeat().shuffle(3).cardinality()) == -1
    assert int(Dataset.range(10).shuffle(3).cardinality()) == 10


def test_buffer_in_a_traced_loop():
    ds = Dataset.range(30).shuffle(4).repeat(2)

    @tf.function
    def order(dataset):
        out = tf.TensorArray(tf.int64, size=60)
        i = 0
        for v in dataset:
            out = out.write(i, v)
            i += 1
        return out.stack()

    runs = [order(ds).numpy().tolist() for _ in range(3)]
    for got in runs:
        _assert_buffered(got[:30], 4)
        _assert_buffered(got[30:], 4)
    assert len({tuple(r) for r in runs}) > 1  # drawn per call
    assert order.experimental_get_tracing_count() == 1


def test_huge_input_is_shuffled_lazily_through_its_buffer():
    ds = Dataset.range(10 ** 12).shuffle(8, seed=4)  # an order over every position would not fit
    assert int(ds.cardinality()) == 10 ** 12
    got = _ints(ds.take(50))
    assert all(v < k + 8 for k, v in enumerate(got)) and len(set(got)) == 50
