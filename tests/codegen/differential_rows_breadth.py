"""Differential rows (generated code == eager == reference interpreter) for the tf.nn / tf.math /
tf.random breadth additions, kept beside test_differential.py like differential_rows_everyday.py.
`rows(Row)` builds them with that test's Row class."""
import numpy as np

import eagerflow as tf

_RNG = np.random.default_rng(21)
IMG = _RNG.uniform(-2, 2, (2, 4, 6, 4)).astype(np.float32)
DW_FILTER = _RNG.uniform(-1, 1, (3, 2, 4, 2)).astype(np.float32)


def _grad(f, argnums=(0,)):
    """Gradients of sum(f(*args) * ramp) wrt the chosen args: puts f's backward ops in the graph."""
    def g(*args):
        with tf.GradientTape() as tape:
            for i in argnums:
                tape.watch(args[i])
            y = f(*args)
            y = tf.reduce_sum(y * tf.reshape(tf.cast(tf.range(tf.size(y)) % 5, y.dtype), tf.shape(y)))
        grads = tape.gradient(y, [args[i] for i in argnums])
        return grads[0] if len(grads) == 1 else tuple(grads)
    return g


UNIT = _RNG.uniform(-0.95, 0.95, (2, 3)).astype(np.float32)
PROB = _RNG.uniform(0.02, 0.98, (2, 3)).astype(np.float32)
POS_A = _RNG.uniform(0.3, 5.0, (2, 3)).astype(np.float32)
POS_X = _RNG.uniform(0.1, 8.0, (2, 3)).astype(np.float32)
S_ARG = _RNG.uniform(1.2, 5.0, (2, 3)).astype(np.float32)
WIDE = _RNG.uniform(-40, 40, (2, 3)).astype(np.float32)


def _depthwise(x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 2, 1, 1], "SAME")


def rows(Row):
    N, M = tf.nn, tf.math
    return [
        Row("DepthwiseConv2dNative", _depthwise, (IMG, DW_FILTER)),
        Row("DepthwiseConv2dNative", lambda x, f: N.depthwise_conv2d(x, f, [1, 1, 1, 1], "VALID", dilations=[1, 2]),
            (IMG, DW_FILTER), dims="dynamic", label="dilated"),
        Row("DepthwiseConv2dNative", _depthwise, (IMG, DW_FILTER[:, :, :3]), dims="dynamic",
            raises=tf.errors.InvalidArgumentError, label="depth"),
        Row("DepthwiseConv2dNativeBackpropInput", _grad(_depthwise), (IMG, DW_FILTER)),
        Row("DepthwiseConv2dNativeBackpropFilter", _grad(_depthwise, (1,)), (IMG, DW_FILTER)),
        Row("SpaceToDepth", lambda x: N.space_to_depth(x, 2), (IMG,)),
        Row("SpaceToDepth", lambda x: N.space_to_depth(x, 2), (IMG,), dims="dynamic", label="dynamic"),
        Row("SpaceToDepth", lambda x: N.space_to_depth(x, 3), (IMG,), dims="dynamic",
            raises=tf.errors.InvalidArgumentError, label="indivisible"),
        Row("DepthToSpace", lambda x: N.depth_to_space(x, 2), (IMG,)),
        Row("DepthToSpace", lambda x: N.depth_to_space(x, 3), (IMG,), dims="dynamic",
            raises=tf.errors.InvalidArgumentError, label="indivisible"),
        Row("LRN", lambda x: N.local_response_normalization(x, 2, 0.5, 0.3, 0.7), (IMG,)),
        Row("LRN", lambda x: N.lrn(x, -1), (IMG,), raises=tf.errors.InvalidArgumentError, label="negative-radius"),
        Row("LRNGrad", _grad(lambda x: N.lrn(x, 1, 0.5, 0.3, 0.7)), (IMG,)),
        Row("Softsign", N.softsign, (IMG[0],)),
        Row("Erfinv", M.erfinv, (UNIT,)),
        Row("Ndtri", M.ndtri, (PROB,)),
        Row("Ndtri", lambda p: M.erfcinv(p * 2.0), (PROB,), dims="dynamic", label="erfcinv"),
        Row("Igamma", M.igamma, (POS_A, POS_X)),
        Row("Igammac", M.igammac, (POS_A, POS_X[0])),
        Row("IgammaGradA", _grad(M.igamma), (POS_A, POS_X)),
        Row("Betainc", M.betainc, (POS_A, POS_X, PROB)),
        Row("Betainc", M.betainc, (POS_A, POS_X[:1], PROB), dims="dynamic", raises=tf.errors.InvalidArgumentError,
            label="shapes"),
        Row("Zeta", M.zeta, (S_ARG, POS_X)),
        Row("BesselI0", M.bessel_i0, (WIDE / 4,)),
        Row("BesselI0e", M.bessel_i0e, (WIDE,)),
        Row("BesselI1", M.bessel_i1, (WIDE / 4,)),
        Row("BesselI1e", M.special.bessel_i1e, (WIDE,)),
        Row("NextAfter", M.nextafter, (UNIT, PROB)),
        Row("Angle", lambda x, y: M.angle(tf.cast(x, tf.complex64) + tf.cast(y, tf.complex64) * 1j), (UNIT, PROB)),
    ]
