"""tf.nn activations, softmax, losses, bias_add, dropout, moments and batch normalisation against
NumPy formulas (and a few values recorded from TensorFlow 2.21)."""
import math

import numpy as np
import pytest

import eagerflow as tf

X = np.array([[-3.0, -0.5, 0.0, 0.7, 2.5, 7.0]])


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize("fn,ref", [
    (tf.nn.relu, lambda x: np.maximum(x, 0)),
    (tf.nn.relu6, lambda x: np.clip(x, 0, 6)),
    (tf.nn.elu, lambda x: np.where(x > 0, x, np.exp(x) - 1)),
    (tf.nn.selu, lambda x: 1.0507009873554805 * np.where(x > 0, x, 1.6732632423543772 * (np.exp(x) - 1))),
    (tf.nn.softplus, lambda x: np.log1p(np.exp(x))),
    (tf.nn.leaky_relu, lambda x: np.where(x > 0, x, 0.2 * x)),
    (lambda x: tf.nn.leaky_relu(x, alpha=0.01), lambda x: np.where(x > 0, x, 0.01 * x)),
    (tf.nn.gelu, lambda x: 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))),
    (lambda x: tf.nn.gelu(x, approximate=True),
     lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    (tf.nn.silu, lambda x: x / (1 + np.exp(-x))),
    (tf.nn.sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    (tf.nn.tanh, np.tanh),
])
def test_activations_match_numpy(fn, ref):
    got = fn(tf.constant(X))
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), ref(X), rtol=1e-12, atol=1e-15)
    assert fn(tf.constant(X, tf.float32)).dtype == tf.float32


def test_activation_values_and_dtypes_recorded_from_tensorflow():
    np.testing.assert_allclose(tf.nn.gelu([1.0, -0.5]).numpy(), [0.8413447, -0.15426877], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.gelu([1.0, -0.5], approximate=True).numpy(), [0.841192, -0.154286], rtol=1e-5)
    np.testing.assert_allclose(tf.nn.selu([-1.0, 1.0]).numpy(), [-1.1113307, 1.050701], rtol=1e-6)
    leaky = tf.nn.leaky_relu(tf.constant([-1, 2]))  # integers are computed in float32
    assert leaky.dtype == tf.float32
    np.testing.assert_allclose(leaky.numpy(), [-0.2, 2.0])
    r6 = tf.nn.relu6(tf.constant([-1, 3, 8]))
    assert r6.dtype == tf.int32 and r6.numpy().tolist() == [0, 3, 6]


def test_softplus_is_stable_for_large_magnitudes():
    got = tf.nn.softplus(tf.constant([100.0, -100.0, 0.0, 1000.0], tf.float64)).numpy()
    np.testing.assert_allclose(got, [100.0, np.exp(-100.0), math.log(2), 1000.0], rtol=1e-6)
    assert np.all(np.isfinite(got))


def test_float_only_activations_reject_integers():
    for fn in (tf.nn.elu, tf.nn.softmax, tf.nn.l2_loss, tf.nn.softplus):
        with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
            fn(tf.constant([1, 2]))


