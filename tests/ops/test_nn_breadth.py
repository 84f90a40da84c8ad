"""tf.nn breadth: depthwise/separable convolution, space/depth moves, LRN, softsign, the composed
losses and moment helpers, pool/convolution/conv_transpose. Expected numbers and messages were
produced by TensorFlow 2.21 and are written here; NumPy references check the rest."""
import numpy as np
import pytest

import eagerflow as tf

IMG = np.random.default_rng(0).uniform(-2, 2, (2, 5, 6, 4)).astype(np.float32)


def _graph_op_types(fn, *args):
    cf = tf.function(fn).get_concrete_function(*[tf.TensorSpec(np.shape(a), tf.as_dtype(np.asarray(a).dtype))
                                                 for a in args])
    return [op.type for op in cf.graph.get_operations() if op.type not in ("Placeholder", "Identity", "Const")]


def _modes(fn, *args):
    """The result eagerly and through tf.function (both must agree)."""
    eager = fn(*[tf.constant(a) for a in args])
    traced = tf.function(fn)(*[tf.constant(a) for a in args])
    for e, t in zip(tf.nest.flatten(eager), tf.nest.flatten(traced)):
        np.testing.assert_allclose(e.numpy(), t.numpy(), rtol=1e-6)
    return eager


# --- values TensorFlow 2.21 gives ---------------------------------------------------------------


def test_space_to_depth_and_depth_to_space_match_tensorflow():
    s2d = _modes(lambda x: tf.nn.space_to_depth(x, 2), np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2))
    assert s2d.numpy().tolist() == [[[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]],
                                     [[8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0]]]]
    d2s = _modes(lambda x: tf.nn.depth_to_space(x, 2), np.arange(16, dtype=np.float32).reshape(1, 2, 2, 4))
    assert d2s.numpy()[0, :, :, 0].tolist() == [[0, 1, 4, 5], [2, 3, 6, 7], [8, 9, 12, 13], [10, 11, 14, 15]]
    x = IMG[:, :4]
    np.testing.assert_array_equal(tf.nn.depth_to_space(tf.nn.space_to_depth(x, 2), 2).numpy(), x)


def test_lrn_and_its_gradient_match_tensorflow():
    x = (np.arange(12, dtype=np.float32).reshape(1, 1, 2, 6) - 5) / 4
    expected = [[-1.058148980140686, -0.7756655812263489, -0.7278530597686768, -0.604508101940155,
                 -0.3600953221321106, 0.0],
                [0.3600953221321106, 0.604508101940155, 0.7278530597686768, 0.7756655812263489,
                 0.7849856615066528, 1.0592689514160156]]
    got = _modes(lambda v: tf.nn.lrn(v, 1, 0.5, 0.3, 0.7), x)
    np.testing.assert_allclose(got.numpy()[0, 0], expected, rtol=1e-6)
    w = np.arange(12, dtype=np.float32).reshape(1, 1, 2, 6)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.local_response_normalization(xt, 1, 0.5, 0.3, 0.7) * w
    grad_tf = [[-0.28328657150268555, -0.03673285245895386, 0.5824489593505859, 2.325261116027832,
                5.257073879241943, 7.915882110595703],
               [7.677501201629639, 5.362001895904541, 2.7285923957824707, 0.9020755290985107,
                -2.1114513874053955, 0.7578639984130859]]
    np.testing.assert_allclose(tape.gradient(y, xt).numpy()[0, 0], grad_tf, rtol=1e-5, atol=1e-6)


def _lrn_reference(x, r, bias, alpha, beta):
    sq = np.pad(x * x, [(0, 0)] * 3 + [(r, r)])
    sums = sum(sq[..., i:i + x.shape[-1]] for i in range(2 * r + 1))
    return x / (bias + alpha * sums) ** beta


