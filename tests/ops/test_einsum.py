"""`tf.einsum` against `np.einsum`: explicit and implicit outputs, ellipsis, TensorFlow's errors."""
import numpy as np
import pytest

import eagerflow as tf

IAE = tf.errors.InvalidArgumentError

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ij->ji", [(2, 3)]),
    ("ij->", [(2, 3)]),
    ("ij->j", [(2, 3)]),
    ("ji", [(2, 3)]),
    ("i,j->ij", [(2,), (3,)]),
    ("i,i->", [(4,), (4,)]),
    ("ii->i", [(3, 3)]),
    ("ij,ij->ij", [(2, 3), (2, 3)]),
    ("abc,cd->abd", [(2, 3, 4), (4, 2)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (5, 3, 4)]),
    ("i...->...", [(2, 3, 4)]),
    ("...i,...i->...", [(2, 3), (3,)]),
    (" ij , jk -> ik ", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize("equation,shapes", CASES, ids=[c[0] for c in CASES])
def test_einsum_matches_numpy(equation, shapes):
    rng = np.random.default_rng(0)
    xs = [rng.normal(size=s) for s in shapes]
    out = tf.einsum(equation, *[tf.constant(x) for x in xs])
    expected = np.einsum(equation.replace(" ", ""), *xs)
    assert out.dtype == tf.float64
    assert out.shape.as_list() == list(expected.shape)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_einsum_int_and_namespaces():
    a = tf.ones([2, 3], tf.int32)
    out = tf.linalg.einsum("ij,ij->i", a, a)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [3, 3]
    assert tf.einsum("ij,jk->ik", np.ones((2, 3)), np.ones((3, 1))).numpy().tolist() == [[3.0], [3.0]]


def test_einsum_errors():
    with pytest.raises(IAE, match=r"Expected dimension 3 at axis 0 of the input shaped \[4,5\] but got dimension 4"):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 5]))
    with pytest.raises(IAE, match="Expected dimension 2 at axis 0"):  # NumPy would broadcast; TensorFlow does not
        tf.einsum("ij,ij->ij", tf.ones([2, 3]), tf.ones([1, 3]))
    with pytest.raises(ValueError, match='Got 1 inputs for equation "ij,jk->ik", expecting 2'):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]))
    with pytest.raises(ValueError, match="label k not present in the input subscripts"):
        tf.einsum("ij->ijk", tf.ones([2, 3]))
    with pytest.raises(IAE, match="no ellipsis"):
        tf.einsum("...i->i", tf.ones([2, 3]))
    with pytest.raises(IAE, match="cannot compute Einsum as input #1"):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([3, 2], tf.float64))
    with pytest.raises(IAE, match="Value for attr 'T' of bool"):
        tf.einsum("ij->i", tf.ones([2, 3], tf.bool))


def test_einsum_gradient_of_summed_index_broadcasts_back():
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.einsum("ij->i", x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.ones((2, 3)))