def test_relu_gradient_is_the_step_function():
    x = tf.constant([-1.0, 0.5, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.relu(x) * tf.constant([3.0, 4.0, 5.0])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [0.0, 4.0, 5.0])


def test_relu_grad_is_a_product_like_tensorflows_kernel():
    """TensorFlow 2.21's ReluGrad is gradients * (features > 0): ReluGrad(gradients=[nan, inf, 1,
    -inf, nan], features=[-1, -1, -1, 0, 2]) is [nan, nan, 0, nan, nan], and the gradient of
    relu([-1, 0, 2]) * inf is [nan, nan, inf]. The same eagerly and in a graph."""
    def grad(v, seed):
        with tf.GradientTape() as tape:
            tape.watch(v)
            y = tf.nn.relu(v) * seed
        return tape.gradient(y, v)

    cases = [([-1.0, 0.0, 2.0], [np.inf] * 3, [np.nan, np.nan, np.inf]),
             ([-1.0, -1.0, -1.0, 0.0, 2.0], [np.nan, np.inf, 1.0, -np.inf, np.nan], [np.nan, np.nan, 0.0, np.nan, np.nan])]
    for v, seed, expected in cases:
        args = (tf.constant(v), tf.constant(seed))
        np.testing.assert_array_equal(grad(*args).numpy(), expected)
        np.testing.assert_array_equal(tf.function(grad)(*args).numpy(), expected)


def test_softmax_and_log_softmax_are_stable_and_follow_axis():
    logits = np.array([[1000.0, 1001.0, 1002.0], [-5.0, 0.0, 5.0]])
    sm = tf.nn.softmax(logits).numpy()
    np.testing.assert_allclose(sm, _np_softmax(logits), rtol=1e-12)
    np.testing.assert_allclose(tf.nn.log_softmax(logits).numpy(), np.log(_np_softmax(logits)), rtol=1e-12)
    x = np.random.default_rng(0).normal(size=(2, 3, 4))
    for axis in (0, 1, 2, -2):
        np.testing.assert_allclose(tf.nn.softmax(x, axis=axis).numpy(), _np_softmax(x, axis), rtol=1e-12)
        np.testing.assert_allclose(tf.nn.log_softmax(x, axis=axis).numpy(), np.log(_np_softmax(x, axis)), rtol=1e-12)
    with pytest.raises(tf.errors.InvalidArgumentError, match="logits must have >= 1 dimension"):
        tf.nn.softmax(tf.constant(1.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match="`dim` must be in the range \\[-2, 2\\)"):
        tf.nn.softmax(tf.zeros([2, 3]), axis=3)


def test_softmax_cross_entropy_matches_formula_for_any_axis():
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(2, 5, 3))
    labels = _np_softmax(rng.normal(size=(2, 5, 3)))
    got = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    np.testing.assert_allclose(got.numpy(), -np.sum(labels * np.log(_np_softmax(logits)), -1), rtol=1e-12)
    assert got.shape == (2, 5)
    got1 = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits, axis=1)
    expected = -np.sum(labels * np.log(_np_softmax(logits, 1)), 1)
    np.testing.assert_allclose(got1.numpy(), expected, rtol=1e-12)
    assert got1.shape == (2, 3)
    value = tf.nn.softmax_cross_entropy_with_logits(labels=[[0.0, 1.0]], logits=[[1.0, 2.0]])
    np.testing.assert_allclose(value.numpy(), [0.31326166], rtol=1e-6)  # TensorFlow 2.21
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="logits and labels must be broadcastable: logits_size=\\[2,3\\] labels_size=\\[2,4\\]"):
        tf.nn.softmax_cross_entropy_with_logits(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3]))


def test_softmax_cross_entropy_gradients_reach_logits_and_labels():
    logits = tf.constant([[1.0, 2.0, 0.5]], tf.float64)
    labels = tf.constant([[0.2, 0.3, 0.5]], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([logits, labels])
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    gz, gy = tape.gradient(loss, [logits, labels])
    np.testing.assert_allclose(gz.numpy(), _np_softmax(logits.numpy()) - labels.numpy(), rtol=1e-12)
    np.testing.assert_allclose(gy.numpy(), -np.log(_np_softmax(logits.numpy())), rtol=1e-12)


def test_sparse_softmax_cross_entropy():
    rng = np.random.default_rng(2)
    logits = rng.normal(size=(4, 6))
    labels = np.array([0, 5, 2, 2])
    got = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    expected = -np.log(_np_softmax(logits))[np.arange(4), labels]
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    # rank 3 logits: per-position losses
    logits3 = rng.normal(size=(2, 3, 4))
    labels3 = np.array([[0, 1, 3], [2, 2, 0]], np.int64)
    got3 = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels3, logits=logits3).numpy()
    ref3 = -np.take_along_axis(np.log(_np_softmax(logits3)), labels3[..., None], -1)[..., 0]
    np.testing.assert_allclose(got3, ref3, rtol=1e-12)
    x = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=x)
    onehot = np.eye(6)[labels]
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), _np_softmax(logits) - onehot, rtol=1e-12)


