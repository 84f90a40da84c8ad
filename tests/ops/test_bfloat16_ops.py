"""bfloat16 op by op, eagerly and under tf.function, against TensorFlow 2.21's values.

Each row's expected value is what TensorFlow 2.21 (CPU) computed for the same call, written here.
eagerflow runs a bfloat16 op as TensorFlow's kernels do (ops/bfloat16.py): widened to float32 and
rounded once, or step by step in bfloat16 for the ops TensorFlow computes that way. Left out, as
known differences of one bfloat16 ulp: Sigmoid and Gelu, whose TensorFlow kernels use Eigen's own
approximations (TensorFlow: sigmoid(0.30078125) is 0.578125, the exact value rounds to 0.57421875),
and RealDiv's gradient, which TensorFlow composes differently.
"""
import numpy as np
import pytest

pytest.importorskip("ml_dtypes")

import eagerflow as tf  # noqa: E402

b = tf.bfloat16
x = tf.constant([[0.3, -1.7, 2.5], [4.1, 0.01, -0.6]], b)
y = tf.constant([[1.3, 0.7, -2.5], [0.2, 3.01, 1.6]], b)
p = tf.constant([[0.3, 1.7, 2.5], [4.1, 0.01, 0.6]], b)

CASES = {
    "elu": lambda: tf.nn.elu(x),
    "selu": lambda: tf.nn.selu(x),
    "softplus": lambda: tf.nn.softplus(x),
    "neg": lambda: -x,
    "abs": lambda: tf.abs(x),
    "sub": lambda: x - y,
    "mul": lambda: x * y,
    "div": lambda: x / y,
    "floordiv": lambda: x // y,
    "mod": lambda: tf.math.floormod(x, y),
    "pow": lambda: tf.pow(p, y),
    "max": lambda: tf.maximum(x, y),
    "min": lambda: tf.minimum(x, y),
    "sqdiff": lambda: tf.math.squared_difference(x, y),
    "exp": lambda: tf.exp(x),
    "log": lambda: tf.math.log(p),
    "sqrt": lambda: tf.sqrt(p),
    "rsqrt": lambda: tf.math.rsqrt(p),
    "square": lambda: tf.square(x),
    "sin": lambda: tf.sin(x),
    "cos": lambda: tf.cos(x),
    "tanh": lambda: tf.tanh(x),
    "relu": lambda: tf.nn.relu(x),
    "leaky": lambda: tf.nn.leaky_relu(x),
    "relu6": lambda: tf.nn.relu6(x),
    "sign": lambda: tf.sign(x),
    "floor": lambda: tf.floor(x),
    "ceil": lambda: tf.math.ceil(x),
    "round": lambda: tf.round(x),
    "recip": lambda: tf.math.reciprocal(x),
    "erf": lambda: tf.math.erf(x),
    "atan2": lambda: tf.math.atan2(x, y),
    "sum0": lambda: tf.reduce_sum(x, 0),
    "sum1": lambda: tf.reduce_sum(x, 1),
    "mean": lambda: tf.reduce_mean(x),
    "rmax": lambda: tf.reduce_max(x, 1),
    "rmin": lambda: tf.reduce_min(x),
    "prod": lambda: tf.reduce_prod(x, 1),
    "argmax": lambda: tf.argmax(x, 1),
    "matmul": lambda: tf.matmul(x, y, transpose_b=True),
    "softmax": lambda: tf.nn.softmax(x),
    "logsoftmax": lambda: tf.nn.log_softmax(x),
    "lse": lambda: tf.reduce_logsumexp(x, 1),
    "l2n": lambda: tf.math.l2_normalize(x, 1),
    "cumsum": lambda: tf.cumsum(x, 1),
    "cumprod": lambda: tf.math.cumprod(x, 1),
    "transpose": lambda: tf.transpose(x),
    "concat": lambda: tf.concat([x, y], 0),
    "stack": lambda: tf.stack([x, y]),
    "gather": lambda: tf.gather(x, [1, 0]),
    "slice": lambda: x[:, 1:],
    "reshape": lambda: tf.reshape(x, [3, 2]),
    "tile": lambda: tf.tile(x, [1, 2]),
    "where": lambda: tf.where(x > y, x, y),
    "clip": lambda: tf.clip_by_value(x, -1.0, 1.0),
    "pad": lambda: tf.pad(x, [[0, 1], [1, 0]]),
    "less": lambda: x < y,
    "eq": lambda: tf.equal(x, y),
    "addn": lambda: tf.add_n([x, y, x]),
    "einsum": lambda: tf.einsum("ij,kj->ik", x, y),
    "tensordot": lambda: tf.tensordot(x, y, [[1], [1]]),
    "biasadd": lambda: tf.nn.bias_add(x, tf.constant([1., 2., 3.], b)),
    "sce": lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 2], logits=x),
    "sigce": lambda: tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([[0., 1, 1], [1, 0, 0]], b), logits=x),
    "conv": lambda: tf.nn.conv2d(tf.reshape(tf.concat([x, y], 0), [1, 4, 3, 1]),
                                 tf.reshape(tf.constant([0.5, -1., 2., 0.25], b), [2, 2, 1, 1]), 1, "VALID"),
    "maxpool": lambda: tf.nn.max_pool2d(tf.reshape(tf.concat([x, y], 0), [1, 4, 3, 1]), 2, 1, "VALID"),
    "avgpool": lambda: tf.nn.avg_pool2d(tf.reshape(tf.concat([x, y], 0), [1, 4, 3, 1]), 2, 1, "VALID"),
    "topk": lambda: tf.math.top_k(x, 2).values,
    "sort": lambda: tf.sort(x),
    "range": lambda: tf.range(0., 2., 0.3, dtype=b),
    "linspace": lambda: tf.linspace(tf.constant(0., b), tf.constant(1., b), 5),
    "onehot": lambda: tf.one_hot([0, 2], 3, dtype=b),
    "zeroslike": lambda: tf.zeros_like(x),
    "fill": lambda: tf.fill([2], tf.constant(1.3, b)),
    "norm": lambda: tf.norm(x),
    "isnan": lambda: tf.math.is_nan(x),
    "castf16": lambda: tf.cast(x, tf.float16),
    "castf64": lambda: tf.cast(x, tf.float64),
    "bcast": lambda: x + tf.constant([1., 2., 3.3], b),
    "scalar+": lambda: x + 1.1,
    "rsub": lambda: 2.2 - x,
    "pyscalar*": lambda: x * 3,
    "segsum": lambda: tf.math.segment_sum(tf.concat([x, y], 0), [0, 0, 1, 1]),
    "unsorted": lambda: tf.math.unsorted_segment_sum(x, [1, 0], 2),
    "moments": lambda: tf.nn.moments(x, [0]),
    "batchnorm": lambda: tf.nn.batch_normalization(x, tf.constant([0.1, 0.2, 0.3], b), tf.constant([1., 2., 3.], b),
                                                   None, None, 1e-3),
    "dropout0": lambda: tf.nn.dropout(x, rate=0.0),
    "expand": lambda: tf.expand_dims(x, 0),
    "squeeze": lambda: tf.squeeze(tf.expand_dims(x, 0)),
    "reverse": lambda: tf.reverse(x, [1]),
    "split": lambda: tf.split(x, 3, 1)[1],
    "boolmask": lambda: tf.boolean_mask(x, x > 0),
    "matvec": lambda: tf.linalg.matvec(x, tf.constant([1., 2., 3.], b)),
    "trace": lambda: tf.linalg.trace(tf.matmul(x, y, transpose_b=True)),
    "diag": lambda: tf.linalg.diag(tf.constant([1., 2.], b)),
    "bandpart": lambda: tf.linalg.band_part(x, 0, 0),
    "resize": lambda: tf.image.resize(tf.reshape(x, [1, 2, 3, 1]), [3, 4]),
    "any": lambda: tf.reduce_any(x > 3),
    "var": lambda: tf.math.reduce_variance(x, 1),
    "std": lambda: tf.math.reduce_std(x),
    "logical": lambda: tf.math.count_nonzero(x),
}

