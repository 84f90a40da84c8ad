"""`tf.nn.max_pool_with_argmax` (ops MaxPoolWithArgmax / MaxPoolGradWithArgmax) against TensorFlow 2.21's
recorded answers: values, argmax indices (with and without the batch in the index), the gradient, the
CPU kernel's choice among ties and NaN, the graph op and TensorFlow's errors; and against a brute-force
NumPy reference of the index formula on random inputs."""
import re

import numpy as np
import pytest

import eagerflow as tf

X = ((np.arange(36) * 7) % 11 - 5).astype(np.float32).reshape(2, 3, 3, 2)

# TF 2.21: tf.nn.max_pool_with_argmax(X, 2, [1, 2], padding, include_batch_in_index=...)
RECORDED = {
    "VALID": ((2, 2, 1, 2), [4, 5, 5, 3, 3, 5, 1, 5], [6, 3, 14, 9, 2, 7, 8, 7], [6, 3, 14, 9, 20, 25, 26, 25]),
    "SAME": ((2, 3, 2, 2), [4, 5, 1, -3, 5, 3, -1, 4, 5, 1, -3, 4, 3, 5, 4, 2, 1, 5, 4, 0, -1, 3, 2, -2],
             [6, 3, 4, 5, 14, 9, 10, 17, 14, 15, 16, 17, 2, 7, 10, 5, 8, 7, 10, 11, 14, 13, 16, 17],
             [6, 3, 4, 5, 14, 9, 10, 17, 14, 15, 16, 17, 20, 25, 28, 23, 26, 25, 28, 29, 32, 31, 34, 35]),
}


@pytest.mark.parametrize("padding", ["VALID", "SAME"])
def test_values_and_indices_match_tensorflow(padding):
    shape, values, within, with_batch = RECORDED[padding]
    y, argmax = tf.nn.max_pool_with_argmax(X, 2, [1, 2], padding)
    assert y.shape == shape and argmax.dtype == tf.int64
    np.testing.assert_array_equal(y.numpy().reshape(-1), values)
    np.testing.assert_array_equal(argmax.numpy().reshape(-1), within)
    _, argmax = tf.nn.max_pool_with_argmax(X, 2, [1, 2], padding, include_batch_in_index=True,
                                           output_dtype=tf.int32)
    assert argmax.dtype == tf.int32
    np.testing.assert_array_equal(argmax.numpy().reshape(-1), with_batch)


def test_gradient_matches_tensorflow():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y, _ = tf.nn.max_pool_with_argmax(x, 2, 1, "SAME")
        loss = tf.reduce_sum(y * (1 + tf.reshape(tf.range(tf.size(y), dtype=tf.float32), y.shape)))
    expected = [0, 0, 0, 6, 8, 6, 1, 0, 0, 8, 11, 0, 0, 0, 44, 14, 17, 56, 0, 0, 19, 0, 0, 46, 0, 46, 25, 0, 100, 58,
                0, 32, 31, 0, 68, 70]  # TF 2.21
    np.testing.assert_array_equal(tape.gradient(loss, x).numpy().reshape(-1), expected)


def test_a_second_derivative_is_tensorflows_lookup_error():
    x = tf.constant(X)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y, _ = tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")
            loss = tf.reduce_sum(y * y)
        g = inner.gradient(loss, x)
    with pytest.raises(LookupError, match="gradient registry has no entry for: MaxPoolGradWithArgmax"):
        outer.gradient(g, x)


@pytest.mark.parametrize("cells, value, index", [
    ([0, 0, 0, 0], 0.0, 0),  # ties: the first
    ([np.nan, 1, 2, np.nan], np.nan, 0),  # a first NaN cell keeps the window (TF's CPU kernel)
    ([1, np.nan, 0, 3], 3.0, 3),  # a later NaN never wins
    ([np.nan] * 4, np.nan, 0),
    ([-np.inf] * 4, -np.inf, 0),
])
def test_ties_and_nan_are_picked_as_tensorflows_cpu_kernel(cells, value, index):
    y, argmax = tf.nn.max_pool_with_argmax(np.array(cells, np.float32).reshape(1, 2, 2, 1), 2, 2, "VALID")
    np.testing.assert_array_equal(y.numpy().reshape(-1), [value])
    assert argmax.numpy().reshape(-1).tolist() == [index]