def test_sparse_softmax_cross_entropy_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Received a label value of 10 which is outside the valid range of \[0, 10\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[10, 2], logits=tf.zeros([2, 10]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Received a label value of -1"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, -1], logits=tf.zeros([2, 10]))
    with pytest.raises(ValueError, match="`labels.shape.rank` must equal `logits.shape.rank - 1`"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[[1, 2]], logits=tf.zeros([2, 10]))
    with pytest.raises(ValueError, match="`labels.shape` must equal `logits.shape` except for the last"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1, 2, 3], logits=tf.zeros([2, 10]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Tlabels|float"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1.0, 2.0], logits=tf.zeros([2, 10]))


def test_sigmoid_cross_entropy_is_stable():
    got = tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0, 0.5], logits=[100.0, 100.0, -3.0])
    np.testing.assert_allclose(got.numpy(), [0.0, 100.0, 1.5485873], rtol=1e-6, atol=1e-6)  # TensorFlow 2.21
    z = np.linspace(-4, 4, 9)
    y = np.linspace(0, 1, 9)
    ref = -(y * np.log(1 / (1 + np.exp(-z))) + (1 - y) * np.log(1 - 1 / (1 + np.exp(-z))))
    np.testing.assert_allclose(tf.nn.sigmoid_cross_entropy_with_logits(labels=y, logits=z).numpy(), ref, rtol=1e-10)
    with pytest.raises(ValueError, match="`logits` and `labels` must have the same shape"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.zeros([2, 4]), logits=tf.zeros([2, 3]))


def test_l2_loss_and_bias_add():
    x = np.arange(6.0).reshape(2, 3)
    assert tf.nn.l2_loss(x).numpy() == pytest.approx(np.sum(x ** 2) / 2)
    b = np.array([10.0, 20.0, 30.0])
    np.testing.assert_array_equal(tf.nn.bias_add(x, b).numpy(), x + b)
    x4 = np.zeros((2, 3, 2, 2))
    np.testing.assert_array_equal(tf.nn.bias_add(x4, b, data_format="NCHW").numpy(), x4 + b[None, :, None, None])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Must provide as many biases as the last dimension of the input tensor: \\[3\\] vs. \\[2,4\\]"):
        tf.nn.bias_add(tf.zeros([2, 4]), tf.zeros([3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Biases must be 1D: \\[4,1\\]"):
        tf.nn.bias_add(tf.zeros([2, 4]), tf.zeros([4, 1]))


def test_bias_add_gradient_sums_over_all_but_channels():
    x, b = tf.constant(np.ones((2, 3, 4))), tf.constant(np.zeros(4))
    with tf.GradientTape() as tape:
        tape.watch([x, b])
        y = tf.nn.bias_add(x, b)
    gx, gb = tape.gradient(y, [x, b])
    np.testing.assert_array_equal(gb.numpy(), [6.0] * 4)
    np.testing.assert_array_equal(gx.numpy(), np.ones((2, 3, 4)))


def test_dropout_scales_kept_values_and_keeps_expectation():
    x = tf.ones([200, 50])
    y = tf.nn.dropout(x, rate=0.25, seed=3).numpy()
    kept = y != 0
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)
    assert 0.70 < kept.mean() < 0.80
    assert tf.nn.dropout(x, 0.0) is x
    # noise_shape broadcasts one mask over the first axis
    z = tf.nn.dropout(tf.ones([5, 40]), 0.5, noise_shape=[1, 40]).numpy()
    assert np.all(z == z[0])
    with pytest.raises(ValueError, match="`rate` must be a scalar tensor or a float in the range \\[0, 1\\)"):
        tf.nn.dropout(tf.zeros([2]), 1.0)
    with pytest.raises(ValueError, match="must be a floating point tensor"):
        tf.nn.dropout(tf.constant([1, 2]), 0.5)


def test_dropout_gradient_is_the_scaled_mask():
    x = tf.constant(np.arange(1.0, 101.0))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, rate=0.5)
    g = tape.gradient(y, x).numpy()
    np.testing.assert_allclose(g, np.where(y.numpy() != 0, 2.0, 0.0))


def test_moments_and_batch_normalization():
    x = np.random.default_rng(4).normal(size=(4, 3, 5))
    mean, var = tf.nn.moments(x, axes=[0, 2])
    np.testing.assert_allclose(mean.numpy(), x.mean(axis=(0, 2)), rtol=1e-12)
    np.testing.assert_allclose(var.numpy(), x.var(axis=(0, 2)), rtol=1e-12)
    mean_k, var_k = tf.nn.moments(x, axes=[0, 2], keepdims=True)
    assert mean_k.shape == (1, 3, 1) and var_k.shape == (1, 3, 1)
    m, v = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 5.0]]), [0])  # TensorFlow: [2, 3.5], [1, 2.25]
    np.testing.assert_allclose(m.numpy(), [2.0, 3.5])
    np.testing.assert_allclose(v.numpy(), [1.0, 2.25])
    offset, scale = np.array([0.5, -1.0, 2.0]), np.array([2.0, 1.0, 0.5])
    mk, vk = mean_k.numpy(), var_k.numpy()
    got = tf.nn.batch_normalization(x, mk, vk, offset[:, None], scale[:, None], 1e-3).numpy()
    expected = (x - mk) / np.sqrt(vk + 1e-3) * scale[:, None] + offset[:, None]
    np.testing.assert_allclose(got, expected, rtol=1e-8, atol=1e-12)
    bare = tf.nn.batch_normalization(x, mk, vk, None, None, 1e-3).numpy()
    np.testing.assert_allclose(bare, (x - mk) / np.sqrt(vk + 1e-3), rtol=1e-8, atol=1e-12)


