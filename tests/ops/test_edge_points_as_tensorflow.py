"""Edge points as TensorFlow 2.21 gives them (issue 23, point 4): gradients where a derivative is
infinite or undefined (TensorFlow's Sqrt, Rsqrt and Reciprocal gradients pass 0 where the incoming
gradient is 0, so a branch cut off by `tf.where` sends back no NaN; Cumprod's divides with 0 at a
zero; others multiply through and give NaN or inf, kept here as TensorFlow has them), float16
L2Loss, where NaN lands in sort, argsort, top_k, argmax and argmin, and clip_by_value with its
lower bound above its upper.

Every expected value below is TensorFlow 2.21's answer, the same eagerly and in tf.function; each
case runs both ways here.
"""
import numpy as np
import pytest

import eagerflow as tf

nan, inf = np.nan, np.inf


GRADIENT_EDGES = [  # (op/case, function, inputs, upstream gradient (None: ones), dtype, TensorFlow's gradients)
    ('Sqrt/where x>0', lambda x: tf.where(x > 0, tf.sqrt(x), 0.0),
     [[-1.0, 0.0, 4.0]], None, 'float32', [[0.0, 0.0, 0.25]]),
    ('Sqrt/times 0', lambda x: tf.sqrt(x) * 0.0,
     [[0.0, 1.0]], None, 'float32', [[0.0, 0.0]]),
    ('Sqrt/upstream 0', lambda x: tf.sqrt(x),
     [[0.0, -1.0, 4.0]], [0.0, 0.0, 1.0], 'float32', [[0.0, 0.0, 0.25]]),
    ('Sqrt/upstream 1', lambda x: tf.sqrt(x),
     [[0.0, -1.0, 4.0]], None, 'float32', [[inf, nan, 0.25]]),
    ('Rsqrt/where x>0', lambda x: tf.where(x > 0, tf.math.rsqrt(x), 0.0),
     [[-1.0, 0.0, 4.0]], None, 'float32', [[0.0, 0.0, -0.0625]]),
    ('Rsqrt/upstream 0', lambda x: tf.math.rsqrt(x),
     [[0.0, -1.0, 4.0]], [0.0, 0.0, 1.0], 'float32', [[0.0, 0.0, -0.0625]]),
    ('Rsqrt/upstream 1', lambda x: tf.math.rsqrt(x),
     [[0.0, -1.0, 4.0]], None, 'float32', [[-inf, nan, -0.0625]]),
    ('Pow/where x>0', lambda x: tf.where(x > 0, tf.pow(x, 0.5), 0.0),
     [[-1.0, 0.0, 4.0]], None, 'float32', [[nan, nan, 0.25]]),
    ('Pow/x and y at 0', lambda x, y: tf.pow(x, y),
     [[0.0, 0.0, 0.0, -2.0, 2.0], [0.0, 2.0, -1.0, 3.0, 0.5]], None, 'float32', [[nan, 0.0, -inf, 12.0, 0.3535533845424652], [0.0, 0.0, nan, -0.0, 0.9802581071853638]]),
    ('Pow/upstream 0', lambda x, y: tf.pow(x, y),
     [[0.0, 0.0, 0.0, -2.0], [0.5, -1.0, -0.5, 0.5]], [0.0, 0.0, 0.0, 0.0], 'float32', [[nan, nan, nan, nan], [0.0, nan, nan, nan]]),
    ('Log/where x>0', lambda x: tf.where(x > 0, tf.math.log(x), 0.0),
     [[-1.0, 0.0, 4.0]], None, 'float32', [[-0.0, nan, 0.25]]),
    ('Log/upstream 1', lambda x: tf.math.log(x),
     [[0.0, -1.0, 4.0]], None, 'float32', [[inf, -1.0, 0.25]]),
    ('Reciprocal/where x!=0', lambda x: tf.where(x != 0, tf.math.reciprocal(x), 0.0),
     [[0.0, 2.0]], None, 'float32', [[0.0, -0.25]]),
    ('Reciprocal/upstream 1', lambda x: tf.math.reciprocal(x),
     [[0.0, 2.0]], None, 'float32', [[-inf, -0.25]]),
    ('Reciprocal/float16 times 0', lambda x: tf.math.reciprocal(x) * tf.constant(0., tf.float16),
     [[0.0, 4.0]], None, 'float16', [[0.0, 0.0]]),
    ('RealDiv/where y!=0', lambda x, y: tf.where(y != 0, x / y, 0.0),
     [[1.0, 0.0, 3.0], [0.0, 0.0, 2.0]], None, 'float32', [[nan, nan, 0.5], [nan, nan, -0.75]]),
    ('RealDiv/upstream 1', lambda x, y: x / y,
     [[1.0, 0.0, 3.0], [0.0, 0.0, 2.0]], None, 'float32', [[inf, inf, 0.5], [-inf, nan, -0.75]]),
    ('Acos/where |x|<1', lambda x: tf.where(tf.abs(x) < 1, tf.acos(x), 0.0),
     [[-1.0, 1.0, 2.0, 0.0]], None, 'float32', [[nan, nan, nan, -1.0]]),
    ('Acos/upstream 1', lambda x: tf.acos(x),
     [[-1.0, 1.0, 2.0, 0.0]], None, 'float32', [[-inf, -inf, nan, -1.0]]),
    ('Asin/where |x|<1', lambda x: tf.where(tf.abs(x) < 1, tf.asin(x), 0.0),
     [[-1.0, 1.0, 2.0, 0.0]], None, 'float32', [[nan, nan, nan, 1.0]]),
    ('Asin/upstream 1', lambda x: tf.asin(x),
     [[-1.0, 1.0, 2.0, 0.0]], None, 'float32', [[inf, inf, nan, 1.0]]),
    ('Atan2/where not origin', lambda y, x: tf.where((x != 0) | (y != 0), tf.atan2(y, x), 0.0),
     [[0.0, 1.0], [0.0, 1.0]], None, 'float32', [[nan, 0.5], [nan, -0.5]]),
    ('Atan2/upstream 1', lambda y, x: tf.atan2(y, x),
     [[0.0, 1.0], [0.0, 1.0]], None, 'float32', [[nan, 0.5], [nan, -0.5]]),
    ('norm/zero vector', lambda x: tf.norm(x),
     [[0.0, 0.0, 0.0]], None, 'float32', [[nan, nan, nan]]),
    ('norm/zero row', lambda x: tf.norm(x, axis=1),
     [[[0.0, 0.0], [3.0, 4.0]]], None, 'float32', [[[nan, nan], [0.6000000238418579, 0.800000011920929]]]),
    ('norm/where nonzero', lambda x: tf.where(tf.reduce_sum(x * x) > 0, tf.norm(x), 0.0),
     [[0.0, 0.0, 0.0]], None, 'float32', [[0.0, 0.0, 0.0]]),
    ('norm/ord 1 at zero', lambda x: tf.norm(x, ord=1),
     [[0.0, 0.0]], None, 'float32', [[0.0, 0.0]]),
    ('EuclideanNorm/zero', lambda x: tf.math.reduce_euclidean_norm(x),
     [[0.0, 0.0]], None, 'float32', [[nan, nan]]),
    ('Cumprod/one zero', lambda x: tf.math.cumprod(x),
     [[2.0, 0.0, 3.0]], None, 'float32', [[1.0, 0.0, 0.0]]),
    ('Cumprod/exclusive', lambda x: tf.math.cumprod(x, exclusive=True),
     [[2.0, 0.0, 3.0]], None, 'float32', [[1.0, 0.0, 0.0]]),
    ('Cumprod/reverse', lambda x: tf.math.cumprod(x, reverse=True),
     [[2.0, 0.0, 3.0]], None, 'float32', [[0.0, 0.0, 1.0]]),
    ('Cumprod/two zeros', lambda x: tf.math.cumprod(x),
     [[0.0, 2.0, 0.0]], None, 'float32', [[0.0, 0.0, 0.0]]),
    ('Digamma/where x>0', lambda x: tf.where(x > 0, tf.math.digamma(x), 0.0),
     [[0.0, -1.0, 1.0]], None, 'float32', [[nan, nan, 1.644934058189392]]),
    ('Digamma/upstream 1', lambda x: tf.math.digamma(x),
     [[0.0, -1.0, 1.0]], None, 'float32', [[inf, inf, 1.644934058189392]]),
    ('Xlogy/where y>0', lambda x, y: tf.where(y > 0, tf.math.xlogy(x, y), 0.0),
     [[1.0, 0.0], [0.0, 0.0]], None, 'float32', [[nan, 0.0], [nan, 0.0]]),
    ('Sqrt/float64 where x>0', lambda x: tf.where(x > 0, tf.sqrt(x), tf.constant(0., tf.float64)),
     [[-1.0, 0.0, 4.0]], None, 'float64', [[0.0, 0.0, 0.25]]),
    ('Rsqrt/float16 times 0', lambda x: tf.math.rsqrt(x) * tf.constant(0., tf.float16),
     [[0.0, 4.0]], None, 'float16', [[0.0, 0.0]]),
    ('Polygamma/order 1 at poles', lambda x: tf.math.polygamma(tf.ones_like(x), x),
     [[0.0, -1.0]], None, 'float32', [[nan, nan]]),
    ('Elu/NaN input', lambda x: tf.nn.elu(x),
     [[nan, 0.0, -1.0]], None, 'float32', [[1.0, 1.0, 0.3678794503211975]]),
    ('Elu/where NaN input', lambda x: tf.where(x > 1, tf.nn.elu(x), 0.0),
     [[nan, 0.0, -1.0]], None, 'float32', [[0.0, 0.0, 0.0]]),
    ('Log1p/where x>-1', lambda x: tf.where(x > -1, tf.math.log1p(x), 0.0),
     [[-1.0, 0.0]], None, 'float32', [[nan, 1.0]]),
    ('Atanh/where |x|<1', lambda x: tf.where(tf.abs(x) < 1, tf.math.atanh(x), 0.0),
     [[-1.0, 1.0, 0.0]], None, 'float32', [[nan, nan, 1.0]]),
    ('l2_normalize/zero', lambda x: tf.math.l2_normalize(x),
     [[0.0, 0.0]], None, 'float32', [[1000000.0, 1000000.0]]),
    ('CosineSimilarity/zero y_true', lambda a, b: tf.keras.losses.CosineSimilarity()(a, b),
     [[[0.0, 0.0]], [[1.0, 2.0]]], None, 'float32', [[[-4472136.0, -8944272.0]], [[0.0, 0.0]]]),
    ('cosine_similarity/both zero', lambda a, b: tf.keras.losses.cosine_similarity(a, b),
     [[[0.0, 0.0]], [[0.0, 0.0]]], None, 'float32', [[[0.0, 0.0]], [[0.0, 0.0]]]),
]

