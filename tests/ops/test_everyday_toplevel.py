"""The everyday top-level functions a sweep of common TF 2.21 calls found missing (sequence_mask,
roll, searchsorted, ensure_shape, get_static_value, control_dependencies/group/no_op/tuple,
identity_n, realdiv/truncatediv/truncatemod, hessians, timestamp, get_logger, inside_function,
shape_n, saturate_cast, unravel_index, broadcast_*_shape, reverse_sequence, histogram_fixed_width,
dynamic_partition/stitch, the initializer classes). Expected values and messages are TF 2.21's on
the same calls, written in; each call runs eagerly and inside tf.function."""
import logging
import re

import numpy as np
import pytest

import eagerflow as tf

X = tf.constant([[1., 2., 3.], [4., 5., 6.]])
MODES = ["eager", "function"]


def run(mode, fn, *args):
    out = fn(*args) if mode == "eager" else tf.function(fn)(*args)
    return tf.nest.map_structure(lambda t: (t.numpy().tolist(), t.dtype.name) if hasattr(t, "dtype") else t, out)


@pytest.mark.parametrize("mode", MODES)
def test_sequence_mask(mode):
    assert run(mode, lambda: tf.sequence_mask([1, 3, 2], 4)) == (
        [[True, False, False, False], [True, True, True, False], [True, True, False, False]], "bool")
    assert run(mode, lambda: tf.sequence_mask([1, 3, 2]))[0] == [[True, False, False], [True, True, True],
                                                                 [True, True, False]]
    assert run(mode, lambda: tf.sequence_mask([[1, 2], [0, 3]]))[0] == [
        [[True, False, False], [True, True, False]], [[False, False, False], [True, True, True]]]
    assert run(mode, lambda: tf.sequence_mask([1, 2], 3, dtype=tf.float32)) == ([[1, 0, 0], [1, 1, 0]], "float32")
    assert run(mode, lambda n: tf.sequence_mask(n), tf.constant([1, 3], tf.int64))[0] == [[True, False, False],
                                                                                          [True, True, True]]
    # TF 2.21: eagerly Range's InvalidArgumentError; while tracing its shape function's ValueError
    error = tf.errors.InvalidArgumentError if mode == "eager" else ValueError
    with pytest.raises(error, match=re.escape("Requires start <= limit when delta > 0: 0/-1")):
        run(mode, lambda: tf.sequence_mask([1, 2], -1))


def test_sequence_mask_static_shape_in_a_graph():
    f = tf.function(lambda n: tf.sequence_mask(n, 4))
    assert f.get_concrete_function(tf.TensorSpec([2], tf.int32)).structured_outputs.shape.as_list() == [2, 4]


@pytest.mark.parametrize("mode", MODES)
def test_roll(mode):
    assert run(mode, lambda x: tf.roll(x, shift=1, axis=1), X) == ([[3, 1, 2], [6, 4, 5]], "float32")
    assert run(mode, lambda x: tf.roll(x, shift=[1, -1], axis=[0, 1]), X)[0] == [[5, 6, 4], [2, 3, 1]]
    assert run(mode, lambda: tf.roll(tf.range(5), -2, 0)) == ([2, 3, 4, 0, 1], "int32")
    assert run(mode, lambda: tf.roll(tf.range(5), [1, 2], [0, 0]))[0] == [2, 3, 4, 0, 1]  # shifts of one axis add
    with pytest.raises(tf.errors.InvalidArgumentError, match="axis 1 is out of range"):
        run(mode, lambda: tf.roll(tf.range(5), 1, 1))
    # TF 2.21: eagerly the kernel's InvalidArgumentError; while tracing Roll's shape function's ValueError
    if mode == "eager":
        with pytest.raises(tf.errors.InvalidArgumentError, match="shift and axis must have the same size"):
            run(mode, lambda x: tf.roll(x, [1, 2], [0]), X)
    else:
        with pytest.raises(ValueError, match=re.escape("Dimension 0 in both shapes must be equal, but are 2 and 1. "
                                                       "Shapes are [2] and [1].")):
            run(mode, lambda x: tf.roll(x, [1, 2], [0]), X)