def test_top_k_is_exported_when_available():
    if not hasattr(tf.nn, "top_k"):
        pytest.skip("top_k is not provided by ops/array/basic.py yet")
    values, indices = tf.nn.top_k(tf.constant([1.0, 5.0, 3.0]), k=2)
    assert values.numpy().tolist() == [5.0, 3.0] and indices.numpy().tolist() == [1, 2]


def test_softmax_of_no_classes_is_empty_as_in_tensorflow():
    """TensorFlow 2.21: tf.nn.softmax / log_softmax of a [3, 0] tensor give a [3, 0] tensor, eager and traced."""
    for fn in (tf.nn.softmax, tf.nn.log_softmax):
        assert fn(np.zeros((3, 0), np.float32)).shape == (3, 0)
        assert tf.function(fn)(tf.zeros((3, 0))).shape == (3, 0)


def test_scatter_nd_needs_one_index_dtype_and_sparse_gradients_give_it():
    """TensorFlow 2.21: int64 indices with an int32 shape are refused (eagerly InvalidArgumentError, in a
    function TypeError); an Embedding's sparse gradient (int64 ids from StringLookup) turned dense for an
    optimizer casts its shape, so a saved train step loads again."""
    import pytest
    ids, shape = tf.constant([[1]], tf.int64), tf.constant([3], tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute ScatterNd as input #2\(zero-based\) was expected to be a int64 tensor "
                             r"but is a int32 tensor"):
        tf.scatter_nd(ids, tf.constant([2.0]), shape)
    with pytest.raises(TypeError, match="Input 'shape' of 'ScatterNd' Op has type int32 that does not match type "
                                        "int64 of argument 'indices'"):
        tf.function(tf.scatter_nd)(ids, tf.constant([2.0]), shape)
    assert tf.scatter_nd(ids, tf.constant([2.0]), [3]).numpy().tolist() == [0.0, 2.0, 0.0]
    table = tf.Variable(np.ones((4, 2), np.float32))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(table, tf.constant([1, 1, 3], tf.int64)))
    grad = tape.gradient(loss, table)
    assert tf.convert_to_tensor(grad).numpy().tolist() == [[0, 0], [2, 2], [0, 0], [1, 1]]