# TensorFlow 2.21's results: (dtype, values); a tuple of them for several outputs.
EXPECTED = {
    'elu': ('bfloat16', [[0.30078125, -0.8203125, 2.5], [4.09375, 0.010009765625, -0.453125]]),
    'selu': ('bfloat16', [[0.314453125, -1.4453125, 2.625], [4.28125, 0.010498046875, -0.796875]]),
    'softplus': ('bfloat16', [[0.85546875, 0.1669921875, 2.578125], [4.09375, 0.6953125, 0.435546875]]),
    'neg': ('bfloat16', [[-0.30078125, 1.703125, -2.5], [-4.09375, -0.010009765625, 0.6015625]]),
    'abs': ('bfloat16', [[0.30078125, 1.703125, 2.5], [4.09375, 0.010009765625, 0.6015625]]),
    'sub': ('bfloat16', [[-0.99609375, -2.40625, 5.0], [3.890625, -3.0, -2.203125]]),
    'mul': ('bfloat16', [[0.390625, -1.1875, -6.25], [0.8203125, 0.0301513671875, -0.96484375]]),
    'div': ('bfloat16', [[0.2314453125, -2.4375, -1.0], [20.5, 0.003326416015625, -0.375]]),
    'floordiv': ('bfloat16', [[0.0, -3.0, -1.0], [20.0, 0.0, -1.0]]),
    'mod': ('bfloat16', [[0.30078125, 0.39453125, 0.0], [0.08984375, 0.010009765625, 1.0]]),
    'pow': ('bfloat16', [[0.2109375, 1.453125, 0.10107421875], [1.328125, 9.350478649139404e-07, 0.443359375]]),
    'max': ('bfloat16', [[1.296875, 0.69921875, 2.5], [4.09375, 3.015625, 1.6015625]]),
    'min': ('bfloat16', [[0.30078125, -1.703125, -2.5], [0.2001953125, 0.010009765625, -0.6015625]]),
    'sqdiff': ('bfloat16', [[0.9921875, 5.78125, 25.0], [15.125, 9.0, 4.84375]]),
    'exp': ('bfloat16', [[1.3515625, 0.181640625, 12.1875], [60.0, 1.0078125, 0.546875]]),
    'log': ('bfloat16', [[-1.203125, 0.53125, 0.91796875], [1.40625, -4.59375, -0.5078125]]),
    'sqrt': ('bfloat16', [[0.546875, 1.3046875, 1.578125], [2.015625, 0.10009765625, 0.77734375]]),
    'rsqrt': ('bfloat16', [[1.828125, 0.765625, 0.6328125], [0.49609375, 10.0, 1.2890625]]),
    'square': ('bfloat16', [[0.09033203125, 2.90625, 6.25], [16.75, 0.00010013580322265625, 0.361328125]]),
    'sin': ('bfloat16', [[0.296875, -0.9921875, 0.59765625], [-0.81640625, 0.010009765625, -0.56640625]]),
    'cos': ('bfloat16', [[0.95703125, -0.1318359375, -0.80078125], [-0.578125, 1.0, 0.82421875]]),
    'tanh': ('bfloat16', [[0.29296875, -0.9375, 0.98828125], [1.0, 0.010009765625, -0.5390625]]),
    'relu': ('bfloat16', [[0.30078125, 0.0, 2.5], [4.09375, 0.010009765625, 0.0]]),
    'leaky': ('bfloat16', [[0.30078125, -0.341796875, 2.5], [4.09375, 0.010009765625, -0.12060546875]]),
    'relu6': ('bfloat16', [[0.30078125, 0.0, 2.5], [4.09375, 0.010009765625, 0.0]]),
    'sign': ('bfloat16', [[1.0, -1.0, 1.0], [1.0, 1.0, -1.0]]),
    'floor': ('bfloat16', [[0.0, -2.0, 2.0], [4.0, 0.0, -1.0]]),
    'ceil': ('bfloat16', [[1.0, -1.0, 3.0], [5.0, 1.0, -0.0]]),
    'round': ('bfloat16', [[0.0, -2.0, 2.0], [4.0, 0.0, -1.0]]),
    'recip': ('bfloat16', [[3.328125, -0.5859375, 0.400390625], [0.244140625, 100.0, -1.6640625]]),
    'erf': ('bfloat16', [[0.330078125, -0.984375, 1.0], [1.0, 0.01129150390625, -0.60546875]]),
    'atan2': ('bfloat16', [[0.2275390625, -1.1796875, 2.359375], [1.5234375, 0.003326416015625, -0.359375]]),
    'sum0': ('bfloat16', [4.40625, -1.6953125, 1.8984375]),
    'sum1': ('bfloat16', [1.09375, 3.5]),
    'mean': ('bfloat16', 0.765625),
    'rmax': ('bfloat16', [2.5, 4.09375]),
    'rmin': ('bfloat16', -1.703125),
    'prod': ('bfloat16', [-1.28125, -0.024658203125]),
    'argmax': ('int64', [2.0, 0.0]),
    'matmul': ('bfloat16', [[-7.0625, -1.0703125], [6.8125, -0.11376953125]]),
    'softmax': ('bfloat16', [[0.0986328125, 0.0133056640625, 0.88671875],
                             [0.9765625, 0.016357421875, 0.0089111328125]]),
    'logsoftmax': ('bfloat16', [[-2.328125, -4.3125, -0.11767578125], [-0.023193359375, -4.125, -4.71875]]),
    'lse': ('bfloat16', [2.625, 4.125]),
    'l2n': ('bfloat16', [[0.0986328125, -0.55859375, 0.8203125], [0.9921875, 0.0024261474609375, -0.1455078125]]),
    'cumsum': ('bfloat16', [[0.30078125, -1.40625, 1.09375], [4.09375, 4.09375, 3.5]]),
    'cumprod': ('bfloat16', [[0.30078125, -0.51171875, -1.28125], [4.09375, 0.041015625, -0.024658203125]]),
    'transpose': ('bfloat16', [[0.30078125, 4.09375], [-1.703125, 0.010009765625], [2.5, -0.6015625]]),
    'concat': ('bfloat16',
               [[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625], [1.296875, 0.69921875, -2.5],
                [0.2001953125, 3.015625, 1.6015625]]),
    'stack': ('bfloat16',
              [[[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625]],
               [[1.296875, 0.69921875, -2.5], [0.2001953125, 3.015625, 1.6015625]]]),
    'gather': ('bfloat16', [[4.09375, 0.010009765625, -0.6015625], [0.30078125, -1.703125, 2.5]]),
    'slice': ('bfloat16', [[-1.703125, 2.5], [0.010009765625, -0.6015625]]),
    'reshape': ('bfloat16', [[0.30078125, -1.703125], [2.5, 4.09375], [0.010009765625, -0.6015625]]),
    'tile': ('bfloat16',
             [[0.30078125, -1.703125, 2.5, 0.30078125, -1.703125, 2.5],
              [4.09375, 0.010009765625, -0.6015625, 4.09375, 0.010009765625, -0.6015625]]),
    'where': ('bfloat16', [[1.296875, 0.69921875, 2.5], [4.09375, 3.015625, 1.6015625]]),
    'clip': ('bfloat16', [[0.30078125, -1.0, 1.0], [1.0, 0.010009765625, -0.6015625]]),
    'pad': ('bfloat16',
            [[0.0, 0.30078125, -1.703125, 2.5], [0.0, 4.09375, 0.010009765625, -0.6015625], [0.0, 0.0, 0.0, 0.0]]),
    'less': ('bool', [[True, True, False], [False, True, True]]),
    'eq': ('bool', [[False, False, False], [False, False, False]]),
    'addn': ('bfloat16', [[1.890625, -2.703125, 2.5], [8.375, 3.046875, 0.3984375]]),
    'einsum': ('bfloat16', [[-7.0625, -1.0703125], [6.8125, -0.11376953125]]),
    'tensordot': ('bfloat16', [[-7.0625, -1.0703125], [6.8125, -0.11376953125]]),
    'biasadd': ('bfloat16', [[1.296875, 0.296875, 5.5], [5.09375, 2.015625, 2.40625]]),
    'sce': ('bfloat16', [2.328125, 4.71875]),
    'sigce': ('bfloat16', [[0.85546875, 1.8671875, 0.07861328125], [0.0166015625, 0.69921875, 0.435546875]]),
    'conv': ('bfloat16', [[[[10.0625], [-3.484375]], [[4.8125], [1.3828125]], [[1.1015625], [9.25]]]]),
    'maxpool': ('bfloat16', [[[[4.09375], [2.5]], [[4.09375], [0.69921875]], [[3.015625], [3.015625]]]]),
    'avgpool': ('bfloat16', [[[[0.67578125], [0.05126953125]], [[1.5234375], [-0.59765625]],
                              [[1.3046875], [0.703125]]]]),
    'topk': ('bfloat16', [[2.5, 0.30078125], [4.09375, 0.010009765625]]),
    'sort': ('bfloat16', [[-1.703125, 0.30078125, 2.5], [-0.6015625, 0.010009765625, 4.09375]]),
    'range': ('bfloat16', [0.0, 0.30078125, 0.6015625, 0.90234375, 1.203125, 1.5, 1.8046875]),
    'linspace': ('bfloat16', [0.0, 0.25, 0.5, 0.75, 1.0]),
    'onehot': ('bfloat16', [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    'zeroslike': ('bfloat16', [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    'fill': ('bfloat16', [1.296875, 1.296875]),
    'norm': ('bfloat16', 5.125),
    'isnan': ('bool', [[False, False, False], [False, False, False]]),
    'castf16': ('float16', [[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625]]),
    'castf64': ('float64', [[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625]]),
    'bcast': ('bfloat16', [[1.296875, 0.296875, 5.8125], [5.09375, 2.015625, 2.6875]]),
    'scalar+': ('bfloat16', [[1.40625, -0.6015625, 3.59375], [5.1875, 1.109375, 0.5]]),
    'rsub': ('bfloat16', [[1.90625, 3.90625, -0.296875], [-1.890625, 2.1875, 2.8125]]),
    'pyscalar*': ('bfloat16', [[0.90234375, -5.125, 7.5], [12.25, 0.030029296875, -1.8046875]]),
    'segsum': ('bfloat16', [[4.40625, -1.6953125, 1.8984375], [1.5, 3.71875, -0.8984375]]),
    'unsorted': ('bfloat16', [[4.09375, 0.010009765625, -0.6015625], [0.30078125, -1.703125, 2.5]]),
    'moments': [('bfloat16', [2.203125, -0.84765625, 0.94921875]), ('bfloat16', [3.609375, 0.734375, 2.390625])],
    'batchnorm': ('bfloat16', [[0.201171875, -1.34375, 1.2734375], [4.0, -0.134765625, -0.5234375]]),
    'dropout0': ('bfloat16', [[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625]]),
    'expand': ('bfloat16', [[[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625]]]),
    'squeeze': ('bfloat16', [[0.30078125, -1.703125, 2.5], [4.09375, 0.010009765625, -0.6015625]]),
    'reverse': ('bfloat16', [[2.5, -1.703125, 0.30078125], [-0.6015625, 0.010009765625, 4.09375]]),
    'split': ('bfloat16', [[-1.703125], [0.010009765625]]),
    'boolmask': ('bfloat16', [0.30078125, 2.5, 4.09375, 0.010009765625]),
    'matvec': ('bfloat16', [4.40625, 2.3125]),
    'trace': ('bfloat16', -7.1875),
    'diag': ('bfloat16', [[1.0, 0.0], [0.0, 2.0]]),
    'bandpart': ('bfloat16', [[0.30078125, 0.0, 0.0], [0.0, 0.010009765625, 0.0]]),
    'resize': ('float32',
               [[[[0.30078125], [-0.95166015625], [-0.126953125], [2.5]],
                 [[2.197265625], [0.2948760986328125], [-0.1731414794921875], [0.94921875]],
                 [[4.09375], [1.541412353515625], [-0.219329833984375], [-0.6015625]]]]),
    'any': ('bool', True),
    'var': ('bfloat16', [2.953125, 4.375]),
    'std': ('bfloat16', 1.9453125),
    'logical': ('int64', 6.0),
}

GRADIENT_CASES = {
    "g_mul": lambda v: tf.reduce_sum(v * y),
    "g_exp": lambda v: tf.reduce_sum(tf.exp(v)),
    "g_tanh": lambda v: tf.reduce_sum(tf.tanh(v) * y),
    "g_matmul": lambda v: tf.reduce_sum(tf.matmul(v, y, transpose_b=True)),
    "g_softmax": lambda v: tf.reduce_sum(tf.nn.softmax(v) * y),
    "g_sce": lambda v: tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[0, 2], logits=v)),
    "g_relu": lambda v: tf.reduce_sum(tf.nn.relu(v) * y),
    "g_mean": lambda v: tf.reduce_mean(v * v),
    "g_sigmoid": lambda v: tf.reduce_sum(tf.sigmoid(v)),
    "g_max": lambda v: tf.reduce_sum(tf.reduce_max(v, 1)),
}

# TensorFlow 2.21's gradients with respect to a bfloat16 Variable holding `x` (all bfloat16).
EXPECTED_GRADIENTS = {
    'g_mul': [[1.296875, 0.69921875, -2.5], [0.2001953125, 3.015625, 1.6015625]],
    'g_exp': [[1.3515625, 0.181640625, 12.1875], [60.0, 1.0078125, 0.546875]],
    'g_tanh': [[1.1875, 0.08447265625, -0.05859375], [0.0, 3.015625, 1.140625]],
    'g_matmul': [[1.5, 3.71875, -0.8984375], [1.5, 3.71875, -0.8984375]],
    'g_softmax': [[0.33203125, 0.037109375, -0.375], [-0.05810546875, 0.044921875, 0.011962890625]],
    'g_sce': [[-0.451171875, 0.006744384765625, 0.4453125], [0.48828125, 0.0081787109375, -0.49609375]],
    'g_relu': [[1.296875, 0.0, -2.5], [0.2001953125, 3.015625, 0.0]],
    'g_mean': [[0.1005859375, -0.5703125, 0.8359375], [1.3671875, 0.0033416748046875, -0.201171875]],
    'g_sigmoid': [[0.244140625, 0.1298828125, 0.06884765625], [0.015380859375, 0.25, 0.2294921875]],
    'g_max': [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
}


def _check(result, expected):
    if isinstance(expected, list):
        assert isinstance(result, (list, tuple)) and len(result) == len(expected)
        for r, e in zip(result, expected):
            _check(r, e)
        return
    dtype, values = expected
    assert result.dtype.name == dtype
    got = np.asarray(result.numpy())
    want = np.array(values, dtype=bool if dtype == "bool" else None)
    if dtype == "bool":
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_array_equal(got.astype(np.float64), want)  # exact: the same bits as TensorFlow


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_tensorflow(name):
    _check(CASES[name](), EXPECTED[name])


@pytest.mark.parametrize("name", sorted(CASES))
def test_function_matches_tensorflow(name):
    _check(tf.function(CASES[name])(), EXPECTED[name])


def _gradient(fn):
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        out = fn(v)
    return tape.gradient(out, v)


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradient_matches_tensorflow(name):
    grad = _gradient(GRADIENT_CASES[name])
    assert grad.dtype == tf.bfloat16
    np.testing.assert_array_equal(grad.numpy().astype(np.float64), EXPECTED_GRADIENTS[name])


@pytest.mark.parametrize("name", sorted(GRADIENT_CASES))
def test_gradient_in_function_matches_eager(name):
    v = tf.Variable(x)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            out = GRADIENT_CASES[name](v)
        return tape.gradient(out, v)

    np.testing.assert_array_equal(step().numpy().astype(np.float64), EXPECTED_GRADIENTS[name])


# TensorFlow 2.21 on tf.constant(np.linspace(-6, 6, 41), tf.bfloat16): every branch of the three kernels
# (softplus returns x above 2.85 and exp(x) below -2.85, as TensorFlow's thresholds for bfloat16 say)
_STEPWISE_RANGE = {
    'elu': [-0.99609375, -0.99609375, -0.99609375, -0.9921875, -0.9921875, -0.98828125, -0.984375, -0.98046875,
        -0.97265625, -0.9609375, -0.94921875, -0.93359375, -0.91015625, -0.875, -0.8359375, -0.77734375,
        -0.69921875, -0.59375, -0.453125, -0.2578125, 0.0, 0.30078125, 0.6015625, 0.8984375, 1.203125, 1.5,
        1.796875, 2.09375, 2.40625, 2.703125, 3.0, 3.296875, 3.59375, 3.90625, 4.1875, 4.5, 4.8125, 5.09375,
        5.40625, 5.6875, 6.0],
    'selu': [-1.75, -1.75, -1.75, -1.7421875, -1.7421875, -1.734375, -1.7265625, -1.7265625, -1.7109375, -1.6875,
        -1.671875, -1.640625, -1.6015625, -1.5390625, -1.46875, -1.3671875, -1.2265625, -1.046875, -0.796875,
        -0.453125, 0.0, 0.314453125, 0.62890625, 0.94140625, 1.2578125, 1.5703125, 1.8828125, 2.1875, 2.515625,
        2.828125, 3.140625, 3.453125, 3.765625, 4.09375, 4.375, 4.71875, 5.03125, 5.34375, 5.65625, 5.96875,
        6.28125],
    'softplus': [0.002471923828125, 0.003387451171875, 0.004486083984375, 0.006134033203125, 0.00811767578125,
        0.0111083984375, 0.01519775390625, 0.0201416015625, 0.0274658203125, 0.037109375, 0.0498046875,
        0.06494140625, 0.08642578125, 0.1162109375, 0.1533203125, 0.201171875, 0.263671875, 0.341796875,
        0.435546875, 0.5546875, 0.69140625, 0.85546875, 1.0390625, 1.2421875, 1.46875, 1.6953125, 1.953125,
        2.21875, 2.484375, 2.765625, 3.0, 3.296875, 3.59375, 3.90625, 4.1875, 4.5, 4.8125, 5.09375, 5.40625,
        5.6875, 6.0],
}


@pytest.mark.parametrize("name", sorted(_STEPWISE_RANGE))
def test_stepwise_activations_over_a_range(name):
    fn = {"elu": tf.nn.elu, "selu": tf.nn.selu, "softplus": tf.nn.softplus}[name]
    t = tf.constant(np.linspace(-6, 6, 41), b)
    assert fn(t).numpy().astype(float).tolist() == _STEPWISE_RANGE[name]
    assert tf.function(fn)(t).numpy().astype(float).tolist() == _STEPWISE_RANGE[name]
