"""tf.random.Generator: a seed reproduces its stream, draws advance the state variable (eagerly and in
each run of a traced function), reset and split, the distributions' ranges and dtypes, TF's errors.
The numbers are NumPy's Philox stream (TensorFlow's own bits differ), so they are checked against
NumPy's Philox run from the same counter and key, not against TensorFlow."""
import numpy as np
import pytest

import eagerflow as tf


def _philox(counter, key=0):
    return np.random.Generator(np.random.Philox(counter=np.array([counter, 0, 0, 0], np.uint64),
                                                key=np.array([key, 0], np.uint64)))


def test_a_seed_gives_numpys_philox_stream_from_that_counter():
    g = tf.random.Generator.from_seed(1)
    assert g.state.numpy().tolist() == [1, 0, 0]  # TF 2.21's layout for from_seed(1): counter 1, key 0
    np.testing.assert_allclose(g.normal([2, 3]).numpy(), _philox(1).standard_normal((2, 3)).astype(np.float32))
    counter = int(g.state.numpy()[0])
    assert counter > 1  # the counter moved past the values drawn
    # the next draw starts a fresh Philox at the stored counter: no value is drawn twice
    np.testing.assert_allclose(g.uniform([4]).numpy(), _philox(counter).random(4).astype(np.float32))


def test_draws_advance_the_state_in_each_run_of_a_traced_function():
    g = tf.random.Generator.from_seed(5)

    @tf.function
    def draw():
        return g.normal([3])
    first, second = draw().numpy(), draw().numpy()
    assert not np.allclose(first, second)
    g.reset_from_seed(5)
    np.testing.assert_array_equal(draw().numpy(), first)
    assert "StatefulStandardNormalV2" in [op.type for op in draw.get_concrete_function().graph.get_operations()]


def test_ranges_dtypes_split_and_errors():
    g = tf.random.Generator.from_seed(3)
    ints = g.uniform([1000], 2, 9, dtype=tf.int32).numpy()
    assert ints.dtype == np.int32 and ints.min() >= 2 and ints.max() <= 8
    floats = g.uniform([1000], -1.0, 3.0).numpy()
    assert floats.min() >= -1.0 and floats.max() < 3.0
    assert float(tf.reduce_max(tf.abs(g.truncated_normal([2000])))) <= 2.0
    assert g.uniform_full_int([2]).dtype == tf.uint64 and g.make_seeds(3).shape == (2, 3)
    children = g.split(2)
    assert len(children) == 2 and not np.allclose(children[0].normal([4]), children[1].normal([4]))
    with pytest.raises(ValueError, match="Must specify maxval for integer dtype"):
        g.uniform([2], dtype=tf.int32)
    assert tf.random.get_global_generator() is tf.random.get_global_generator()
    mine = tf.random.Generator.from_seed(9)
    tf.random.set_global_generator(mine)
    assert tf.random.get_global_generator() is mine