VALUE_EDGES = [  # (op/case, function, TensorFlow's outputs, their dtypes)
    ('L2Loss/float16 halves first', lambda: tf.nn.l2_loss(tf.constant([200., 200., 200.], tf.float16)),
     [60000.0], ['float16']),
    ('L2Loss/float16 square overflows', lambda: tf.nn.l2_loss(tf.constant([346.], tf.float16)),
     [inf], ['float16']),
    ('L2Loss/float16 sum in float16', lambda: tf.nn.l2_loss(tf.constant([64., 1., 1., 1., 1.], tf.float16)),
     [2048.0], ['float16']),
    ('sort/ascending', lambda: tf.sort(tf.constant([3., nan, 1., -inf, nan, 2.])),
     [[-inf, 1.0, 3.0, nan, nan, 2.0]], ['float32']),
    ('sort/descending', lambda: tf.sort(tf.constant([3., nan, 1., -inf, nan, 2.]), direction='DESCENDING'),
     [[3.0, nan, 1.0, -inf, nan, 2.0]], ['float32']),
    ('sort/float64', lambda: tf.sort(tf.constant([nan, 2., 1.], tf.float64)),
     [[nan, 1.0, 2.0]], ['float64']),
    ('sort/axis 0', lambda: tf.sort(tf.constant([[3., nan, 1., -inf, nan, 2.], [1., 2., 3., 4., 5., 6.]]), axis=0),
     [[[1.0, nan, 1.0, -inf, nan, 2.0], [3.0, 2.0, 3.0, 4.0, 5.0, 6.0]]], ['float32']),
    ('argsort/ascending', lambda: tf.argsort(tf.constant([3., nan, 1., -inf, nan, 2.])),
     [[3, 2, 0, 1, 4, 5]], ['int32']),
    ('argsort/descending', lambda: tf.argsort(tf.constant([3., nan, 1., -inf, nan, 2.]), direction='DESCENDING'),
     [[0, 1, 2, 3, 4, 5]], ['int32']),
    ('argsort/stable', lambda: tf.argsort(tf.constant([3., nan, 1., nan, 1.]), stable=True),
     [[2, 0, 1, 3, 4]], ['int32']),
    ('argsort/axis 0 descending', lambda: tf.argsort(tf.constant([[3., nan, 1., -inf, nan, 2.], [1., 2., 3., 4., 5., 6.]]), axis=0, direction='DESCENDING'),
     [[[0, 0, 1, 1, 0, 1], [1, 1, 0, 0, 1, 0]]], ['int32']),
    ('top_k/k 4 of 6', lambda: tf.math.top_k(tf.constant([3., nan, 1., inf, nan, 2.]), k=4),
     [[nan, inf, 3.0, 2.0], [1, 3, 0, 5]], ['float32', 'int32']),
    ('top_k/k 3 of 3', lambda: tf.math.top_k(tf.constant([-3., nan, -1.]), k=3),
     [[-1.0, -3.0, nan], [2, 0, 1]], ['float32', 'int32']),
    ('top_k/rows', lambda: tf.math.top_k(tf.constant([[nan, 1., 2.], [2., nan, 1.]]), k=2),
     [[[nan, 2.0], [2.0, nan]], [[0, 2], [0, 1]]], ['float32', 'int32']),
    ('top_k/k 1 NaN first', lambda: tf.math.top_k(tf.constant([nan, 3., 1.]), k=1),
     [[3.0], [1]], ['float32', 'int32']),
    ('top_k/k 1 NaN last', lambda: tf.math.top_k(tf.constant([3., nan]), k=1),
     [[3.0], [0]], ['float32', 'int32']),
    ('top_k/k 1 NaN in the tail', lambda: tf.math.top_k(tf.constant([float(i) for i in range(20)] + [nan]), k=1),
     [[0.0], [0]], ['float32', 'int32']),
    ('top_k/k 1 NaN lanes', lambda: tf.math.top_k(tf.constant([nan] * 16 + [5.]), k=1),
     [[5.0], [16]], ['float32', 'int32']),
    ('top_k/k 1 float64', lambda: tf.math.top_k(tf.constant([1., 9., 2., 3., nan, 4., 5., 6., 7.], tf.float64), k=1),
     [[9.0], [1]], ['float64', 'int32']),
    ('argmax/NaN skipped', lambda: tf.argmax(tf.constant([1., nan, 3., nan])),
     [2], ['int64']),
    ('argmin/NaN skipped', lambda: tf.argmin(tf.constant([1., nan, -3., nan])),
     [2], ['int64']),
    ('argmax/NaN first', lambda: tf.argmax(tf.constant([nan, 5., 3.])),
     [1], ['int64']),
    ('argmin/NaN first', lambda: tf.argmin(tf.constant([nan, 5., 3.])),
     [2], ['int64']),
    ('argmax/axis 0', lambda: tf.argmax(tf.constant([[1., nan], [nan, 2.], [0., 1.]]), axis=0),
     [[0, 1]], ['int64']),
    ('argmax/inf and NaN', lambda: tf.argmax(tf.constant([inf, nan, 1.])),
     [0], ['int64']),
    ('argmax/all NaN', lambda: tf.argmax(tf.constant([nan, nan])),
     [0], ['int64']),
    ('argmin/int32 output', lambda: tf.argmin(tf.constant([nan, 2., 1.], tf.float16), output_type=tf.int32),
     [2], ['int32']),
    ('clip_by_value/min above max', lambda: tf.clip_by_value(tf.constant([-5., 0., 0.5, 5.]), 2., 1.),
     [[2.0, 2.0, 2.0, 2.0]], ['float32']),
    ('clip_by_value/int32 min above max', lambda: tf.clip_by_value(tf.constant([-5, 0, 5]), 2, 1),
     [[2, 2, 2]], ['int32']),
    ('clip_by_value/tensor bounds', lambda: tf.clip_by_value(tf.constant([-5., 0., 5.]), tf.constant([2., 2., 2.]), tf.constant([1., 1., 1.])),
     [[2.0, 2.0, 2.0]], ['float32']),
    ('top_k/45 values, whole row', lambda: tf.math.top_k(tf.constant([nan, nan, -2.0, nan, nan, nan, -4.0, nan, 1.0, nan, 3.0, nan, -3.0, nan, nan, 3.0, 4.0, -2.0, -3.0, nan, 2.0, nan, -1.0, 4.0, 4.0, -1.0, nan, nan, 1.0, 0.0, 3.0, nan, nan, 3.0, nan, nan, -2.0, -2.0, 2.0, 4.0, -2.0, 4.0, nan, nan, -3.0]), k=45),
     [[nan, 4.0, 4.0, 3.0, 1.0, 0.0, -1.0, -1.0, nan, 2.0, nan, 4.0, 3.0, 3.0, -2.0, -3.0, nan, 4.0, 4.0, 3.0, 2.0, 1.0, -2.0, -2.0, -2.0, nan, nan, -2.0, nan, nan, nan, nan, nan, -3.0, nan, nan, -3.0, nan, nan, nan, -4.0, nan, nan, nan, nan], [34, 23, 24, 30, 28, 29, 22, 25, 31, 20, 32, 16, 15, 33, 17, 44, 35, 39, 41, 10, 38, 8, 36, 37, 40, 42, 43, 2, 0, 27, 26, 21, 19, 18, 14, 13, 12, 11, 9, 7, 6, 5, 4, 3, 1]], ['float32', 'int32']),
    ('top_k/45 values, k 13', lambda: tf.math.top_k(tf.constant([-4.0, -1.0, nan, nan, nan, nan, nan, nan, -4.0, nan, nan, -4.0, nan, -2.0, 4.0, nan, 2.0, nan, nan, nan, 2.0, nan, 0.0, 2.0, 4.0, 2.0, nan, nan, nan, 0.0, -1.0, nan, nan, nan, nan, 1.0, nan, nan, nan, nan, 1.0, nan, 0.0, -3.0, -3.0]), k=13),
     [[-1.0, -4.0, nan, nan, nan, nan, nan, nan, -4.0, nan, nan, -4.0, nan], [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]], ['float32', 'int32']),
    ('top_k/45 values, k 1', lambda: tf.math.top_k(tf.constant([-1.0, nan, 2.0, -2.0, 3.0, -2.0, -2.0, 2.0, 4.0, -3.0, -2.0, nan, 1.0, 3.0, 3.0, nan, nan, -3.0, 3.0, 0.0, -1.0, nan, nan, -4.0, -3.0, 1.0, -1.0, -4.0, nan, 3.0, nan, 1.0, nan, 2.0, 2.0, -4.0, -3.0, nan, -2.0, -1.0, 0.0, -3.0, nan, 1.0, nan]), k=1),
     [[-1.0], [0]], ['float32', 'int32']),
]