def test_lrn_gradient_matches_float64_differences_of_the_formula():
    x = np.random.default_rng(3).uniform(-1.5, 1.5, (1, 2, 2, 7))
    w = np.random.default_rng(4).uniform(0.5, 1.5, x.shape)
    xt = tf.constant(x.astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(tf.nn.lrn(xt, 2, 1.5, 0.4, 0.6) * w.astype(np.float32))
    analytic = tape.gradient(loss, xt).numpy()
    numeric = np.zeros_like(x)
    eps = 1e-6
    for i in range(x.size):
        d = np.zeros(x.size)
        d[i] = eps
        d = d.reshape(x.shape)
        numeric.reshape(-1)[i] = (np.sum(_lrn_reference(x + d, 2, 1.5, 0.4, 0.6) * w)
                                  - np.sum(_lrn_reference(x - d, 2, 1.5, 0.4, 0.6) * w)) / (2 * eps)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(tf.nn.lrn(x.astype(np.float32), 2, 1.5, 0.4, 0.6).numpy(),
                               _lrn_reference(x, 2, 1.5, 0.4, 0.6), rtol=1e-5)


def test_depthwise_conv2d_matches_tensorflow_and_a_loop_reference():
    x = (np.arange(18, dtype=np.float32).reshape(1, 3, 3, 2) - 8) / 8
    fd = (np.arange(8, dtype=np.float32).reshape(2, 2, 2, 1) - 3) / 4
    f = np.concatenate([fd, -fd * 0.5], -1)
    got = _modes(lambda a, b: tf.nn.depthwise_conv2d(a, b, [1, 1, 1, 1], "VALID"), x, f)
    assert got.numpy().tolist() == [[[[0.875, -0.4375, 0.5, -0.25], [0.875, -0.4375, 0.75, -0.375]],
                                     [[0.875, -0.4375, 1.25, -0.625], [0.875, -0.4375, 1.5, -0.75]]]]
    filt = np.random.default_rng(1).uniform(-1, 1, (3, 2, 4, 3)).astype(np.float32)
    out = tf.nn.depthwise_conv2d(IMG, filt, [1, 2, 1, 1], "VALID").numpy()
    ref = np.zeros((2, 2, 5, 12), np.float64)
    for oh in range(2):
        for ow in range(5):
            win = IMG[:, 2 * oh:2 * oh + 3, ow:ow + 2, :].astype(np.float64)
            ref[:, oh, ow] = np.einsum("nijc,ijcm->ncm", win, filt).reshape(2, 12)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)


def test_separable_conv2d_is_depthwise_then_pointwise():
    f = np.random.default_rng(1).uniform(-1, 1, (3, 3, 4, 2)).astype(np.float32)
    p = np.random.default_rng(2).uniform(-1, 1, (1, 1, 8, 3)).astype(np.float32)
    got = _modes(lambda x, a, b: tf.nn.separable_conv2d(x, a, b, [1, 1, 1, 1], "SAME"), IMG, f, p)
    dw = tf.nn.depthwise_conv2d(IMG, f, [1, 1, 1, 1], "SAME").numpy()
    np.testing.assert_allclose(got.numpy(), dw @ p[0, 0], rtol=1e-5, atol=1e-5)


def test_softsign_and_composed_losses_match_tensorflow():
    assert tf.nn.softsign([-3.0, 0.0, 1.0]).numpy().tolist() == [-0.75, 0.0, 0.5]
    assert tf.math.softsign is tf.nn.softsign
    np.testing.assert_allclose(
        tf.nn.weighted_cross_entropy_with_logits([0.0, 1.0, 0.5], [-1.5, 0.5, 2.0], 3.0).numpy(),
        [0.20141327381134033, 1.4222309589385986, 1.2538559436798096], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.log_poisson_loss([0.0, 0.5, 3.0], [-1.0, 0.2, 1.5], compute_full_loss=True).numpy(),
        [0.3678794503211975, 1.1214027404785156, 1.7457705736160278], rtol=1e-6)
    mean, var = tf.nn.weighted_moments(tf.constant([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]]), [1],
                                       tf.constant([[1.0, 0.0, 2.0], [0.5, 0.5, 1.0]]))
    assert mean.numpy().tolist() == [3.0, 6.5] and var.numpy().tolist() == [2.0, 6.75]
    assert float(tf.nn.compute_average_loss([1.0, 2.0, 3.0, 6.0], sample_weight=[1.0, 0.5, 2.0, 0.0])) == 2.0
    assert float(tf.nn.compute_average_loss([1.0, 2.0, 3.0, 6.0], global_batch_size=8)) == 1.5
    ints = tf.nn.compute_average_loss([1, 2])
    assert ints.dtype == tf.float64 and float(ints) == 1.5
    assert float(tf.nn.scale_regularization_loss([1.0, 2.0])) == 3.0
    assert tf.nn.crelu([[-1.0, 2.0]]).numpy().tolist() == [[0.0, 2.0, 1.0, 0.0]]


