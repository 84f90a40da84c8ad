"""TensorFlow's gradient ops, as a saved function that takes its own gradient holds them (a training
step exported with tf.saved_model.save): the elementwise *Grad ops of activations and math functions,
and BroadcastGradientArgs, the axes a broadcast gradient is summed over. eagerflow's own gradients are
composed from ordinary ops, so only imported graphs use these; each is defined here once, with its
own gradient (what a second derivative through an imported training step needs), except where
TensorFlow registers none (SoftsignGrad)."""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..registry import NO_GRADIENT, UNREGISTERED_GRADIENT, Spec, bind, defop

_SELU_SCALE, _SELU_ALPHA = 1.0507009873554805, 1.6732632423543772
_FLOAT = R.binary(R.FLOATS + (_dt.bfloat16,))


def _zeros(t):
    from ..array.basic import zeros_like
    return zeros_like(t)


def _negative_where(outputs, value):
    """value where outputs < 0, else 0 (the part of an ELU/SELU gradient that depends on the output)."""
    from ..array.basic import where
    return where(outputs < 0, value, _zeros(value))


def _from_output(name, kernel, d_output, doc):
    """An op f'(x)*dy computed from y = f(x): inputs (y, dy); its gradient: (g * d_output(y, dy), f'(y)*g)."""
    def grad(op, g):
        y, dy = op.inputs
        return d_output(y, dy, g), bind(OP, (y, g))
    OP = defop(name, inputs=("y", "dy"), kernel=kernel, infer=_FLOAT, grad=grad, doc=doc)
    return OP


def _from_features(name, kernel, d_features, doc, inputs=("gradients", "features")):
    """An op of (gradients, features or outputs): linear in gradients, so its gradient for them is itself."""
    def grad(op, g):
        gradients, x = op.inputs
        return bind(OP, (g, x), dict(op.attrs)), d_features(gradients, x, g, op.attrs)
    OP = defop(name, inputs=inputs, kernel=kernel, infer=_FLOAT, grad=grad, doc=doc)
    return OP


SigmoidGrad = _from_output("SigmoidGrad", lambda y, dy: dy * y * (1 - y),
                           lambda y, dy, g: g * dy * (1 - 2 * y), "Sigmoid's gradient from its output: dy*y*(1-y).")
TanhGrad = _from_output("TanhGrad", lambda y, dy: dy * (1 - y * y), lambda y, dy, g: -2 * g * dy * y,
                        "Tanh's gradient from its output: dy*(1-y^2).")
RsqrtGrad = _from_output("RsqrtGrad", lambda y, dy: dy * (-0.5 * y * y * y), lambda y, dy, g: -1.5 * g * dy * y * y,
                         "Rsqrt's gradient from its output: -dy*y^3/2.")
SqrtGrad = _from_output("SqrtGrad", lambda y, dy: dy * 0.5 / y, lambda y, dy, g: -g * dy * 0.5 / (y * y),
                        "Sqrt's gradient from its output: dy/(2y).")
ReciprocalGrad = _from_output("ReciprocalGrad", lambda y, dy: -dy * y * y, lambda y, dy, g: -2 * g * dy * y,
                              "Reciprocal's gradient from its output: -dy*y^2.")
InvGrad = _from_output("InvGrad", lambda y, dy: -dy * y * y, lambda y, dy, g: -2 * g * dy * y,
                       "Reciprocal's gradient from its output (TensorFlow's older name).")


def _sigmoid_np(x):
    return (1 / (1 + np.exp(-x))).astype(x.dtype)


def _sigmoid(x):
    from .elementwise import sigmoid
    return sigmoid(x)


EluGrad = _from_features(
    "EluGrad", lambda g, y: np.where(y < 0, g * (y + 1), g).astype(g.dtype),
    lambda gradients, y, g, attrs: _negative_where(y, g * gradients),
    "Elu's gradient from its output: g*(y+1) where y < 0, else g.", inputs=("gradients", "outputs"))
SeluGrad = _from_features(
    "SeluGrad", lambda g, y: np.where(y < 0, g * (y + _SELU_SCALE * _SELU_ALPHA), g * _SELU_SCALE).astype(g.dtype),
    lambda gradients, y, g, attrs: _negative_where(y, g * gradients),
    "Selu's gradient from its output.", inputs=("gradients", "outputs"))
SoftplusGrad = _from_features(
    "SoftplusGrad", lambda g, x: g * _sigmoid_np(x),
    lambda gradients, x, g, attrs: g * gradients * _sigmoid(x) * (1 - _sigmoid(x)),
    "Softplus's gradient: gradients * sigmoid(features).")
SoftsignGrad = defop(  # TensorFlow registers no gradient for it: differentiating through it is its LookupError
    "SoftsignGrad", inputs=("gradients", "features"), kernel=lambda g, x: (g / np.square(1 + np.abs(x))).astype(g.dtype),
    infer=_FLOAT, grad=UNREGISTERED_GRADIENT, doc="Softsign's gradient: gradients / (1 + |features|)^2.")
Relu6Grad = _from_features(
    "Relu6Grad", lambda g, x: g * ((x > 0) & (x < 6)), lambda gradients, x, g, attrs: _zeros(x),
    "Relu6's gradient: gradients where 0 < features < 6, else 0.")
LeakyReluGrad = _from_features(
    "LeakyReluGrad", lambda g, x, alpha=0.2: np.where(x > 0, g, g * np.asarray(alpha, g.dtype)).astype(g.dtype),
    lambda gradients, x, g, attrs: _zeros(x), "LeakyRelu's gradient: gradients where features > 0, else alpha times.")


# --- BroadcastGradientArgs -------------------------------------------------------------------------------

def _broadcast_args_kernel(s0, s1):
    a, b = [int(d) for d in np.ravel(s0)], [int(d) for d in np.ravel(s1)]
    dtype = np.asarray(s0).dtype
    if a == b:
        return np.zeros(0, dtype), np.zeros(0, dtype)
    rank = max(len(a), len(b))
    pa, pb = [1] * (rank - len(a)) + a, [1] * (rank - len(b)) + b
    r0, r1 = [], []
    for i, (x, y) in enumerate(zip(pa, pb)):
        if x == 1 and y == 1:  # TensorFlow sums a size-1 axis of both (their shapes differ elsewhere)
            r0.append(i)
            r1.append(i)
        elif x == 1:
            r0.append(i)
        elif y == 1:
            r1.append(i)
        elif x != y:
            raise InvalidArgumentError(None, None, f"Incompatible shapes: {a} vs. {b}".replace(", ", ","))
    return np.array(r0, dtype), np.array(r1, dtype)


def _broadcast_args_infer(inputs, attrs):
    s0, s1 = inputs
    R.check_same_dtype("BroadcastGradientArgs", inputs)
    R.check_dtype_in("BroadcastGradientArgs", s0.dtype, (_dt.int32, _dt.int64))
    return [Spec(TensorShape([None]), s0.dtype), Spec(TensorShape([None]), s0.dtype)]


BroadcastGradientArgs = defop(
    "BroadcastGradientArgs", inputs=("s0", "s1"), kernel=_broadcast_args_kernel, infer=_broadcast_args_infer,
    grad=NO_GRADIENT, multi_output=True, doc="The axes to sum each side's gradient over for a broadcast of s0 and s1.")
