"""tf.io.VarLenFeature: parse_example / parse_single_example give a SparseTensor laid out as
TensorFlow 2.21 lays it out (examples serialized by TensorFlow, results written here)."""
import numpy as np
import pytest

import eagerflow as tf

E1 = b"\n\x1a\n\n\n\x01s\x12\x05\n\x03\n\x01x\n\x0c\n\x01a\x12\x07\x1a\x05\n\x03\x01\x02\x03"  # a=[1,2,3] s=[x]
E2 = b"\n\x1b\n\r\n\x01s\x12\x08\n\x06\n\x01p\n\x01q\n\n\n\x01a\x12\x05\x1a\x03\n\x01\x07"  # a=[7] s=[p,q]
E3 = b"\n\x0c\n\n\n\x01s\x12\x05\n\x03\n\x01z"  # s=[z], no a
FEATURES = {"a": tf.io.VarLenFeature(tf.int64), "s": tf.io.VarLenFeature(tf.string)}


def _check(sp, indices, values, dense_shape):
    assert isinstance(sp, tf.SparseTensor)
    np.testing.assert_array_equal(sp.indices.numpy(), np.array(indices, np.int64).reshape(-1, len(dense_shape)))
    assert sp.values.numpy().tolist() == values
    np.testing.assert_array_equal(sp.dense_shape.numpy(), dense_shape)


def test_single_example():
    out = tf.io.parse_single_example(E1, FEATURES)
    _check(out["a"], [[0], [1], [2]], [1, 2, 3], [3])
    _check(out["s"], [[0]], [b"x"], [1])
    missing = tf.io.parse_single_example(E3, {"a": tf.io.VarLenFeature(tf.int64)})["a"]
    _check(missing, np.zeros((0, 1)), [], [0])
    assert missing.dtype == tf.int64


@pytest.mark.parametrize("traced", [False, True])
def test_batch_eager_and_traced(traced):
    parse = lambda x: tf.io.parse_example(x, FEATURES)  # noqa: E731
    out = (tf.function(parse) if traced else parse)(tf.constant([E1, E2, E3]))
    _check(out["a"], [[0, 0], [0, 1], [0, 2], [1, 0]], [1, 2, 3, 7], [3, 3])
    _check(out["s"], [[0, 0], [1, 0], [1, 1], [2, 0]], [b"x", b"p", b"q", b"z"], [3, 2])


def test_with_dense_features_and_traced_spec():
    out = tf.io.parse_example([E1, E3], {"a": tf.io.VarLenFeature(tf.int64),
                                         "s": tf.io.FixedLenFeature([], tf.string, default_value="")})
    _check(out["a"], [[0, 0], [0, 1], [0, 2]], [1, 2, 3], [2, 3])
    assert out["s"].numpy().tolist() == [b"x", b"z"]
    cf = tf.function(lambda x: tf.io.parse_example(x, {"a": tf.io.VarLenFeature(tf.int64)})).get_concrete_function(
        tf.TensorSpec([None], tf.string))
    assert "Output Type:\n  Dict[['a', SparseTensorSpec(TensorShape([None, None]), tf.int64)]]" in \
        cf.pretty_printed_signature()


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Name: <unknown>, Key: a, Index: 0.  Data types don't "
                                                             "match. Expected type: float, Actual type: int64"):
        tf.io.parse_example([E1, E2], {"a": tf.io.VarLenFeature(tf.float32)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'sparse_types' of int32 is not in the "
                                                            "list of allowed values: float, int64, string"):
        tf.io.parse_example([E1], {"a": tf.io.VarLenFeature(tf.int32)})
