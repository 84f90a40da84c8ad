"""TensorFlow's gradient ops (ops/math/gradient_ops.py), which a training step saved by TensorFlow holds:
values and gradients against TensorFlow 2.21's (tf.raw_ops.<Op> on the inputs below, the loss
sum(out * W); LeakyReluGrad with alpha 0.3), and BroadcastGradientArgs' axes and error."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.math import gradient_ops as G
from eagerflow._src.ops.registry import bind

A = np.array([-1.5, -0.25, 0.5, 2.0, 7.0], np.float32)
B = np.array([0.3, -1.2, 2.0, 0.7, -0.4], np.float32)
POSITIVE = np.array([0.5, 1.25, 2.0, 0.75, 3.0], np.float32)
W = np.array([1.0, -2.0, 0.5, 3.0, -1.0], np.float32)
INPUTS = {"SigmoidGrad": (np.array([0.1, 0.4, 0.5, 0.8, 0.95], np.float32), B),
          "TanhGrad": (np.array([-0.9, -0.2, 0.0, 0.5, 0.99], np.float32), B),
          "RsqrtGrad": (POSITIVE, B), "SqrtGrad": (POSITIVE, B), "ReciprocalGrad": (POSITIVE, B), "InvGrad": (POSITIVE, B),
          "EluGrad": (B, np.array([-0.9, -0.2, 0.0, 0.5, 3.0], np.float32)),
          "SeluGrad": (B, np.array([-1.5, -0.2, 0.0, 0.5, 3.0], np.float32)),
          "SoftplusGrad": (B, A), "SoftsignGrad": (B, A), "Relu6Grad": (B, A), "LeakyReluGrad": (B, A)}

# op -> (output, gradient for the first input, for the second): TensorFlow's
TENSORFLOW = {
    "SigmoidGrad": ([0.027, -0.288, 0.5, 0.112, -0.019],
                 [0.24, 0.48, 0, -1.26, -0.36], [0.09, -0.48, 0.125, 0.48, -0.0475]),
    "TanhGrad": ([0.057, -1.152, 2, 0.525, -0.00796],
                 [0.54, 0.96, -0, -2.1, -0.792], [0.19, -1.92, 0.5, 2.25, -0.0199]),
    "RsqrtGrad": ([-0.01875, 1.1719, -8, -0.14766, 5.4],
                 [-0.1125, -5.625, -6, -1.7719, -5.4], [-0.0625, 1.9531, -2, -0.63281, 13.5]),
    "SqrtGrad": ([0.3, -0.48, 0.5, 0.46667, -0.066667],
                 [-0.6, -0.768, -0.125, -1.8667, -0.02222], [1, -0.8, 0.125, 2, -0.16667]),
    "ReciprocalGrad": ([-0.075, 1.875, -8, -0.39375, 3.6],
                 [-0.3, -6, -4, -3.15, -2.4], [-0.25, 3.125, -2, -1.6875, 9]),
    "InvGrad": ([-0.075, 1.875, -8, -0.39375, 3.6],
                 [-0.3, -6, -4, -3.15, -2.4], [-0.25, 3.125, -2, -1.6875, 9]),
    "EluGrad": ([0.03, -0.96, 2, 0.7, -0.4],
                 [0.1, -1.6, 0.5, 3, -1], [0.3, 2.4, 0, 0, 0]),
    "SeluGrad": ([0.07743, -1.8697, 2.1014, 0.73549, -0.42028],
                 [0.2581, -3.1162, 0.52535, 3.1521, -1.0507], [0.3, 2.4, 0, 0, 0]),
    "SoftplusGrad": ([0.054728, -0.52539, 1.2449, 0.61656, -0.39964],
                 [0.18243, -0.87565, 0.31123, 2.6424, -0.99909], [0.04474, 0.59072, 0.235, 0.22049, 0.00036]),
    "SoftsignGrad": ([0.048, -0.768, 0.88889, 0.077778, -0.00625], None, None),
    "Relu6Grad": ([0, -0, 2, 0.7, -0],
                 [0, -0, 0.5, 3, -0], [0, 0, 0, 0, 0]),
    "LeakyReluGrad": ([0.09, -0.36, 2, 0.7, -0.4],
                 [0.3, -0.6, 0.5, 3, -1], [0, 0, 0, 0, 0]),
}


@pytest.mark.parametrize("name", sorted(TENSORFLOW))
def test_values_and_gradients_are_tensorflows(name):
    first, second = (tf.constant(v) for v in INPUTS[name])
    attrs = {"alpha": 0.3} if name == "LeakyReluGrad" else {}
    with tf.GradientTape() as tape:
        tape.watch(first)
        tape.watch(second)
        out = bind(getattr(G, name), (first, second), attrs)
        loss = tf.reduce_sum(out * W)
    value, d_first, d_second = TENSORFLOW[name]
    np.testing.assert_allclose(out.numpy(), value, rtol=1e-4, atol=1e-5)
    if d_first is None:  # TensorFlow registers no gradient for it
        with pytest.raises(LookupError, match=f"gradient registry has no entry for: {name}"):
            tape.gradient(loss, [first, second])
        return
    grads = tape.gradient(loss, [first, second])
    np.testing.assert_allclose(grads[0].numpy(), d_first, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(grads[1].numpy(), d_second, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("s0, s1, r0, r1", [  # TensorFlow's answers
    ([2, 3], [3], [], [0]), ([2, 1], [1, 1], [1], [0, 1]), ([1], [1], [], []), ([], [4, 1], [0, 1], [1]),
    ([5, 1, 3], [4, 1], [1], [0, 2]), ([2, 3], [2, 3], [], []), ([1, 1], [3, 1], [0, 1], [1]), ([0, 1], [1], [1], [0, 1]),
])
def test_broadcast_gradient_args_are_tensorflows(s0, s1, r0, r1):
    out = bind(G.BroadcastGradientArgs, (tf.constant(s0, tf.int32), tf.constant(s1, tf.int32)))
    assert [t.numpy().tolist() for t in out] == [r0, r1]
    traced = tf.function(lambda a, b: bind(G.BroadcastGradientArgs, (a, b)))(tf.constant(s0, tf.int32),
                                                                              tf.constant(s1, tf.int32))
    assert [t.numpy().tolist() for t in traced] == [r0, r1]


def test_broadcast_gradient_args_refuses_incompatible_shapes():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]"):
        bind(G.BroadcastGradientArgs, (tf.constant([2]), tf.constant([3])))
