"""The everyday top-level functions under jit_compile=True: compositions (roll, sequence_mask,
reverse_sequence, dynamic_partition, histogram_fixed_width, unravel_index, saturate_cast,
broadcast_dynamic_shape, hessians) compile through their parts' lowerings, and the new ops
(LowerBound/UpperBound, EnsureShape, TruncateDiv/TruncateMod, DynamicStitch) through theirs.
Expected values are TensorFlow 2.21's with jit_compile=True where it compiles them, written in;
the same functions without jit_compile (the NumPy kernels) must agree."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402

X = tf.constant([[1., 2., 3.], [4., 5., 6.]])


def _both(fn, *args):
    jitted = tf.function(fn, jit_compile=True)(*args)
    plain = tf.function(fn)(*args)
    for j, p in zip(tf.nest.flatten(jitted), tf.nest.flatten(plain)):
        assert j.dtype == p.dtype and j.shape == p.shape
        np.testing.assert_array_equal(j.numpy(), p.numpy())
    return tf.nest.map_structure(lambda t: t.numpy().tolist(), jitted)


def test_compositions_compile_as_in_tensorflow():
    assert _both(lambda v: tf.roll(v, [1, -1], [0, 1]), X) == [[5, 6, 4], [2, 3, 1]]
    assert _both(lambda n: tf.sequence_mask(n, 4), tf.constant([1, 3])) == [[True, False, False, False],
                                                                           [True, True, True, False]]
    assert _both(lambda v, n: tf.reverse_sequence(v, n, seq_axis=1), X, tf.constant([2, 3])) == [[2, 1, 3],
                                                                                                [6, 5, 4]]
    assert _both(lambda d: tf.dynamic_partition(d, [0, 1], 2), X) == [[[1, 2, 3]], [[4, 5, 6]]]
    assert _both(lambda a: tf.saturate_cast(a, tf.uint8), tf.constant([300., -5.])) == [255, 0]
    assert _both(lambda a, b: tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b)), X, tf.ones([3])) == [2, 3]


def test_compositions_tensorflow_cannot_compile_compile_here():
    """TF 2.21's XLA has no kernel for HistogramFixedWidth or UnravelIndex ("Detected unsupported
    operations"); here they are compositions of compilable ops, so they compile, with the values
    of the uncompiled function (checked by _both) and of TF 2.21 without jit_compile."""
    assert _both(lambda v: tf.histogram_fixed_width(v, [0., 5.], nbins=5), tf.constant([0., 1., 1.5, 5.])) == [
        1, 2, 0, 0, 1]
    assert _both(lambda i: tf.unravel_index(i, [3, 4]), tf.constant([5, 7])) == [[1, 1], [1, 3]]
    assert _both(lambda n: tf.sequence_mask(n), tf.constant([1, 3])) == [[True, False, False], [True, True, True]]
    assert _both(lambda a: tf.hessians(tf.reduce_sum(a ** 3), a), tf.constant([1., 2.])) == [[[6, 0], [0, 12]]]


def test_new_ops_compile_as_in_tensorflow():
    assert _both(lambda a, v: tf.searchsorted(a, v, side="right"), tf.constant([[0., 3., 9.], [1., 2., 3.]]),
                 tf.constant([[2., 10.], [2.5, 0.]])) == [[1, 3], [2, 0]]
    assert _both(lambda v: tf.ensure_shape(v, [None, 3]), X) == X.numpy().tolist()
    assert _both(lambda a: (tf.truncatediv(a, 2), tf.truncatemod(a, 3)), tf.constant([-7, 7])) == ([-3, 3], [-1, 1])
    assert _both(lambda a, b: tf.dynamic_stitch([[0, 2], [1, 2]], [a, b]), tf.constant([1., 2.]),
                 tf.constant([3., 4.])) == [1, 3, 4]  # the later writer of position 2 wins


def test_tensor_scatter_on_a_constant_tensor_compiles():
    """Regression: the TensorScatter lowering called `.at` on a folded NumPy constant."""
    assert _both(lambda u: tf.tensor_scatter_nd_update(tf.zeros([3]), [[1]], u), tf.constant([5.])) == [0, 5, 0]


def test_timestamp_is_refused_by_the_compiler_as_in_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations when trying to compile "
                                                             "graph .* Timestamp"):
        tf.function(lambda: tf.timestamp(), jit_compile=True)()