def test_roll_with_a_shift_known_only_when_running_and_its_gradient():
    f = tf.function(lambda x, s: tf.roll(x, s, 1)).get_concrete_function(tf.TensorSpec([None, None]),
                                                                         tf.TensorSpec([], tf.int32))
    assert f(X, tf.constant(1)).numpy().tolist() == [[3, 1, 2], [6, 4, 5]]
    assert f(X, tf.constant(-4)).numpy().tolist() == [[2, 3, 1], [5, 6, 4]]
    with tf.GradientTape() as g:
        g.watch(X)
        y = tf.roll(X, 1, 1) * tf.constant([[1., 2., 3.], [4., 5., 6.]])
    assert g.gradient(y, X).numpy().tolist() == [[2, 3, 1], [5, 6, 4]]  # TF 2.21


@pytest.mark.parametrize("mode", MODES)
def test_searchsorted(mode):
    assert run(mode, lambda a, v: tf.searchsorted(a, v), tf.constant([[0., 3., 9.], [1., 2., 3.]]),
               tf.constant([[2., 10.], [2.5, 0.]])) == ([[1, 3], [2, 0]], "int32")
    assert run(mode, lambda: tf.searchsorted([0, 3, 3, 9], [3, 3], side="right")) == ([3, 3], "int32")
    assert run(mode, lambda: tf.searchsorted([0., 3., 9.], [2., 10.])) == ([1, 3], "int32")
    assert run(mode, lambda: tf.searchsorted([1, 2], [1], out_type=tf.int64)) == ([0], "int64")
    assert run(mode, lambda: tf.searchsorted(tf.reshape(tf.range(12), [2, 2, 3]),
                                             tf.constant([[[1], [5]], [[7], [12]]])))[0] == [[[1], [2]], [[1], [3]]]
    with pytest.raises(ValueError, match=re.escape("Argument `side` must be either 'right' or 'left'. Received: "
                                                   "`side` = 'middle'.")):
        run(mode, lambda: tf.searchsorted([1, 2], [1], side="middle"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Leading dim_size of both tensors must match."):
        run(mode, lambda: tf.searchsorted([[1, 2]], [[1], [2]]))


def test_searchsorted_refuses_mixed_dtypes_as_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "cannot compute LowerBound as input #1(zero-based) was expected to be a float tensor but is a int32 tensor")):
        tf.searchsorted([1., 2.], [1])


