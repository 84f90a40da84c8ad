"""keras.ops (keras/ops.py) against Keras 3.15 in TensorFlow 2.21: EXPECTED holds TF's [dtype, values]
for each call (floats rounded to 5 places), written in; dtype promotion is part of what is compared."""
from __future__ import annotations

import numpy as np
import pytest

import eagerflow as tf

O = tf.keras.ops
x = tf.constant([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
i = tf.constant([[1, 2, 3], [4, 5, 6]])
i8 = tf.constant([1, 2], tf.int8)
u8 = tf.constant([1, 2], tf.uint8)
h = tf.constant([1.5, 2.5], tf.float16)
d = tf.constant([1.5, 2.5], tf.float64)
b = tf.constant([True, False])
v = tf.constant([3.0, 1.0, 2.0, 5.0])
cases = {
 "add_if": lambda: O.add(i, x), "add_i_pyf": lambda: O.add(i, 1.5), "add_f_pyi": lambda: O.add(x, 2), "add_i8_u8": lambda: O.add(i8, u8),
 "add_h_d": lambda: O.add(h, d), "add_h_pyf": lambda: O.multiply(h, 2.0), "add_b_pyi": lambda: O.add(b, 1), "add_b_b": lambda: O.add(b, b),
 "sub": lambda: O.subtract(x, i), "mul_i": lambda: O.multiply(i, i), "div_i": lambda: O.divide(i, 2), "div_ii": lambda: O.divide(i, i),
 "fdiv": lambda: O.floor_divide(i, 4), "mod": lambda: O.mod(x, 2.0), "pow": lambda: O.power(i, 2), "pow_f": lambda: O.power(x, 0.5),
 "max2": lambda: O.maximum(x, i), "eq": lambda: O.equal(i, 2.0), "less": lambda: O.less(x, i), "land": lambda: O.logical_and(x, i),
 "lnot": lambda: O.logical_not(x), "atan2": lambda: O.arctan2(i, i),
 "abs": lambda: O.abs(x), "neg": lambda: O.negative(i), "sqrt_i": lambda: O.sqrt(i), "exp": lambda: O.exp(x), "log_i": lambda: O.log(i),
 "log2": lambda: O.log2(i), "log10": lambda: O.log10(x * x), "sign": lambda: O.sign(x), "square_i": lambda: O.square(i), "floor": lambda: O.floor(x),
 "round": lambda: O.round(x / 3.0, 2), "round0": lambda: O.round(x / 3.0), "clip": lambda: O.clip(x, -1, 2), "clip_i": lambda: O.clip(i, 2, 4),
 "clip_b": lambda: O.clip(b, 0, 1), "where": lambda: O.where(x > 0, x, i), "nan2num": lambda: O.nan_to_num(tf.constant([np.nan, np.inf, -np.inf, 1.0])),
 "isnan": lambda: O.isnan(x), "erf": lambda: O.erf(x), "tanh_i": lambda: O.tanh(i), "recip": lambda: O.reciprocal(x), "rsqrt": lambda: O.rsqrt(i),
 "sum": lambda: O.sum(x), "sum_b": lambda: O.sum(b), "sum_ax": lambda: O.sum(i, axis=1, keepdims=True), "mean_i": lambda: O.mean(i), "mean_ax": lambda: O.mean(x, 0),
 "std": lambda: O.std(x, 1), "var_i": lambda: O.var(i), "max": lambda: O.max(x, axis=1), "amin": lambda: O.amin(i), "prod": lambda: O.prod(i, 0),
 "all": lambda: O.all(x), "any": lambda: O.any(x > 3, axis=1), "lse": lambda: O.logsumexp(x, axis=1), "argmax": lambda: O.argmax(x), "argmax_ax": lambda: O.argmax(x, 1),
 "argmin_kd": lambda: O.argmin(x, keepdims=True), "argmax_ax_kd": lambda: O.argmax(x, 0, keepdims=True), "cumsum": lambda: O.cumsum(i), "cumsum_ax": lambda: O.cumsum(x, 1), "cumprod": lambda: O.cumprod(x, 0),
 "cnz": lambda: O.count_nonzero(i - 2), "moments": lambda: O.moments(x, [0]), "topk": lambda: O.top_k(v, 2), "sort": lambda: O.sort(x), "argsort": lambda: O.argsort(v),
 "arange": lambda: O.arange(5), "arange_f": lambda: O.arange(0, 2, 0.5), "arange_dt": lambda: O.arange(1, 7, 2, dtype="float32"), "linspace": lambda: O.linspace(0, 1, 5),
 "eye": lambda: O.eye(2, 3, 1), "zeros": lambda: O.zeros((2,)), "ones_i": lambda: O.ones((2,), "int32"), "full": lambda: O.full((2,), 7), "full_f": lambda: O.full((2,), 1.5),
 "full_like": lambda: O.full_like(i, 2.7), "zl": lambda: O.zeros_like(x), "onehot": lambda: O.one_hot(tf.constant([0, 2]), 3), "identity": lambda: O.identity(2),
 "reshape": lambda: O.reshape(x, (3, 2)), "transpose": lambda: O.transpose(x), "ed": lambda: O.expand_dims(x, 0), "sq": lambda: O.squeeze(tf.ones([1, 2, 1])),
 "ravel": lambda: O.ravel(x), "concat": lambda: O.concatenate([x, i]), "stack": lambda: O.stack([i, x], axis=1), "split": lambda: O.split(v, 2), "split_idx": lambda: O.split(v, [1, 3]),
 "tile": lambda: O.tile(v, 2), "tile2": lambda: O.tile(v, (2, 1)), "repeat": lambda: O.repeat(x, 2), "repeat_ax": lambda: O.repeat(x, 2, axis=1), "bcast": lambda: O.broadcast_to(v, (2, 4)),
 "flip": lambda: O.flip(x), "flip_ax": lambda: O.flip(x, 1), "roll": lambda: O.roll(x, 1), "roll_ax": lambda: O.roll(x, 1, axis=1), "swap": lambda: O.swapaxes(tf.ones([2, 3, 4]), 0, 2),
 "moveaxis": lambda: O.shape(O.moveaxis(tf.ones([2, 3, 4]), 0, -1)), "take": lambda: O.take(x, [0, 4]), "take_neg": lambda: O.take(v, [-1]), "take_ax": lambda: O.take(x, [2, 0], axis=1),
 "tal": lambda: O.take_along_axis(x, tf.constant([[0], [2]]), axis=1), "pad": lambda: O.pad(v, (1, 2)), "pad2": lambda: O.pad(x, ((1, 0), (0, 1)), constant_values=9),
 "pad_reflect": lambda: O.pad(v, (2, 1), mode="reflect"), "slice": lambda: O.slice(x, (0, 1), (2, 2)), "matmul": lambda: O.matmul(i, tf.transpose(x)), "dot": lambda: O.dot(x, v[:3]),
 "dot_s": lambda: O.dot(2, x), "tensordot": lambda: O.tensordot(x, x, axes=[[1], [1]]), "einsum": lambda: O.einsum("ij,ij->i", x, i),
 "shape": lambda: O.shape(x), "ndim": lambda: O.ndim(x), "dtype": lambda: O.dtype(i), "cast": lambda: O.cast(x, "int32"), "size": lambda: O.size(x),
 "relu": lambda: O.relu(x), "relu6": lambda: O.relu6(x * 3), "sigmoid": lambda: O.sigmoid(x), "softplus": lambda: O.softplus(x), "softsign": lambda: O.softsign(x),
 "silu": lambda: O.silu(x), "swish": lambda: O.swish(x), "logsig": lambda: O.log_sigmoid(x), "leaky": lambda: O.leaky_relu(x), "elu": lambda: O.elu(x, 0.5), "selu": lambda: O.selu(x),
 "gelu": lambda: O.gelu(x), "gelu_exact": lambda: O.gelu(x, approximate=False), "hsig": lambda: O.hard_sigmoid(x), "hsilu": lambda: O.hard_silu(x), "softmax": lambda: O.softmax(x),
 "logsoftmax": lambda: O.log_softmax(x, axis=0), "normalize": lambda: O.normalize(x), "normalize_l1": lambda: O.normalize(x, order=1),
 "bce": lambda: O.binary_crossentropy(tf.constant([0.0, 1.0]), tf.constant([0.2, 0.7])), "cce": lambda: O.categorical_crossentropy(tf.constant([[0.0, 1.0]]), tf.constant([[0.3, 0.7]])),
 "scce": lambda: O.sparse_categorical_crossentropy(tf.constant([1]), tf.constant([[0.3, 0.7]])),
 "cond": lambda: O.cond(tf.constant(True), lambda: x * 2, lambda: x), "while": lambda: O.while_loop(lambda a, b: a < 5, lambda a, b: (a + 1, b * 2), (0, 1)),
 "while1": lambda: O.while_loop(lambda a: a < 5, lambda a: a + 2, 0), "fori": lambda: O.fori_loop(0, 4, lambda j, acc: acc + j, 0),
 "convnp": lambda: O.convert_to_numpy(x), "is_tensor": lambda: O.is_tensor(x), "meshgrid": lambda: O.meshgrid(tf.constant([1, 2]), tf.constant([3, 4, 5])),
 "unstack": lambda: O.unstack(x), "stop": lambda: O.stop_gradient(x),
}


def val(r):
    """A result as [dtype, values] (floats rounded to 5 places), the way EXPECTED was recorded."""
    if isinstance(r, (list, tuple)): return [val(i) for i in r]
    if hasattr(r, "numpy"):
        dt = r.dtype.name; r = r.numpy()
        return [dt, np.round(np.asarray(r).astype(np.float64), 5).tolist() if np.asarray(r).dtype.kind in "fiub" else np.asarray(r).tolist()]
    if isinstance(r, np.ndarray): return ["np", r.tolist()]
    if isinstance(r, (np.floating, np.integer, np.bool_)): return round(float(r), 5)
    return r


nan = float("nan")  # in EXPECTED (see _nan_marked)

EXPECTED = {'abs': ['float32', [[1.0, 2.0, 3.0], [0.5, 4.0, 1.0]]],
 'add_b_b': "RAISES InvalidArgumentError: Value for attr 'T' of bool is not in the list of allowed values: bfloat16, "
            'half, float, double, uint8, uint16, uint32, uint64, int8, int16, int32, int',
 'add_b_pyi': ['int32', [2.0, 1.0]],
 'add_f_pyi': ['float32', [[3.0, 0.0, 5.0], [2.5, 6.0, 1.0]]],
 'add_h_d': ['float64', [3.0, 5.0]],
 'add_h_pyf': ['float16', [3.0, 5.0]],
 'add_i8_u8': ['int16', [2.0, 4.0]],
 'add_i_pyf': ['float32', [[2.5, 3.5, 4.5], [5.5, 6.5, 7.5]]],
 'add_if': ['float32', [[2.0, 0.0, 6.0], [4.5, 9.0, 5.0]]],
 'all': ['bool', 1.0],
 'amin': ['int32', 1.0],
 'any': ['bool', [0.0, 1.0]],
 'arange': ['int32', [0.0, 1.0, 2.0, 3.0, 4.0]],
 'arange_dt': ['float32', [1.0, 3.0, 5.0]],
 'arange_f': ['float32', [0.0, 0.5, 1.0, 1.5]],
 'argmax': ['int32', 4.0],
 'argmax_ax': ['int32', [2.0, 1.0]],
 'argmax_ax_kd': ['int32', [[0.0, 1.0, 0.0]]],
 'argmin_kd': ['int32', [[1.0]]],
 'argsort': ['int32', [1.0, 2.0, 0.0, 3.0]],
 'atan2': ['float32', [[0.7854, 0.7854, 0.7854], [0.7854, 0.7854, 0.7854]]],
 'bcast': ['float32', [[3.0, 1.0, 2.0, 5.0], [3.0, 1.0, 2.0, 5.0]]],
 'bce': ['float32', [0.22314, 0.35667]],
 'cast': ['int32', [[1.0, -2.0, 3.0], [0.0, 4.0, -1.0]]],
 'cce': ['float32', [0.35667]],
 'clip': ['float32', [[1.0, -1.0, 2.0], [0.5, 2.0, -1.0]]],
 'clip_b': ['int32', [1.0, 0.0]],
 'clip_i': ['int32', [[2.0, 2.0, 3.0], [4.0, 4.0, 4.0]]],
 'cnz': ['int32', 5.0],
 'concat': ['float32', [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]],
 'cond': ['float32', [[2.0, -4.0, 6.0], [1.0, 8.0, -2.0]]],
 'convnp': ['np', [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]],
 'cumprod': ['float32', [[1.0, -2.0, 3.0], [0.5, -8.0, -3.0]]],
 'cumsum': ['int32', [1.0, 3.0, 6.0, 10.0, 15.0, 21.0]],
 'cumsum_ax': ['float32', [[1.0, -1.0, 2.0], [0.5, 4.5, 3.5]]],
 'div_i': ['float32', [[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]]],
 'div_ii': ['float32', [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]],
 'dot': ['float32', [7.0, 3.5]],
 'dot_s': ['float32', [[2.0, -4.0, 6.0], [1.0, 8.0, -2.0]]],
 'dtype': 'int32',
 'ed': ['float32', [[[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]]],
 'einsum': ['float32', [6.0, 16.0]],
 'elu': ['float32', [[1.0, -0.43233, 3.0], [0.5, 4.0, -0.31606]]],
 'eq': ['bool', [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0]]],
 'erf': ['float32', [[0.8427, -0.99532, 0.99998], [0.5205, 1.0, -0.8427]]],
 'exp': ['float32', [[2.71828, 0.13534, 20.08554], [1.64872, 54.59815, 0.36788]]],
 'eye': ['float32', [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]],
 'fdiv': ['int32', [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]],
 'flip': ['float32', [[-1.0, 4.0, 0.5], [3.0, -2.0, 1.0]]],
 'flip_ax': ['float32', [[3.0, -2.0, 1.0], [-1.0, 4.0, 0.5]]],
 'floor': ['float32', [[1.0, -2.0, 3.0], [0.0, 4.0, -1.0]]],
 'fori': ['int32', 6.0],
 'full': ['float32', [7.0, 7.0]],
 'full_f': ['float32', [1.5, 1.5]],
 'full_like': ['int32', [[2.0, 2.0, 2.0], [2.0, 2.0, 2.0]]],
 'gelu': ['float32', [[0.84119, -0.0454, 2.99636], [0.34571, 3.99993, -0.15881]]],
 'gelu_exact': ['float32', [[0.84134, -0.0455, 2.99595], [0.34573, 3.99987, -0.15866]]],
 'hsig': ['float32', [[0.66667, 0.16667, 1.0], [0.58333, 1.0, 0.33333]]],
 'hsilu': ['float32', [[0.66667, -0.33333, 3.0], [0.29167, 4.0, -0.33333]]],
 'identity': ['float32', [[1.0, 0.0], [0.0, 1.0]]],
 'is_tensor': True,
 'isnan': ['bool', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
 'land': ['bool', [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]],
 'leaky': ['float32', [[1.0, -0.4, 3.0], [0.5, 4.0, -0.2]]],
 'less': ['bool', [[0.0, 1.0, 0.0], [1.0, 1.0, 1.0]]],
 'linspace': ['float32', [0.0, 0.25, 0.5, 0.75, 1.0]],
 'lnot': ['bool', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
 'log10': ['float32', [[0.0, 0.60206, 0.95424], [-0.60206, 1.20412, 0.0]]],
 'log2': ['float32', [[0.0, 1.0, 1.58496], [2.0, 2.32193, 2.58496]]],
 'log_i': ['float32', [[0.0, 0.69315, 1.09861], [1.38629, 1.60944, 1.79176]]],
 'logsig': ['float32', [[-0.31326, -2.12693, -0.04859], [-0.47408, -0.01815, -1.31326]]],
 'logsoftmax': ['float32', [[-0.47408, -6.00248, -0.01815], [-0.97408, -0.00248, -4.01815]]],
 'lse': ['float32', [3.13285, 4.03627]],
 'matmul': ['float32', [[6.0, 5.5], [12.0, 16.0]]],
 'max': ['float32', [3.0, 4.0]],
 'max2': ['float32', [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]],
 'mean_ax': ['float32', [0.75, 1.0, 1.0]],
 'mean_i': ['float32', 3.5],
 'meshgrid': [['int32', [[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]], ['int32', [[3.0, 3.0], [4.0, 4.0], [5.0, 5.0]]]],
 'mod': ['float32', [[1.0, -0.0, 1.0], [0.5, 0.0, 1.0]]],
 'moments': [['float32', [0.75, 1.0, 1.0]], ['float32', [0.0625, 9.0, 4.0]]],
 'moveaxis': [3, 4, 2],
 'mul_i': ['int32', [[1.0, 4.0, 9.0], [16.0, 25.0, 36.0]]],
 'nan2num': ['float32', [0.0, 3.4028234663852886e+38, -3.4028234663852886e+38, 1.0]],
 'ndim': 2,
 'neg': ['int32', [[-1.0, -2.0, -3.0], [-4.0, -5.0, -6.0]]],
 'normalize': ['float32', [[0.26726, -0.53452, 0.80178], [0.12039, 0.96309, -0.24077]]],
 'normalize_l1': ['float32', [[0.16667, -0.33333, 0.5], [0.09091, 0.72727, -0.18182]]],
 'onehot': ['float32', [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]],
 'ones_i': ['int32', [1.0, 1.0]],
 'pad': ['float32', [0.0, 3.0, 1.0, 2.0, 5.0, 0.0, 0.0]],
 'pad2': ['float32', [[9.0, 9.0, 9.0, 9.0], [1.0, -2.0, 3.0, 9.0], [0.5, 4.0, -1.0, 9.0]]],
 'pad_reflect': ['float32', [2.0, 1.0, 3.0, 1.0, 2.0, 5.0, 2.0]],
 'pow': ['int32', [[1.0, 4.0, 9.0], [16.0, 25.0, 36.0]]],
 'pow_f': ['float32', [[1.0, nan, 1.73205], [0.70711, 2.0, nan]]],
 'prod': ['int32', [4.0, 10.0, 18.0]],
 'ravel': ['float32', [1.0, -2.0, 3.0, 0.5, 4.0, -1.0]],
 'recip': ['float32', [[1.0, -0.5, 0.33333], [2.0, 0.25, -1.0]]],
 'relu': ['float32', [[1.0, 0.0, 3.0], [0.5, 4.0, 0.0]]],
 'relu6': ['float32', [[3.0, 0.0, 6.0], [1.5, 6.0, 0.0]]],
 'repeat': ['float32', [1.0, 1.0, -2.0, -2.0, 3.0, 3.0, 0.5, 0.5, 4.0, 4.0, -1.0, -1.0]],
 'repeat_ax': ['float32', [[1.0, 1.0, -2.0, -2.0, 3.0, 3.0], [0.5, 0.5, 4.0, 4.0, -1.0, -1.0]]],
 'reshape': ['float32', [[1.0, -2.0], [3.0, 0.5], [4.0, -1.0]]],
 'roll': ['float32', [[-1.0, 1.0, -2.0], [3.0, 0.5, 4.0]]],
 'roll_ax': ['float32', [[3.0, 1.0, -2.0], [-1.0, 0.5, 4.0]]],
 'round': ['float32', [[0.33, -0.67, 1.0], [0.17, 1.33, -0.33]]],
 'round0': ['float32', [[0.0, -1.0, 1.0], [0.0, 1.0, -0.0]]],
 'rsqrt': "RAISES InvalidArgumentError: Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, "
          'half, float, double, complex64, complex128\n'
          '\t; NodeDef: {{node Rsqrt}}; Op<',
 'scce': ['float32', [0.35667]],
 'selu': ['float32', [[1.0507, -1.52017, 3.1521], [0.52535, 4.2028, -1.11133]]],
 'shape': [2, 3],
 'sigmoid': ['float32', [[0.73106, 0.1192, 0.95257], [0.62246, 0.98201, 0.26894]]],
 'sign': ['float32', [[1.0, -1.0, 1.0], [1.0, 1.0, -1.0]]],
 'silu': ['float32', [[0.73106, -0.23841, 2.85772], [0.31123, 3.92806, -0.26894]]],
 'size': ['int32', 6.0],
 'slice': ['float32', [[-2.0, 3.0], [4.0, -1.0]]],
 'softmax': ['float32', [[0.1185, 0.0059, 0.8756], [0.02912, 0.96438, 0.0065]]],
 'softplus': ['float32', [[1.31326, 0.12693, 3.04859], [0.97408, 4.01815, 0.31326]]],
 'softsign': ['float32', [[0.5, -0.66667, 0.75], [0.33333, 0.8, -0.5]]],
 'sort': ['float32', [[-2.0, 1.0, 3.0], [-1.0, 0.5, 4.0]]],
 'split': [['float32', [3.0, 1.0]], ['float32', [2.0, 5.0]]],
 'split_idx': [['float32', [3.0]], ['float32', [1.0, 2.0]], ['float32', [5.0]]],
 'sq': ['float32', [1.0, 1.0]],
 'sqrt_i': ['float32', [[1.0, 1.41421, 1.73205], [2.0, 2.23607, 2.44949]]],
 'square_i': ['int32', [[1.0, 4.0, 9.0], [16.0, 25.0, 36.0]]],
 'stack': ['float32', [[[1.0, 2.0, 3.0], [1.0, -2.0, 3.0]], [[4.0, 5.0, 6.0], [0.5, 4.0, -1.0]]]],
 'std': ['float32', [2.0548, 2.09497]],
 'stop': ['float32', [[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]]],
 'sub': ['float32', [[0.0, -4.0, 0.0], [-3.5, -1.0, -7.0]]],
 'sum': ['float32', 5.5],
 'sum_ax': ['int32', [[6.0], [15.0]]],
 'sum_b': ['int32', 1.0],
 'swap': ['float32',
          [[[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]],
           [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]]]],
 'swish': ['float32', [[0.73106, -0.23841, 2.85772], [0.31123, 3.92806, -0.26894]]],
 'take': ['float32', [1.0, 4.0]],
 'take_ax': ['float32', [[3.0, 1.0], [-1.0, 0.5]]],
 'take_neg': ['float32', [5.0]],
 'tal': ['float32', [[1.0], [-1.0]]],
 'tanh_i': ['float32', [[0.76159, 0.96403, 0.99505], [0.99933, 0.99991, 0.99999]]],
 'tensordot': ['float32', [[14.0, -10.5], [-10.5, 17.25]]],
 'tile': ['float32', [3.0, 1.0, 2.0, 5.0, 3.0, 1.0, 2.0, 5.0]],
 'tile2': ['float32', [[3.0, 1.0, 2.0, 5.0], [3.0, 1.0, 2.0, 5.0]]],
 'topk': [['float32', [5.0, 3.0]], ['int32', [3.0, 0.0]]],
 'transpose': ['float32', [[1.0, 0.5], [-2.0, 4.0], [3.0, -1.0]]],
 'unstack': [['float32', [1.0, -2.0, 3.0]], ['float32', [0.5, 4.0, -1.0]]],
 'var_i': ['float32', 2.91667],
 'where': ['float32', [[1.0, 2.0, 3.0], [0.5, 4.0, 6.0]]],
 'while': [['int32', 5.0], ['int32', 32.0]],
 'while1': ['int32', 6.0],
 'zeros': ['float32', [0.0, 0.0]],
 'zl': ['float32', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]}


@pytest.mark.parametrize("name", sorted(cases))
def test_keras_op_matches_tensorflow(name):
    expected = EXPECTED[name]
    if isinstance(expected, str) and expected.startswith("RAISES "):
        kind, message = expected[len("RAISES "):].split(": ", 1)
        # the allowed-dtype lists differ by bfloat16, which eagerflow lacks: the words before them must match
        with pytest.raises(getattr(tf.errors, kind), match=message.split(" allowed values")[0]):
            cases[name]()
    else:
        assert _nan_marked(val(cases[name]())) == _nan_marked(expected)


def _nan_marked(value):
    """NaN replaced by a marker, so that == compares it (0.0 and -0.0 stay equal)."""
    if isinstance(value, list):
        return [_nan_marked(v) for v in value]
    return "NaN" if isinstance(value, float) and value != value else value


def test_result_type_follows_keras_promotion():
    from eagerflow.keras.ops import result_type
    assert result_type(tf.constant(1), 1.5) == "float32"
    assert result_type(tf.constant([1], tf.int8), tf.constant([1], tf.uint8)) == "int16"
    assert result_type(tf.constant([1.0], tf.float16), 2.0) == "float16"
    assert result_type(tf.constant([True]), 1) == "int32"
    assert result_type(1, 2) == "int32" and result_type(1.0) == "float32"