def _gradients(fn, inputs, upstream, dtype, in_function):
    def body(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = fn(*xs)
        return tape.gradient(y, list(xs),
                             output_gradients=None if upstream is None else tf.constant(upstream, dtype))
    if in_function:
        body = tf.function(body)
    return body(*[tf.constant(x, dtype) for x in inputs])


def _assert_same(got, want, dtype):
    got = np.asarray(got.numpy() if hasattr(got, "numpy") else got)
    assert got.dtype.name == dtype
    # NaN where TensorFlow has NaN, infinities and values as TensorFlow's
    np.testing.assert_array_equal(got.astype(np.float64), np.asarray(want, np.float64))


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "tf_function"])
@pytest.mark.parametrize("fn, inputs, upstream, dtype, want", [c[1:] for c in GRADIENT_EDGES],
                         ids=[c[0] for c in GRADIENT_EDGES])
def test_gradient_at_edge_point_as_tensorflow(fn, inputs, upstream, dtype, want, in_function):
    got = _gradients(fn, inputs, upstream, dtype, in_function)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _assert_same(g, w, dtype)


@pytest.mark.parametrize("in_function", [False, True], ids=["eager", "tf_function"])
@pytest.mark.parametrize("fn, want, dtypes", [c[1:] for c in VALUE_EDGES], ids=[c[0] for c in VALUE_EDGES])
def test_value_at_edge_as_tensorflow(fn, want, dtypes, in_function):
    got = (tf.function(fn) if in_function else fn)()
    got = list(got) if isinstance(got, tuple) else [got]
    assert len(got) == len(want)
    for g, w, d in zip(got, want, dtypes):
        _assert_same(g, w, d)


def test_top_k_rows_without_nan_keep_the_stable_order():
    """Rows with no NaN still take the NumPy path beside a row that has one."""
    values, indices = tf.math.top_k(tf.constant([[1., 3., 3., 2.], [nan, 3., 3., 2.]]), k=3)
    np.testing.assert_array_equal(indices.numpy(), [[1, 2, 3], [0, 1, 2]])