def test_moment_helpers_agree_with_numpy():
    x = IMG.astype(np.float64)
    counts, m_ss, v_ss, shift = tf.nn.sufficient_statistics(x, [0, 1], shift=0.5, keepdims=True)
    assert float(counts) == 10.0 and float(shift) == 0.5 and m_ss.shape == (1, 1, 6, 4)
    np.testing.assert_allclose(m_ss.numpy(), np.sum(x - 0.5, (0, 1), keepdims=True))
    np.testing.assert_allclose(v_ss.numpy(), np.sum((x - 0.5) ** 2, (0, 1), keepdims=True))
    mean, var = tf.nn.normalize_moments(counts, m_ss, v_ss, shift)
    np.testing.assert_allclose(mean.numpy(), x.mean((0, 1), keepdims=True))
    np.testing.assert_allclose(var.numpy(), x.var((0, 1), keepdims=True))
    assert tf.nn.sufficient_statistics(x, [0, 2])[3] is None


def test_pool_convolution_and_transposes_reuse_the_2d_ops():
    x3 = IMG[0]
    np.testing.assert_allclose(tf.nn.max_pool1d(x3, 2, 2, "SAME").numpy(),
                               x3.reshape(5, 3, 2, 4).max(axis=2))
    np.testing.assert_allclose(tf.nn.avg_pool1d(x3, 3, 1, "VALID").numpy(),
                               (x3[:, :-2] + x3[:, 1:-1] + x3[:, 2:]) / 3, rtol=1e-6)
    np.testing.assert_allclose(tf.nn.pool(IMG, [2, 2], "MAX", strides=[2, 2], padding="SAME").numpy(),
                               tf.nn.max_pool2d(IMG, 2, 2, "SAME").numpy())
    f = np.random.default_rng(1).uniform(-1, 1, (3, 3, 4, 2)).astype(np.float32)
    np.testing.assert_allclose(tf.nn.convolution(IMG, f, padding="SAME").numpy(),
                               tf.nn.conv2d(IMG, f, 1, "SAME").numpy())
    np.testing.assert_allclose(tf.nn.convolution(x3, f[0], strides=2).numpy(),
                               tf.nn.conv1d(x3, f[0], 2, "VALID").numpy())
    ft = np.random.default_rng(2).uniform(-1, 1, (3, 3, 4)).astype(np.float32)
    y = _modes(lambda a, b: tf.nn.conv1d_transpose(a, b, [5, 12, 3], 2, padding="SAME"), x3, ft)
    ref = tf.nn.conv2d_transpose(x3[:, None], ft[None], [5, 1, 12, 3], [1, 2], "SAME").numpy()[:, 0]
    np.testing.assert_allclose(y.numpy(), ref)
    np.testing.assert_allclose(tf.nn.conv_transpose(x3, ft, [5, 12, 3], 2).numpy(), ref)
    assert float(tf.reduce_sum(tf.nn.conv1d_transpose(np.ones((5, 6, 4), np.float32), np.ones((3, 3, 4), np.float32),
                                                      [5, 12, 3], 2))) == 1020.0  # TensorFlow's sum


def test_aliases_in_tf_nn():
    assert tf.nn.lrn is tf.nn.local_response_normalization
    assert tf.nn.l2_normalize is tf.math.l2_normalize
    assert tf.nn.in_top_k is tf.math.in_top_k and tf.nn.zero_fraction is tf.math.zero_fraction


# --- graphs: TensorFlow's op types and static shapes ------------------------------------------------


@pytest.mark.parametrize("fn, args, types", [
    (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"), (IMG, np.ones((3, 3, 4, 2), np.float32)),
     ["DepthwiseConv2dNative"]),
    (lambda x: tf.nn.space_to_depth(x, 2), (IMG[:, :4],), ["SpaceToDepth"]),
    (lambda x: tf.nn.depth_to_space(x, 2), (IMG,), ["DepthToSpace"]),
    (lambda x: tf.nn.lrn(x), (IMG,), ["LRN"]),
    (tf.nn.softsign, (IMG,), ["Softsign"]),
    (lambda x: tf.nn.l2_normalize(x, 1), (IMG[0, 0],), ["Square", "Sum", "Maximum", "Rsqrt", "Mul"]),
    (lambda x: tf.nn.crelu(x), (IMG,), ["Neg", "ConcatV2", "Relu"]),
    (lambda x: tf.nn.pool(x, [2, 2], "MAX", strides=[2, 2], padding="SAME"), (IMG,), ["MaxPool"]),
])
def test_graph_op_types_are_tensorflows(fn, args, types):
    assert _graph_op_types(fn, *args) == types