def test_ensure_shape():
    assert tf.ensure_shape(X, [2, None]).numpy().tolist() == X.numpy().tolist()
    assert tf.ensure_shape(X, None).shape.as_list() == [2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Shape of tensor input [2,3] is not compatible with expected shape [3,3].")):
        tf.ensure_shape(X, [3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Shape of tensor input [2,3] is not compatible with expected shape [2].")):
        tf.ensure_shape(X, [2])
    # while tracing: TF 2.21's shape-inference ValueError, and the static shape is set
    with pytest.raises(ValueError, match=re.escape("Dimension 0 in both shapes must be equal, but are 3 and 2. "
                                                   "Shapes are [3,3] and [2,3].")):
        tf.function(lambda v: tf.ensure_shape(v, [3, 3]))(X)
    seen = []
    f = tf.function(lambda v: (seen.append(tf.ensure_shape(v, [None, 3]).shape.as_list()), v)[1])
    f.get_concrete_function(tf.TensorSpec([None, None]))
    assert seen == [[None, 3]]
    g = tf.function(lambda v: tf.ensure_shape(v, [None, 3]), input_signature=[tf.TensorSpec([None, None])])
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("Shape of tensor v [2,2] is not compatible "
                                                                       "with expected shape [?,3].")):
        g(tf.ones([2, 2]))
    with tf.GradientTape() as tape:
        tape.watch(X)
        y = tf.ensure_shape(X, [2, 3]) * X
    assert tape.gradient(y, X).numpy().tolist() == [[2, 4, 6], [8, 10, 12]]


def test_get_static_value():
    assert tf.get_static_value(X).tolist() == X.numpy().tolist()
    assert tf.get_static_value([1, 2]) == [1, 2]
    assert tf.get_static_value(tf.constant(2) + 3) == 5
    seen = []

    def f(v):
        seen.append((tf.get_static_value(v), tf.get_static_value(tf.shape(v)), tf.get_static_value(tf.size(v)),
                     tf.get_static_value(tf.rank(v)), tf.get_static_value(tf.constant(2) * 3)))
        return v
    tf.function(f)(X)
    v, shape, size, rank, product = seen[0]
    assert v is None and shape.tolist() == [2, 3] and shape.dtype == np.int32 and size == 6 and rank == 2
    assert product == 6
    seen.clear()
    tf.function(f, input_signature=[tf.TensorSpec([None, 3])])(X)
    assert seen[0][1] is None and seen[0][2] is None and seen[0][3] == 2


def test_control_dependencies_group_no_op_and_tuple():
    v = tf.Variable(1.0)

    @tf.function
    def f():
        a = v.assign_add(1.0)
        with tf.control_dependencies([a]):
            b = tf.identity(v)
        return b
    assert f().numpy() == 2.0  # TF 2.21
    ctx = tf.control_dependencies([X])
    assert (ctx.__enter__(), ctx.__exit__(None, None, None)) == (None, False)  # eagerly a no-op context
    assert tf.no_op() is None and tf.group(X, X) is None and tf.group() is None
    kinds = []

    @tf.function
    def g():
        kinds.append((tf.group(tf.constant(1)).type, tf.no_op().type))
        return tf.constant(1)
    assert g().numpy() == 1 and kinds == [("NoOp", "NoOp")]
    assert [t.numpy().tolist() for t in tf.tuple([X, X])] == [X.numpy().tolist()] * 2
    assert tf.tuple([X, None])[1] is None


def test_control_dependencies_keep_and_order_a_pure_dependency():
    """Ops created in the block get the dependency as a control input: pruning keeps it (though
    nothing reads its value) and it comes first in the generated code."""
    seen = []

    @tf.function
    def f(x):
        dep = tf.reduce_max(x)
        with tf.control_dependencies([dep]):
            y = x * 2.0
        seen.append((y.op.control_inputs, dep.op))
        return y
    cf = f.get_concrete_function(tf.TensorSpec([None]))
    assert cf(tf.constant([1.0])).numpy().tolist() == [2.0]
    inputs, dep_op = seen[0]
    assert inputs == [dep_op]
    assert "Max" in cf.code and cf.code.index("Max") < cf.code.index("Mul")

    @tf.function
    def g(x):
        tf.reduce_max(x)  # no dependant: pruned
        return x * 2.0
    assert "Max" not in g.get_concrete_function(tf.TensorSpec([None])).code


@pytest.mark.parametrize("mode", MODES)
def test_divisions(mode):
    assert run(mode, lambda x: tf.realdiv(x, 2.0), X) == ([[0.5, 1, 1.5], [2, 2.5, 3]], "float32")
    assert run(mode, lambda: tf.truncatediv(tf.constant([-7, 7]), 2)) == ([-3, 3], "int32")
    assert run(mode, lambda: tf.truncatemod(tf.constant([-7, 7]), 3)) == ([-1, 1], "int32")
    assert run(mode, lambda: tf.truncatediv(tf.constant([-7., 7.]), 2.)) == ([-3, 3], "float32")
    assert run(mode, lambda: tf.truncatemod(tf.constant([-7.5, 7.5]), 2.)) == ([-1.5, 1.5], "float32")
    with pytest.raises(tf.errors.InternalError, match=re.escape(
            "Unexpected error in binary operator (only integer div and mod should have errors)")):
        run(mode, lambda: tf.truncatediv(tf.constant([-7, 7]), 0))


def test_truncating_ops_have_no_gradient():
    a = tf.constant([-7., 7.])
    with tf.GradientTape(persistent=True) as g:
        g.watch(a)
        y, z = tf.truncatediv(a, 2.), tf.truncatemod(a, 2.)
    assert g.gradient(y, a) is None and g.gradient(z, a) is None


@pytest.mark.parametrize("mode", MODES)
def test_identity_n_shape_n_and_casts(mode):
    assert run(mode, lambda x: tf.identity_n([x, tf.constant(1)]), X) == [(X.numpy().tolist(), "float32"),
                                                                          (1, "int32")]
    assert run(mode, lambda x: tf.shape_n([x, x[0]]), X) == [([2, 3], "int32"), ([3], "int32")]
    assert run(mode, lambda x: tf.shape_n([x], out_type=tf.int64), X) == [([2, 3], "int64")]
    assert run(mode, lambda: tf.saturate_cast(tf.constant([300., -5.]), tf.uint8)) == ([255, 0], "uint8")
    assert run(mode, lambda: tf.saturate_cast(tf.constant([3e9, -3e9, 1.7]), tf.int32)) == (
        [2147483520, -2147483648, 1], "int32")
    assert run(mode, lambda: tf.saturate_cast(tf.constant([-1, 70000]), tf.uint16)) == ([0, 65535], "uint16")
    assert run(mode, lambda: tf.saturate_cast(tf.constant([200], tf.uint8), tf.int8)) == ([127], "int8")


def test_shape_n_refuses_mixed_dtypes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "cannot compute ShapeN as input #1(zero-based) was expected to be a float tensor but is a int32 tensor")):
        tf.shape_n([X, tf.constant([1])])


