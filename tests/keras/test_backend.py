"""tf.keras.backend (keras/backend.py) against TensorFlow 2.21's: EXPECTED holds TF 2.21's results
for the same calls (rounded to 5 decimals), written in."""
from __future__ import annotations

import builtins

import numpy as np
import pytest

import eagerflow as tf

K = tf.keras.backend

x = tf.constant([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
b = tf.constant([[True, False, True], [True, True, True]])
p = tf.constant([[0.2, 0.7, 0.1], [0.9, 0.05, 0.05]])
t = tf.constant([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]])
v3 = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
w3 = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 4, 3) / 10)
def val(r):
    if isinstance(r, list) and r and not isinstance(r[0], (int, float)): return [val(i) for i in r]
    if hasattr(r, "numpy"): r = r.numpy()
    if isinstance(r, np.ndarray): return np.round(r.astype(np.float64), 5).tolist() if r.dtype.kind in "fiub" else r.tolist()
    if isinstance(r, (np.floating, np.integer, np.bool_)): return round(float(r), 5)
    return r
cases = {
 "mean": lambda: K.mean(x), "mean_ax": lambda: K.mean(x, axis=1, keepdims=True), "mean_bool": lambda: K.mean(b),
 "sum": lambda: K.sum(x, axis=0), "prod": lambda: K.prod(x, 1), "std": lambda: K.std(x, axis=1), "var": lambda: K.var(x),
 "max": lambda: K.max(x, 1), "min": lambda: K.min(x), "all": lambda: K.all(b, 1), "any": lambda: K.any(x > 3.5),
 "argmax": lambda: K.argmax(x), "argmin": lambda: K.argmin(x, 0), "cumsum": lambda: K.cumsum(x), "cumprod": lambda: K.cumprod(x, 1),
 "clip": lambda: K.clip(x, -1.0, 2.0), "clip_bad": lambda: K.clip(x, 2.0, 1.0), "l2n": lambda: K.l2_normalize(x, axis=1),
 "relu": lambda: K.relu(x), "relu_a": lambda: K.relu(x, alpha=0.1, max_value=2.5, threshold=0.7), "elu": lambda: K.elu(x, 0.5),
 "hsig": lambda: K.hard_sigmoid(x), "softmax": lambda: K.softmax(x), "softsign": lambda: K.softsign(x), "softplus": lambda: K.softplus(x),
 "bce": lambda: K.binary_crossentropy(t, p), "bce_logits": lambda: K.binary_crossentropy(t, x, from_logits=True),
 "cce": lambda: K.categorical_crossentropy(t, p), "cce_logits": lambda: K.categorical_crossentropy(t, x, from_logits=True),
 "scce": lambda: K.sparse_categorical_crossentropy(tf.constant([1, 0]), p),
 "int_shape": lambda: K.int_shape(x), "ndim": lambda: K.ndim(v3), "dtype": lambda: K.dtype(x), "count": lambda: K.count_params(v3),
 "floatx": lambda: K.floatx(), "eps": lambda: K.epsilon(), "fmt": lambda: K.image_data_format(),
 "dot3": lambda: K.dot(v3, w3), "bdot": lambda: K.batch_dot(v3, w3), "bdot_axes": lambda: K.batch_dot(v3, v3, axes=[2, 2]),
 "bdot_2d": lambda: K.batch_dot(x, x, axes=1), "repeat": lambda: K.repeat(x, 2), "rep_el": lambda: K.repeat_elements(x, 2, 1),
 "flatten": lambda: K.flatten(x), "bflat": lambda: K.batch_flatten(v3), "perm": lambda: K.permute_dimensions(v3, (2, 0, 1)),
 "tpad": lambda: K.temporal_padding(v3, (1, 2)), "s2pad": lambda: K.spatial_2d_padding(tf.ones([1, 2, 2, 1])),
 "onehot": lambda: K.one_hot(tf.constant([0, 2]), 3), "switch": lambda: K.switch(x > 0, x, -x), "reverse": lambda: K.reverse(x, 1),
 "gather": lambda: K.gather(x, [1, 0]), "tile": lambda: K.tile(x, [1, 2]), "pow": lambda: K.pow(x, 2), "sqd": lambda: K.square(x),
 "concat": lambda: K.concatenate([x, x]), "stack": lambda: K.stack([x, x], 1), "ed": lambda: K.expand_dims(x), "sq": lambda: K.squeeze(tf.ones([2, 1]), 1),
 "intopk": lambda: K.in_top_k(p, tf.constant([1, 1]), 1), "arange": lambda: K.arange(5), "arange2": lambda: K.arange(1, 7, 2, "float32"),
 "zeros": lambda: K.zeros((2, 2)), "eye": lambda: K.eye(2), "cast": lambda: K.cast(x, "int32"), "ctf": lambda: K.cast_to_floatx([1, 2]),
 "std_dtype": lambda: K.standardize_dtype("float"), "is_float": lambda: K.is_float_dtype("float16"), "is_int": lambda: K.is_int_dtype("uint8"),
 "result_type": lambda: K.result_type("int32", "float32"), "bias": lambda: K.bias_add(x, tf.constant([1.0, 2.0, 3.0])),
 "bn": lambda: K.batch_normalization(x, 1.0, 4.0, 0.5, 2.0),
}


