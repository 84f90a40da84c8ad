"""Uniform row lengths (`from_uniform_row_length`, `uniform_row_length`, static shapes) and
tf.strings.split of matrices, against TensorFlow 2.21 (values, reprs and messages written here)."""
import numpy as np
import pytest

import eagerflow as tf

U = tf.RaggedTensor.from_uniform_row_length


def test_from_uniform_row_length_parts_and_repr():
    u = U([1, 2, 3, 4, 5, 6], 2)
    assert repr(u) == "<tf.RaggedTensor [[1, 2],\n [3, 4],\n [5, 6]]>"
    assert repr(u._type_spec) == "RaggedTensorSpec(TensorShape([3, 2]), tf.int32, 1, tf.int64)"
    assert u.shape.as_list() == [3, 2]
    assert u.uniform_row_length.dtype == tf.int64 and int(u.uniform_row_length) == 2
    np.testing.assert_array_equal(u.row_splits.numpy(), [0, 2, 4, 6])
    np.testing.assert_array_equal(u.row_lengths().numpy(), [2, 2, 2])
    assert int(u.nrows()) == 3
    np.testing.assert_array_equal(u.bounding_shape().numpy(), [3, 2])
    np.testing.assert_array_equal(u.to_tensor().numpy(), [[1, 2], [3, 4], [5, 6]])
    assert U([1, 2, 3, 4, 5, 6], 3, nrows=2).to_list() == [[1, 2, 3], [4, 5, 6]]
    assert U(tf.constant([1, 2, 3, 4]), tf.constant(2)).to_list() == [[1, 2], [3, 4]]
    assert tf.ragged.constant([[1, 2], [3]]).uniform_row_length is None


def test_zero_length_rows():
    z = U(tf.zeros([0]), 0, nrows=3)
    assert z.to_list() == [[], [], []] and z.shape.as_list() == [3, 0]
    z = U(tf.zeros([0]), 0)
    assert z.to_list() == [] and z.shape.as_list() == [0, 0]