@pytest.mark.parametrize("mode", MODES)
def test_unravel_and_broadcast_shapes(mode):
    assert run(mode, lambda: tf.unravel_index([5, 7], [3, 4])) == ([[1, 1], [1, 3]], "int32")
    assert run(mode, lambda: tf.unravel_index(5, [3, 4])) == ([1, 1], "int32")
    assert run(mode, lambda: tf.unravel_index(tf.constant([5], tf.int64), [3, 4])) == ([[1], [1]], "int64")
    with pytest.raises(tf.errors.InvalidArgumentError, match="index is out of bound as with dims"):
        run(mode, lambda: tf.unravel_index([12], [3, 4]))
    assert run(mode, lambda: tf.broadcast_dynamic_shape([2, 1], [3])) == ([2, 3], "int32")
    assert run(mode, lambda: tf.broadcast_dynamic_shape(tf.constant([2, 1], tf.int64), tf.constant([3], tf.int64))) \
        == ([2, 3], "int64")
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("Incompatible shapes: [2] vs. [3]")):
        run(mode, lambda: tf.broadcast_dynamic_shape([2], [3]))


def test_broadcast_dynamic_shape_of_shapes_known_only_when_running():
    f = tf.function(lambda a, b: tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b))).get_concrete_function(
        tf.TensorSpec([None, None]), tf.TensorSpec([None]))
    assert f(tf.ones([2, 1]), tf.ones([3])).numpy().tolist() == [2, 3]


def test_broadcast_static_shape():
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])).as_list() == [2, 3]
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([3])).as_list() == [None, 3]
    with pytest.raises(ValueError, match=re.escape("Incompatible shapes for broadcasting. Two shapes are compatible "
                                                   "if for each dimension pair they are either equal or one of them "
                                                   "is 1. Received: (2,) and (3,).")):
        tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3]))


