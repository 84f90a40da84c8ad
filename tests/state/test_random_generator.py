"""tf.random.Generator: a seed reproduces its stream, draws advance the state variable (eagerly and in
each run of a traced function), reset and split, the distributions' ranges and dtypes, TF's errors.
The numbers and states are TensorFlow 2.21's (written in): the draws are its Philox stream, and a
draw of n values moves the counter on by 256 * n as its kernel does."""
import numpy as np
import pytest

import eagerflow as tf


def test_a_seed_gives_tensorflows_numbers_and_states():
    g = tf.random.Generator.from_seed(1)
    assert g.state.numpy().tolist() == [1, 0, 0]  # TF 2.21's layout for from_seed(1): counter 1, key 0
    draws = [
        (lambda: g.uniform([3]), [0.7874951362609863, 0.3906511068344116, 0.29263055324554443], [769, 0, 0]),
        (lambda: g.normal([3]), [-0.8393225073814392, 0.16036783158779144, -0.8617845773696899], [1537, 0, 0]),
        (lambda: g.uniform([2], dtype=tf.float64), [0.9402568022850333, 0.21826491288239658], [2049, 0, 0]),
        (lambda: g.uniform([4], minval=0, maxval=10, dtype=tf.int32), [1, 2, 9, 8], [3073, 0, 0]),
        (lambda: g.truncated_normal([5]), [-0.16787435114383698, 1.8853472471237183, -1.229236364364624,
                                           0.3688398003578186, 0.5883346796035767], [4353, 0, 0]),
        (lambda: g.uniform_full_int([2], dtype=tf.int64), [-3206527474837102847, -822974215341821412], [4865, 0, 0]),
    ]
    for draw, want, state in draws:
        got = draw().numpy()
        if got.dtype.kind == "f":  # normals: within one float32 ulp (NumPy's sin/cos/log against Eigen's)
            np.testing.assert_allclose(got, want, rtol=2e-7, atol=1e-7)
        else:
            assert got.tolist() == want
        assert g.state.numpy().tolist() == state
    assert g.make_seeds(2).numpy().tolist() == [[-7204024886673235746, -4472212563072582704], [0, 0]]
    assert g.state.numpy().tolist() == [5377, 0, 0]
    children = g.split(2)
    assert [c.state.numpy().tolist() for c in children] == [[0, 0, 2344438790341801005], [0, 0, 910079846095951685]]
    assert g.state.numpy().tolist() == [5889, 0, 0]
    assert tf.random.Generator.from_seed(2 ** 70 + 5).state.numpy().tolist() == [5, 64, 0]
    assert tf.random.Generator.from_seed(-1).state.numpy().tolist() == [-1, -1, -1]
    three = tf.random.Generator.from_seed(3)
    np.testing.assert_allclose(three.uniform([2], minval=2.0, maxval=5.0).numpy(), [2.3968958854675293, 3.6044294834136963])
    assert tf.random.Generator.from_seed(3).uniform([2], minval=-5, maxval=7, dtype=tf.int64).numpy().tolist() == [-4, -2]
    assert tf.random.Generator.from_seed(3).uniform([2], dtype=tf.float16).numpy().tolist() == [0.7900390625, 0.162109375]


def test_draws_advance_the_state_in_each_run_of_a_traced_function():
    g = tf.random.Generator.from_seed(5)

    @tf.function
    def draw():
        return g.normal([3])
    first, second = draw().numpy(), draw().numpy()
    assert not np.allclose(first, second)
    # TF 2.21: two runs of the traced draw from from_seed(5), and the state after them
    np.testing.assert_allclose(first, [1.0278524160385132, 0.2797411382198334, first[2]], rtol=2e-7)
    assert g.state.numpy().tolist() == [5 + 2 * 3 * 256, 0, 0]
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