def test_static_shapes_in_tf_function():
    spec = tf.TensorSpec([None, 4, 6, 8])
    assert tf.function(lambda x: tf.nn.space_to_depth(x, 2)).get_concrete_function(spec).output_shapes == [None, 2, 3, 32]
    assert tf.function(lambda x: tf.nn.depth_to_space(x, 2)).get_concrete_function(spec).output_shapes == [None, 8, 12, 2]
    dw = tf.function(lambda x: tf.nn.depthwise_conv2d(x, tf.ones([3, 3, 8, 2]), [1, 2, 2, 1], "SAME"))
    assert dw.get_concrete_function(spec).output_shapes == [None, 2, 3, 16]


# --- bad input: TensorFlow's classes and words, eagerly and traced ------------------------------------


@pytest.mark.parametrize("fn, args, eager, graph", [
    (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"), (IMG, np.ones((3, 3, 3, 2), np.float32)),
     (tf.errors.InvalidArgumentError, "input and filter must have the same depth: 4 vs 3"),
     (ValueError, "same depth: 4 vs 3")),
    (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"),
     (IMG.astype(np.int32), np.ones((3, 3, 4, 2), np.int32)),
     (tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list of allowed values"),
     (TypeError, "has DataType int32 not in list of allowed values")),
    (lambda x: tf.nn.space_to_depth(x, 2), (IMG,),
     (tf.errors.InvalidArgumentError, "Image width 6 and height 5 should be divisible by block_size: 2"),
     (ValueError, "Dimension size must be evenly divisible by 2 but is 5")),
    (lambda x: tf.nn.space_to_depth(x, 1), (IMG,),
     (tf.errors.InvalidArgumentError, "Value for attr 'block_size' of 1 must be at least minimum 2"),
     (ValueError, "block_size")),
    (lambda x: tf.nn.space_to_depth(x, 2), (IMG[0],),
     (tf.errors.InvalidArgumentError, "Input rank should be 4 instead of 3"),
     (ValueError, "Shape must be rank 4 but is rank 3")),
    (lambda x: tf.nn.depth_to_space(x, 3), (IMG,),
     (tf.errors.InvalidArgumentError, "Input depth dimension 4 should be divisible by: 9"),
     (ValueError, "Dimension size must be evenly divisible by 9 but is 4")),
    (lambda x: tf.nn.lrn(x), (IMG[0],),
     (tf.errors.InvalidArgumentError, "in must be 4-dimensional"), (ValueError, "Shape must be rank 4 but is rank 3")),
    (lambda x: tf.nn.lrn(x), (IMG.astype(np.float64),),
     (tf.errors.InvalidArgumentError, "Value for attr 'T' of double is not in the list of allowed values"),
     (TypeError, "has DataType float64 not in list of allowed values: float16")),
    (lambda x: tf.nn.lrn(x, -1), (IMG,),
     (tf.errors.InvalidArgumentError, "depth_radius = -1 larger than int max"),
     (tf.errors.InvalidArgumentError, "depth_radius = -1 larger than int max")),
    (lambda x: tf.nn.softsign(x), (np.array([1, 2], np.int32),),
     (tf.errors.InvalidArgumentError, "Value for attr 'T' of int32 is not in the list of allowed values"),
     (TypeError, "has DataType int32 not in list of allowed values")),
])
def test_bad_input_raises_tensorflows_error(fn, args, eager, graph):
    with pytest.raises(eager[0], match=eager[1]):
        fn(*[tf.constant(a) for a in args])
    with pytest.raises(graph[0], match=graph[1]):
        tf.function(fn)(*[tf.constant(a) for a in args])


def test_python_level_refusals():
    with pytest.raises(ValueError, match="Expected a tensor with at least rank 1"):
        tf.nn.compute_average_loss(tf.constant(3.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="global_batch_size must be non-negative"):
        tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=-1)
    with pytest.raises(ValueError, match=r"`log_input` and `targets` must have the same shape, received \(\(3,\) "
                                         r"vs \(2,\)\)"):
        tf.nn.log_poisson_loss([1.0, 2.0], [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="2-D MIN pooling is not supported"):
        tf.nn.pool(tf.ones([1, 4, 4, 1]), [2, 2], "MIN")
    with pytest.raises(ValueError, match="pooling with 'SAME' padding is not implemented for `dilation_rate` > 1"):
        tf.nn.pool(IMG, [2, 2], "AVG", padding="SAME", dilations=[2, 2])