def val(r):
    """A result as plain Python (floats rounded to 5 places), the way EXPECTED was recorded."""
    if isinstance(r, tuple):
        return [val(i) for i in r]
    if isinstance(r, list) and r and not isinstance(r[0], (int, float)):
        return [val(i) for i in r]
    if hasattr(r, "numpy"):
        r = r.numpy()
    if isinstance(r, np.ndarray):
        return np.round(r.astype(np.float64), 5).tolist() if r.dtype.kind in "fiub" else r.tolist()
    if isinstance(r, (np.floating, np.integer, np.bool_)):
        return round(float(r), 5)
    return r


EXPECTED = {'all': [0.0, 1.0],
 'any': 1.0,
 'arange': [0.0, 1.0, 2.0, 3.0, 4.0],
 'arange2': [1.0, 3.0, 5.0],
 'argmax': [2.0, 1.0],
 'argmin': [1.0, 0.0, 1.0],
 'batch_get': [[[3.6, 4.5]], [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]],
 'bce': [[0.22314, 0.35667, 0.10536], [0.10536, 0.05129, 0.05129]],
 'bce_logits': [[1.31326, 2.12693, 3.04859], [0.47408, 4.01815, 0.31326]],
 'bdot': [[[4.2, 4.8, 5.4], [11.4, 13.6, 15.8], [18.6, 22.4, 26.2]],
          [[90.6, 96.0, 101.4], [117.0, 124.0, 131.0], [143.39999, 152.0, 160.59999]]],
 'bdot_2d': [[14.0], [17.25]],
 'bdot_axes': [[[14.0, 38.0, 62.0], [38.0, 126.0, 214.0], [62.0, 214.0, 366.0]],
               [[734.0, 950.0, 1166.0], [950.0, 1230.0, 1510.0], [1166.0, 1510.0, 1854.0]]],
 'bflat': [[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0],
           [12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0]],
 'bias': [[2.0, 0.0, 6.0], [1.5, 6.0, 2.0]],
 'bn': [[0.5, -2.49963, 2.49975], [6e-05, 3.49963, -1.49975]],
 'cast': [[1.0, -2.0, 3.0], [0.0, 4.0, -1.0]],
 'cce': [0.35667, 0.10536],
 'cce_logits': [5.13285, 3.53627],
 'clip': [[1.0, -1.0, 2.0], [0.5, 2.0, -1.0]],
 'clip_bad': [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]],
 'concat': [[1.0, -2.0, 3.0, 1.0, -2.0, 3.0], [0.5, 4.0, -1.0, 0.5, 4.0, -1.0]],
 'count': 24,
 'ctf': [1.0, 2.0],
 'cumprod': [[1.0, -2.0, -6.0], [0.5, 2.0, -2.0]],
 'cumsum': [[1.0, -2.0, 3.0], [1.5, 2.0, 2.0]],
 'dot3': [[[[4.2, 4.8, 5.4], [11.4, 12.0, 12.6]], [[11.4, 13.6, 15.8], [37.8, 40.0, 42.2]],
           [[18.6, 22.4, 26.2], [64.2, 68.0, 71.8]]],
          [[[25.8, 31.2, 36.6], [90.6, 96.0, 101.4]], [[33.0, 40.0, 47.0], [117.0, 124.0, 131.0]],
           [[40.2, 48.8, 57.4], [143.39999, 152.0, 160.59999]]]],
 'dtype': 'float32',
 'ed': [[[1.0], [-2.0], [3.0]], [[0.5], [4.0], [-1.0]]],
 'elu': [[1.0, -0.43233, 3.0], [0.5, 4.0, -0.31606]],
 'eps': 1e-07,
 'eye': [[1.0, 0.0], [0.0, 1.0]],
 'flatten': [1.0, -2.0, 3.0, 0.5, 4.0, -1.0],
 'floatx': 'float32',
 'fmt': 'channels_last',
 'gather': [[0.5, 4.0, -1.0], [1.0, -2.0, 3.0]],
 'hsig': [[0.7, 0.1, 1.0], [0.6, 1.0, 0.3]],
 'int_shape': [2, 3],
 'intopk': [1.0, 0.0],
 'is_float': True,
 'is_int': True,
 'l2n': [[0.26726, -0.53452, 0.80178], [0.12039, 0.96309, -0.24077]],
 'mau': [[3.6, 4.5]],
 'max': [3.0, 4.0],
 'mean': 0.91667,
 'mean_ax': [[0.66667], [1.16667]],
 'mean_bool': 0.83333,
 'min': -2.0,
 'ndim': 3,
 'onehot': [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]],
 'perm': [[[0.0, 4.0, 8.0], [12.0, 16.0, 20.0]], [[1.0, 5.0, 9.0], [13.0, 17.0, 21.0]],
          [[2.0, 6.0, 10.0], [14.0, 18.0, 22.0]], [[3.0, 7.0, 11.0], [15.0, 19.0, 23.0]]],
 'pow': [[1.0, 4.0, 9.0], [0.25, 16.0, 1.0]],
 'prod': [-6.0, -2.0],
 'relu': [[1.0, 0.0, 3.0], [0.5, 4.0, 0.0]],
 'relu_a': [[1.0, -0.27, 2.5], [-0.02, 2.5, -0.17]],
 'rep_el': [[1.0, 1.0, -2.0, -2.0, 3.0, 3.0], [0.5, 0.5, 4.0, 4.0, -1.0, -1.0]],
 'repeat': [[[1.0, -2.0, 3.0], [1.0, -2.0, 3.0]], [[0.5, 4.0, -1.0], [0.5, 4.0, -1.0]]],
 'result_type': 'float32',
 'reverse': [[3.0, -2.0, 1.0], [-1.0, 4.0, 0.5]],
 's2pad': [[[[0.0], [0.0], [0.0], [0.0]], [[0.0], [1.0], [1.0], [0.0]], [[0.0], [1.0], [1.0], [0.0]],
            [[0.0], [0.0], [0.0], [0.0]]]],
 'scce': [0.35667, 0.10536],
 'set_value': [[3.0, 4.0]],
 'softmax': [[0.1185, 0.0059, 0.8756], [0.02912, 0.96438, 0.0065]],
 'softplus': [[1.31326, 0.12693, 3.04859], [0.97408, 4.01815, 0.31326]],
 'softsign': [[0.5, -0.66667, 0.75], [0.33333, 0.8, -0.5]],
 'sq': [1.0, 1.0],
 'sqd': [[1.0, 4.0, 9.0], [0.25, 16.0, 1.0]],
 'stack': [[[1.0, -2.0, 3.0], [1.0, -2.0, 3.0]], [[0.5, 4.0, -1.0], [0.5, 4.0, -1.0]]],
 'std': [2.0548, 2.09497],
 'std_dtype': 'RAISES ValueError: Invalid dtype: float',
 'sum': [1.5, 2.0, 2.0],
 'switch': [[1.0, 2.0, 3.0], [0.5, 4.0, 1.0]],
 'tile': [[1.0, -2.0, 3.0, 1.0, -2.0, 3.0], [0.5, 4.0, -1.0, 0.5, 4.0, -1.0]],
 'tpad': [[[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0],
           [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
          [[0.0, 0.0, 0.0, 0.0], [12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0],
           [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]],
 'update_add': [[4.0, 5.0]],
 'var': 4.36806,
 'var_type': 'ndarray',
 'zeros': [[0.0, 0.0], [0.0, 0.0]]}


@pytest.mark.parametrize("name", sorted(cases))
def test_backend_function_matches_tensorflow(name):
    expected = EXPECTED[name]
    if isinstance(expected, str) and expected.startswith("RAISES "):
        kind, message = expected[len("RAISES "):].split(": ", 1)
        with pytest.raises(getattr(builtins, kind, None) or getattr(tf.errors, kind), match=message[:40]):
            cases[name]()
    else:
        assert val(cases[name]()) == expected


def test_variables_and_values():
    v = K.variable([[1.0, 2.0]])
    assert type(K.get_value(v)).__name__ == EXPECTED["var_type"]
    K.set_value(v, [[3.0, 4.0]])
    assert val(K.get_value(v)) == EXPECTED["set_value"]
    K.update_add(v, tf.ones([1, 2]))
    assert val(v) == EXPECTED["update_add"]
    K.moving_average_update(v, tf.zeros([1, 2]), 0.9)
    assert val(v) == EXPECTED["mau"]
    assert val(K.batch_get_value([v, x])) == EXPECTED["batch_get"]


def test_settings_round_trip():
    assert (K.floatx(), K.epsilon(), K.image_data_format()) == ("float32", 1e-07, "channels_last")
    assert K.int_shape(tf.ones([2, 3])) == (2, 3)  # a tuple, as Keras gives
    K.set_epsilon(1e-5)
    try:
        assert K.epsilon() == 1e-5
    finally:
        K.set_epsilon(1e-7)
    with pytest.raises(ValueError, match="Unknown `floatx` value: float8"):
        K.set_floatx("float8")
    assert K.get_uid("backend_test") + 1 == K.get_uid("backend_test")