@pytest.mark.parametrize("mode", MODES)
def test_reverse_sequence(mode):
    m = tf.constant([[1, 2, 3], [4, 5, 6]])
    assert run(mode, lambda: tf.reverse_sequence(m, [2, 3], seq_axis=1, batch_axis=0)) == ([[2, 1, 3], [6, 5, 4]],
                                                                                           "int32")
    assert run(mode, lambda: tf.reverse_sequence(tf.reshape(tf.range(12), [3, 2, 2]), [1, 2], seq_axis=0,
                                                 batch_axis=1))[0] == [[[0, 1], [6, 7]], [[4, 5], [2, 3]],
                                                                       [[8, 9], [10, 11]]]
    assert run(mode, lambda: tf.reverse_sequence(tf.constant([[1., 2, 3]]), tf.constant([3], tf.int64),
                                                 seq_axis=1))[0] == [[3, 2, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("seq_lens(1) > input.dims(1)")):
        run(mode, lambda: tf.reverse_sequence(m, [2, 4], seq_axis=1))
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("Length of seq_lengths != input.dims(0), "
                                                                       "(1 vs. 2)")):
        run(mode, lambda: tf.reverse_sequence(m, [2], seq_axis=1))
    with pytest.raises(tf.errors.InvalidArgumentError, match="batch_dim == seq_dim == 0"):
        run(mode, lambda: tf.reverse_sequence(m, [2, 1], seq_axis=0, batch_axis=0))


def test_reverse_sequence_gradient_as_tensorflow():
    with tf.GradientTape() as g:
        g.watch(X)
        y = tf.reverse_sequence(X, [2, 3], seq_axis=1) * X
    assert g.gradient(y, X).numpy().tolist() == [[4, 2, 6], [12, 10, 8]]  # TF 2.21


@pytest.mark.parametrize("mode", MODES)
def test_histogram_fixed_width(mode):
    assert run(mode, lambda: tf.histogram_fixed_width(tf.constant([0., 1., 1.5, 5.]), [0., 5.], nbins=5)) == (
        [1, 2, 0, 0, 1], "int32")
    assert run(mode, lambda: tf.histogram_fixed_width(tf.constant([-1., 0.5, 4.99, 5., 7.]), [0., 5.], nbins=5))[0] \
        == [2, 0, 0, 0, 3]
    assert run(mode, lambda: tf.histogram_fixed_width(tf.constant([1, 2, 3]), [0, 4], nbins=2)) == ([1, 2], "int32")
    assert run(mode, lambda: tf.histogram_fixed_width(tf.constant([1., 2.]), [0., 4.], nbins=2, dtype=tf.int64)) == (
        [1, 1], "int64")
    assert run(mode, lambda: tf.histogram_fixed_width(tf.constant([[1., 2.], [3., 3.5]]), [0., 4.], nbins=4))[0] == [
        0, 1, 1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "value_range should satisfy value_range[0] < value_range[1], but got '[4, 0]'")):
        run(mode, lambda: tf.histogram_fixed_width(tf.constant([1., 2.]), [4., 0.], nbins=2))
    with pytest.raises(tf.errors.InvalidArgumentError, match="nbins should be a positive number, but got '0'"):
        run(mode, lambda: tf.histogram_fixed_width(tf.constant([1., 2.]), [0., 4.], nbins=0))


