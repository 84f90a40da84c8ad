"""tf.nest and composites (SparseTensor, RaggedTensor): a composite is one leaf unless
expand_composites=True, as in TensorFlow 2.21 (its results written here)."""
import numpy as np
import pytest

import eagerflow as tf


def _sp():
    return tf.sparse.SparseTensor([[0, 0]], [1.0], [2, 2])


def _rt():
    return tf.ragged.constant([[1, 2, 3], [], [4, 5], [6]])


def test_flatten_keeps_composites_whole_unless_expanding():
    sp, rt = _sp(), _rt()
    assert tf.nest.flatten(sp)[0] is sp and len(tf.nest.flatten(sp)) == 1
    flat = tf.nest.flatten({"a": rt})
    assert len(flat) == 1 and flat[0] is rt
    parts = tf.nest.flatten(sp, expand_composites=True)
    assert [p.numpy().tolist() for p in parts] == [[[0, 0]], [1.0], [2, 2]]
    parts = tf.nest.flatten({"a": rt}, expand_composites=True)
    assert [p.numpy().tolist() for p in parts] == [[1, 2, 3, 4, 5, 6], [0, 3, 3, 5, 6]]
    assert not tf.nest.is_nested(sp) and not tf.nest.is_nested(rt)


def test_map_structure_and_pack_sequence_as():
    sp, rt = _sp(), _rt()
    assert tf.nest.map_structure(lambda x: x, [sp])[0] is sp
    assert tf.nest.map_structure(lambda x: type(x).__name__, {"r": rt}) == {"r": "RaggedTensor"}
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, rt, expand_composites=True)
    assert doubled.to_list() == [[2, 4, 6], [], [8, 10], [12]]
    assert tf.nest.pack_sequence_as([rt], [1]) == [1]
    again = tf.nest.pack_sequence_as([rt], tf.nest.flatten([rt], expand_composites=True), expand_composites=True)
    assert again[0].to_list() == [[1, 2, 3], [], [4, 5], [6]]
    with pytest.raises(ValueError, match="Only valid keyword arguments are `check_types` and `expand_composites`"):
        tf.nest.map_structure(lambda x: x, [1], foo=True)


def test_assert_same_structure():
    tf.nest.assert_same_structure(_sp(), tf.constant(1))  # two leaves
    tf.nest.assert_same_structure(_sp(), _sp(), expand_composites=True)
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.nest.assert_same_structure(_sp(), tf.constant(1), expand_composites=True)


def test_composites_still_cross_tf_function_cond_and_while():
    rt = _rt()

    @tf.function
    def f(x, n):
        y = tf.cond(n > 0, lambda: x.with_flat_values(x.flat_values + 1), lambda: x)
        return tf.while_loop(lambda i, r: i < n, lambda i, r: (i + 1, r.with_flat_values(r.flat_values * 2)),
                             (0, y))[1]

    assert f(rt, tf.constant(2)).to_list() == [[8, 12, 16], [], [20, 24], [28]]
    np.testing.assert_array_equal(tf.sparse.to_dense(tf.function(lambda s: s)(_sp())).numpy(), [[1, 0], [0, 0]])