def _reference(x, k, s, padding, include_batch):
    """Brute force: every window's real cells in row-major order, the first strictly greater wins."""
    n, h, w, c = x.shape
    if padding == "VALID":
        oh, ow, top, left = (h - k[0]) // s[0] + 1, (w - k[1]) // s[1] + 1, 0, 0
    else:
        oh, ow = -(-h // s[0]), -(-w // s[1])
        top = max((oh - 1) * s[0] + k[0] - h, 0) // 2
        left = max((ow - 1) * s[1] + k[1] - w, 0) // 2
    out, arg = np.zeros((n, oh, ow, c), x.dtype), np.zeros((n, oh, ow, c), np.int64)
    for b in range(n):
        for i in range(oh):
            for j in range(ow):
                for ch in range(c):
                    best = None
                    for r in range(i * s[0] - top, i * s[0] - top + k[0]):
                        for q in range(j * s[1] - left, j * s[1] - left + k[1]):
                            if 0 <= r < h and 0 <= q < w and (best is None or x[b, r, q, ch] > x[best[0], best[1],
                                                                                                 best[2], ch]):
                                best = (b, r, q)
                    out[b, i, j, ch] = x[best[0], best[1], best[2], ch]
                    flat = (best[1] * w + best[2]) * c + ch
                    arg[b, i, j, ch] = flat + (b * h * w * c if include_batch else 0)
    return out, arg


@pytest.mark.parametrize("k, s, padding", [((2, 2), (2, 2), "SAME"), ((3, 2), (1, 2), "VALID"),
                                           ((3, 3), (2, 1), "SAME"), ((1, 4), (3, 3), "SAME")])
def test_random_inputs_follow_the_index_formula(k, s, padding):
    x = np.random.default_rng(7).integers(-4, 5, size=(2, 5, 6, 3)).astype(np.float32)  # many ties
    for include_batch in (False, True):
        y, argmax = tf.nn.max_pool_with_argmax(x, list(k), list(s), padding, include_batch_in_index=include_batch)
        want_y, want_arg = _reference(x, k, s, padding, include_batch)
        np.testing.assert_array_equal(y.numpy(), want_y)
        np.testing.assert_array_equal(argmax.numpy(), want_arg)


def test_integer_and_half_inputs_keep_their_dtype():
    y, argmax = tf.nn.max_pool_with_argmax(np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1), 2, 2, "VALID")
    assert y.dtype == tf.int32
    assert y.numpy().reshape(-1).tolist() == [5, 7, 13, 15] and argmax.numpy().reshape(-1).tolist() == [5, 7, 13, 15]
    for dtype in (tf.float16, tf.bfloat16, tf.float64, tf.uint8):
        assert tf.nn.max_pool_with_argmax(tf.cast(X, dtype), 2, 2, "VALID")[0].dtype == dtype


def test_in_a_graph_it_is_one_max_pool_with_argmax_op_and_its_gradient_op():
    @tf.function
    def f(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            y, argmax = tf.nn.max_pool_with_argmax(a, 2, 2, "VALID", include_batch_in_index=True)
        return y, argmax, tape.gradient(y, a)

    graph = f.get_concrete_function(tf.TensorSpec([None, 4, 5, 3])).graph
    types = [op.type for op in graph.get_operations()]
    assert types.count("MaxPoolWithArgmax") == 1 and types.count("MaxPoolGradWithArgmax") == 1
    y, argmax, _ = f.get_concrete_function(tf.TensorSpec([None, 4, 5, 3])).structured_outputs
    assert y.shape.as_list() == [None, 2, 2, 3] and argmax.shape.as_list() == [None, 2, 2, 3]  # TF 2.21


# TF 2.21's errors (eager)
@pytest.mark.parametrize("call, error, message", [
    (lambda: tf.nn.max_pool_with_argmax(X, 2, 2, "VALID", data_format="NCHW"), ValueError,
     "`data_format` values other  than 'NHWC' are not supported. Received: data_format=NCHW"),
    (lambda: tf.nn.max_pool_with_argmax(X[0], 2, 2, "VALID"), tf.errors.InvalidArgumentError,
     "tensor_in must be 4-dimensional"),
    (lambda: tf.nn.max_pool_with_argmax(X, [2, 2, 2, 1], 2, "VALID"), tf.errors.UnimplementedError,
     "Pooling is not yet supported on the batch dimension."),
    (lambda: tf.nn.max_pool_with_argmax(X, 2, [2, 2, 2, 1], "VALID"), tf.errors.UnimplementedError,
     "Pooling is not yet supported on the batch dimension."),
    (lambda: tf.nn.max_pool_with_argmax(X, [1, 2, 2, 2], 2, "VALID"), tf.errors.UnimplementedError,
     "MaxPooling supports exactly one of pooling across depth or pooling across width/height."),
    (lambda: tf.nn.max_pool_with_argmax(X, 0, 2, "VALID"), tf.errors.InvalidArgumentError,
     "ksize must be a positive int32 value, got:0"),
    (lambda: tf.nn.max_pool_with_argmax(X, [2, 2, 2], 2, "VALID"), ValueError,
     "ksize should be of length 1, 2 or 4. Received: ksize=[2, 2, 2] of length 3"),
    (lambda: tf.nn.max_pool_with_argmax(X, 2, 2, [[0, 0], [1, 1], [1, 1], [0, 0]]), TypeError,
     "Expected string for argument 'padding' not [[0, 0], [1, 1], [1, 1], [0, 0]]."),
    (lambda: tf.nn.max_pool_with_argmax(X, 2, 2, "FOO"), tf.errors.InvalidArgumentError,
     "Value for attr 'padding' of \"FOO\" is not in the list of allowed values: \"SAME\", \"VALID\""),
    (lambda: tf.nn.max_pool_with_argmax(X, 2, 2, "VALID", output_dtype=tf.float32), tf.errors.InvalidArgumentError,
     "Value for attr 'Targmax' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.nn.max_pool_with_argmax(X > 0, 2, 2, "VALID"), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of bool is not in the list of allowed values: float, double, int32, uint8, int16, int8, "
     "int64, bfloat16, uint16, half, uint32, uint64"),
])
def test_bad_arguments_are_tensorflows_errors(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()