@pytest.mark.parametrize("mode", MODES)
def test_dynamic_partition_and_stitch(mode):
    assert run(mode, lambda: tf.dynamic_partition(tf.constant([10, 20, 30, 40]), [0, 1, 0, 1], 2)) == [
        ([10, 30], "int32"), ([20, 40], "int32")]
    assert run(mode, lambda: tf.dynamic_partition(tf.constant([[1, 2], [3, 4], [5, 6]]), [1, 0, 1], 2)) == [
        ([[3, 4]], "int32"), ([[1, 2], [5, 6]], "int32")]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("partitions[1] = 2 is not in [0, 2)")):
        run(mode, lambda: tf.dynamic_partition(tf.constant([10, 20]), [0, 2], 2))
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "data.shape must start with partitions.shape, got data.shape = [2], partitions.shape = [1]")):
        run(mode, lambda: tf.dynamic_partition(tf.constant([10, 20]), [0], 2))
    assert run(mode, lambda: tf.dynamic_stitch([[0, 2], [1, 3]], [[10, 30], [20, 40]])) == ([10, 20, 30, 40], "int32")
    assert run(mode, lambda: tf.dynamic_stitch([[0, 1], [1]], [[1., 2.], [3.]])) == ([1, 3], "float32")
    assert run(mode, lambda: tf.dynamic_stitch([[0, 2], [1]], [[[1, 1], [2, 2]], [[3, 3]]]))[0] == [[1, 1], [3, 3],
                                                                                                   [2, 2]]
    assert run(mode, lambda: tf.dynamic_stitch([[0, 3]], [[1, 2]]))[0] == [1, 0, 0, 2]
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape(
            "data[0].shape = [3] does not start with indices[0].shape = [2]")):
        run(mode, lambda: tf.dynamic_stitch([[0, 1]], [[1, 2, 3]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape("indices[1] is out of range")):
        run(mode, lambda: tf.dynamic_stitch([[0, -1]], [[1, 2]]))


def test_partition_and_stitch_gradients_as_tensorflow():
    with tf.GradientTape() as g:
        g.watch(X)
        y = tf.dynamic_partition(X, [1, 0], 2)[1] * 3.
    assert g.gradient(y, X).numpy().tolist() == [[3, 3, 3], [0, 0, 0]]
    a, b = tf.constant([1., 2.]), tf.constant([3., 4.])
    with tf.GradientTape() as g:
        g.watch([a, b])
        y = tf.dynamic_stitch([[0, 2], [1, 3]], [a, b]) * tf.constant([5., 7., 9., 11.])
    assert [t.numpy().tolist() for t in g.gradient(y, [a, b])] == [[5, 9], [7, 11]]


def test_partition_with_partitions_known_only_when_running():
    f = tf.function(lambda d, p: tf.dynamic_partition(d, p, 2)).get_concrete_function(
        tf.TensorSpec([None, 2], tf.int32), tf.TensorSpec([None], tf.int32))
    assert [t.numpy().tolist() for t in f(tf.constant([[1, 2], [3, 4], [5, 6]]), tf.constant([1, 0, 1]))] == [
        [[3, 4]], [[1, 2], [5, 6]]]


def test_hessians_as_tensorflow():
    @tf.function
    def h(x):
        return tf.hessians(tf.reduce_sum(x ** 3), x)
    assert [t.numpy().tolist() for t in h(tf.constant([1., 2.]))] == [[[6, 0], [0, 12]]]

    @tf.function
    def h2(x):
        return tf.hessians(tf.reduce_sum(x ** 3), x)
    assert h2(tf.constant([[1., 2.], [3., 4.]]))[0].numpy().tolist() == [
        [[[6, 0], [0, 0]], [[0, 12], [0, 0]]], [[[0, 0], [18, 0]], [[0, 0], [0, 24]]]]

    @tf.function
    def h3(x):
        return tf.hessians([tf.reduce_sum(x ** 3), tf.reduce_sum(x ** 2)], [x])
    assert h3(tf.constant([1., 2.]))[0].numpy().tolist() == [[8, 0], [0, 14]]
    with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled"):
        tf.hessians(tf.constant(1.), tf.constant(1.))


def test_timestamp_logger_and_inside_function():
    t = tf.timestamp()
    assert t.dtype == tf.float64 and float(t) > 1e9
    f = tf.function(lambda: tf.timestamp())
    first = float(f())
    assert float(f()) >= first > 1e9  # read on every call, not folded into a constant
    assert tf.get_logger() is logging.getLogger("tensorflow") and isinstance(tf.get_logger(), logging.Logger)
    assert tf.inside_function() is False
    assert bool(tf.function(lambda: tf.constant(tf.inside_function()))()) is True


def test_initializers_as_tensorflow():
    assert (tf.constant_initializer(3.)(shape=[2]).numpy().tolist(), tf.constant_initializer(3.)([2]).dtype) == (
        [3, 3], tf.float32)
    assert tf.constant_initializer(3)(shape=[2], dtype=tf.int32).dtype == tf.int32
    assert tf.constant_initializer()([2]).dtype == tf.int32
    assert tf.constant_initializer([1., 2., 3., 4.])(shape=[2, 2]).numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(TypeError, match="has 3 elements, but got `shape` \\(2, 2\\) with 4 elements"):
        tf.constant_initializer([1., 2., 3.])(shape=[2, 2])
    assert tf.constant_initializer(3.).get_config() == {"value": 3.0}
    assert tf.zeros_initializer()([2]).numpy().tolist() == [0, 0] and tf.zeros_initializer().get_config() == {}
    assert tf.zeros_initializer()([2], tf.int64).dtype == tf.int64
    assert tf.ones_initializer()(shape=[2]).numpy().tolist() == [1, 1]
    with pytest.raises(ValueError, match="Argument `dtype` expected to be numeric or boolean."):
        tf.ones_initializer()([2], tf.string)
    assert tf.random_normal_initializer().get_config() == {"mean": 0.0, "stddev": 0.05, "seed": None}
    assert tf.random_uniform_initializer().get_config() == {"minval": -0.05, "maxval": 0.05, "seed": None}
    with pytest.raises(ValueError, match="Argument `dtype` is expected to be floating point."):
        tf.random_normal_initializer()([3], tf.int32)
    init = tf.random_uniform_initializer(seed=3)
    assert init([3]).numpy().tolist() == init([3]).numpy().tolist()  # seeded: the same draw each call
    draw = tf.random_uniform_initializer(0, 10)([1000], tf.int32).numpy()
    assert draw.dtype == np.int32 and draw.min() >= 0 and draw.max() < 10
    wide = tf.random_normal_initializer(1.0, 2.0, seed=1)([20000]).numpy()
    assert abs(wide.mean() - 1.0) < 0.1 and abs(wide.std() - 2.0) < 0.1
    assert tf.function(lambda: tf.random_normal_initializer(seed=1)([2]))().shape.as_list() == [2]


def test_dynamic_stitch_gradient_reaches_every_writer_as_in_tensorflow():
    a, b = tf.constant([1., 2.]), tf.constant([3.])
    for mode in MODES:
        def f(a, b):
            with tf.GradientTape() as g:
                g.watch([a, b])
                y = tf.dynamic_stitch([[0, 1], [1]], [a, b]) * tf.constant([5., 7.])
            return g.gradient(y, [a, b])
        got = f(a, b) if mode == "eager" else tf.function(f)(a, b)
        assert [t.numpy().tolist() for t in got] == [[5, 7], [7]]  # TF 2.21: the overwritten a[1] gets 7 too


def test_dynamic_stitch_static_shape_from_constant_indices():
    seen = []
    tf.function(lambda d: seen.append(tf.dynamic_stitch([[0, 4]], [d]).shape.as_list()))(tf.ones([2, 3]))
    assert seen == [[5, 3]]


def test_new_ops_round_trip_through_saved_model(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None, 3])])
        def f(self, x):
            a = tf.ensure_shape(x, [None, 3])
            b = tf.searchsorted(tf.constant([[0., 3., 9.]]), a[:1])
            c = tf.dynamic_stitch([[0, 2], [1]], [a[0, :2], a[0, 2:]])
            with tf.control_dependencies([b]):
                e = tf.identity(c)
            return a, b, c, tf.truncatediv(a, 2.), e, tf.timestamp() > 0
    tf.saved_model.save(M(), str(tmp_path))
    got = [t.numpy().tolist() for t in tf.saved_model.load(str(tmp_path)).f(X)]
    assert got == [X.numpy().tolist(), [[1, 1, 1]], [1, 3, 2], [[0, 1, 1], [2, 2, 3]], [1, 3, 2], True]


