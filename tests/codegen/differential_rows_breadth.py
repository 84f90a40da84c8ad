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
SEED = np.array([7, -3], np.int32)
TRIDIAG = (_RNG.uniform(-1, 1, (2, 3, 4)) + np.array([0.0, 4.0, 0.0])[:, None]).astype(np.float32)
RHS3 = _RNG.uniform(-1, 1, (2, 4, 3)).astype(np.float32)


def _depthwise(x, f):
    return tf.nn.depthwise_conv2d(x, f, [1, 2, 1, 1], "SAME")


def rows(Row):
    N, M, R = tf.nn, tf.math, tf.random
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
        Row("StatelessRandomGetKeyCounter", lambda s: R.stateless_uniform([2, 3], seed=s) + 0.0, (SEED,)),
        Row("StatelessRandomGetKeyCounter", lambda s: R.stateless_uniform([2], seed=s), (SEED[:1],), dims="dynamic",
            raises=tf.errors.InvalidArgumentError, label="seed-shape"),
        Row("StatelessRandomUniformV2", lambda s, x: R.stateless_uniform(tf.shape(x), seed=s, minval=-1.0, maxval=3.0)
            * x, (SEED, UNIT)),
        Row("StatelessRandomNormalV2", lambda s: R.stateless_normal([3, 2], seed=s, mean=1.0, stddev=2.0,
                                                                    dtype=tf.float64), (SEED,)),
        Row("StatelessTruncatedNormalV2", lambda s: R.stateless_truncated_normal([9], seed=s), (SEED,)),
        Row("StatelessRandomUniformFullIntV2", lambda s: R.split(s, 3), (SEED,)),
        Row("StatelessRandomUniformFullIntV2", lambda s: R.fold_in(s, 7), (SEED,), label="fold_in"),
        Row("StatelessRandomUniformIntV2", lambda s: R.stateless_uniform([5], seed=s, minval=-3, maxval=9,
                                                                         dtype=tf.int64), (SEED,)),
        Row("StatelessMultinomial", lambda s, x: R.stateless_categorical(x, 6, seed=s), (SEED, UNIT)),
        Row("RandomGamma", lambda a, b: R.gamma([4], a, b, seed=3), (POS_A, POS_X), seed=5),
        Row("RandomGammaGrad", _grad(lambda a: R.gamma([2], a, seed=3)), (POS_A,), seed=5),
        Row("TridiagonalSolve", tf.linalg.tridiagonal_solve, (TRIDIAG, RHS3)),
        Row("TridiagonalSolve", lambda d, r: tf.linalg.tridiagonal_solve(d, r, partial_pivoting=False),
            (TRIDIAG, RHS3), dims="dynamic", label="thomas"),
        Row("TridiagonalMatMul", tf.linalg.tridiagonal_matmul, (TRIDIAG, RHS3)),
        Row("RandomPoissonV2", lambda lam: R.poisson([3, 2], lam, dtype=tf.int32, seed=4), (POS_X,), seed=5),
    ]