@pytest.mark.parametrize("make,message", [
    (lambda: U([1, 2, 3, 4, 5, 6], 3, nrows=3), "uniform_row_length=3 times nrows=3 must equal nvals=6"),
    (lambda: U([1, 2, 3, 4, 5], 2), "uniform_row_length=2 times nrows=2 must equal nvals=5"),
    (lambda: U([1, 2], -1), "uniform_row_length must be >= 0."),
    (lambda: U([1, 2, 3, 4], 2.0), "UniformRowLength must have dtype int32 or int64"),
    (lambda: U([1, 2, 3, 4], [2]), "Shape (1,) must have rank 0"),
])
def test_bad_arguments(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert str(info.value) == message
    with pytest.raises(ValueError) as info:
        tf.function(make)()
    assert message in str(info.value)


def test_uniform_level_over_ragged_rows():
    u2 = U(tf.ragged.constant([[1, 2], [3], [4, 5, 6], []]), 2)
    assert repr(u2) == "<tf.RaggedTensor [[[1, 2], [3]],\n [[4, 5, 6], []]]>"
    assert u2.shape.as_list() == [2, 2, None] and u2.ragged_rank == 2 and int(u2.uniform_row_length) == 2
    assert [s.numpy().tolist() for s in u2.nested_row_splits] == [[0, 2, 4], [0, 2, 3, 6, 6]]
    np.testing.assert_array_equal(u2.to_tensor().numpy(), [[[1, 2, 0], [3, 0, 0]], [[4, 5, 6], [0, 0, 0]]])
    assert u2.to_list() == [[[1, 2], [3]], [[4, 5, 6], []]]
    # an integer may index a uniform dimension (not a ragged one)
    assert u2[1].to_list() == [[4, 5, 6], []] and u2[1].shape.as_list() == [2, None]
    assert u2[:, 1].to_list() == [[3], []] and u2[:, 1].shape.as_list() == [2, None]
    assert u2[:, :1].to_list() == [[[1, 2]], [[4, 5, 6]]] and u2[:, :1].shape.as_list() == [2, 1, None]
    u = U([1, 2, 3, 4, 5, 6], 2)
    np.testing.assert_array_equal(u[:, 1].numpy(), [2, 4, 6])
    np.testing.assert_array_equal(u[:, -1].numpy(), [2, 4, 6])
    np.testing.assert_array_equal(u[0].numpy(), [1, 2])
    assert u[:, 1:].to_list() == [[2], [4], [6]] and u[:, 1:].shape.as_list() == [3, 1]


def test_newaxis_makes_a_uniform_level():
    rr = tf.ragged.constant([[1, 2], [3], [4, 5, 6], []])
    assert repr(rr[None]._type_spec) == "RaggedTensorSpec(TensorShape([1, 4, None]), tf.int32, 2, tf.int64)"
    assert int(rr[None].uniform_row_length) == 4
    assert repr(rr[:, None]._type_spec) == "RaggedTensorSpec(TensorShape([4, 1, None]), tf.int32, 2, tf.int64)"


def test_uniform_ragged_through_tf_function():
    seen = []

    @tf.function
    def f(x):
        seen.append(x.shape.as_list())
        return x, x.uniform_row_length

    u = U([1, 2, 3, 4, 5, 6], 2)
    out, length = f(u)
    assert out.to_list() == [[1, 2], [3, 4], [5, 6]] and out.shape.as_list() == [3, 2] and int(length) == 2
    assert int(out.uniform_row_length) == 2
    f(tf.ragged.constant([[1], [2, 3], []]))  # spec [3, None]: another trace
    assert seen == [[3, 2], [3, None]]
    cf = f.get_concrete_function(tf.RaggedTensorSpec([None, 2, None], tf.int32, 2))
    assert "x (POSITIONAL_OR_KEYWORD): RaggedTensorSpec(TensorShape([None, 2, None]), tf.int32, 2, tf.int64)" in \
        cf.pretty_printed_signature()
    assert [repr(t) for t in cf.inputs] == ["<tf.Tensor 'x:0' shape=(None,) dtype=int32>",
                                             "<tf.Tensor 'x_1:0' shape=(None,) dtype=int64>",
                                             "<tf.Tensor 'x_2:0' shape=(None,) dtype=int64>"]
    # an input_signature with a uniform dimension: TensorFlow checks only the components' specs
    g = tf.function(lambda x: x.flat_values, input_signature=[tf.RaggedTensorSpec([None, 2], tf.int32, 1)])
    np.testing.assert_array_equal(g(u).numpy(), [1, 2, 3, 4, 5, 6])
    np.testing.assert_array_equal(g(tf.ragged.constant([[1], [2, 3], []])).numpy(), [1, 2, 3])


def test_strings_split_of_a_matrix_and_deeper():
    m = tf.strings.split([["a b", "c"], ["d e f", ""]])
    assert repr(m) == "<tf.RaggedTensor [[[b'a', b'b'], [b'c']],\n [[b'd', b'e', b'f'], []]]>"
    assert repr(m._type_spec) == "RaggedTensorSpec(TensorShape([2, 2, None]), tf.string, 2, tf.int64)"
    deep = tf.strings.split([[["a b"]], [["c"]]])
    assert deep.shape.as_list() == [2, 1, 1, None]
    assert deep.to_list() == [[[[b"a", b"b"]]], [[[b"c"]]]]
    assert tf.strings.split([["a,b", "c"]], sep=",").to_list() == [[[b"a", b"b"], [b"c"]]]
    traced = tf.function(lambda s: tf.strings.split(s))(tf.constant([["a b", "c"], ["d e f", ""]]))
    assert traced.to_list() == m.to_list() and traced.shape.as_list() == [2, 2, None]
    dynamic = tf.function(lambda s: tf.strings.split(s), input_signature=[tf.TensorSpec([None, None], tf.string)])
    assert dynamic(tf.constant([["a b", "c"], ["d e f", ""]])).to_list() == m.to_list()