_N = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
# (call, arguments, TF 2.21's eager result): each also runs traced with every dim unknown
_DYNAMIC = [
    (lambda v: tf.roll(v, [2, -1], [1, 0]), (_N,), [[6, 7, 4, 5], [10, 11, 8, 9], [2, 3, 0, 1]]),
    (lambda n: tf.sequence_mask(n, 5), (tf.constant([1, 4, 0]),),
     [[True, False, False, False, False], [True, True, True, True, False], [False] * 5]),
    (lambda n: tf.sequence_mask(n), (tf.constant([[1, 4], [0, 2]]),),
     [[[True, False, False, False], [True, True, True, True]], [[False] * 4, [True, True, False, False]]]),
    (lambda a, v: tf.searchsorted(a, v), (tf.constant([[0., 1., 5.], [2., 3., 4.], [0., 0., 1.]]),
                                          tf.constant([[0.5, 9.], [3., 3.5], [0., 1.]])), [[1, 3], [1, 2], [0, 2]]),
    (lambda v, n: tf.reverse_sequence(v, n, seq_axis=1, batch_axis=0), (_N, tf.constant([4, 0, 2])),
     [[3, 2, 1, 0], [4, 5, 6, 7], [9, 8, 10, 11]]),
    (lambda v, n: tf.reverse_sequence(v, n, seq_axis=0, batch_axis=1), (_N, tf.constant([3, 1, 2, 0])),
     [[8, 1, 6, 3], [4, 5, 2, 7], [0, 9, 10, 11]]),
    (lambda v: tf.histogram_fixed_width(v, [1., 9.], nbins=4), (_N,), [3, 2, 2, 5]),
    (lambda d, p: tf.dynamic_partition(d, p, 3), (_N, tf.constant([2, 0, 2])),
     [[[4, 5, 6, 7]], [], [[0, 1, 2, 3], [8, 9, 10, 11]]]),
    (lambda a, b: tf.dynamic_stitch([[3, 1], [0]], [a, b]), (_N[:2], _N[2:]),
     [[8, 9, 10, 11], [4, 5, 6, 7], [0, 0, 0, 0], [0, 1, 2, 3]]),
    (lambda i: tf.unravel_index(i, [2, 3, 2]), (tf.constant([0, 11, 5, 6]),), [[0, 1, 0, 1], [0, 2, 2, 0],
                                                                             [0, 1, 1, 0]]),
    (lambda a, b: tf.broadcast_dynamic_shape(tf.shape(a), tf.shape(b)), (_N, tf.ones([3, 1, 1])), [3, 3, 4]),
    (lambda a: tf.saturate_cast(a * 30, tf.int8), (_N,), [[0, 30, 60, 90], [120, 127, 127, 127], [127] * 4]),
]


@pytest.mark.parametrize("case", range(len(_DYNAMIC)))
def test_values_with_shapes_known_only_when_running(case):
    fn, args, expected = _DYNAMIC[case]
    specs = [tf.TensorSpec([None] * a.shape.rank, a.dtype) for a in args]
    for result in (fn(*args), tf.function(fn).get_concrete_function(*specs)(*args)):
        got = [t.numpy().tolist() for t in result] if isinstance(result, list) else result.numpy().tolist()
        assert got == expected


def test_unravel_index_rank_errors_as_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape('The indices can only be scalar or vector, '
                                                                       'got "[1,1]"')):
        tf.unravel_index([[1]], [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match=re.escape('The indices can only be 1-D, got "[1,2]"')):
        tf.unravel_index([1], [[2, 3]])
