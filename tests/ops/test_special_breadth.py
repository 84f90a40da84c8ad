"""tf.math breadth: erfinv, ndtri, erfcinv, igamma, igammac, betainc, zeta, the modified Bessel
functions, nextafter, angle. The expected numbers (values and gradients, float64) were produced
by TensorFlow 2.21 and are written here."""
import numpy as np
import pytest

import eagerflow as tf

M = tf.math


def _value_and_grads(fn, *args):
    ts = [tf.constant(np.asarray(a)) for a in args]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        y = fn(*ts)
    grads = tape.gradient(y, ts)
    traced = tf.function(fn)(*ts)
    np.testing.assert_array_equal(traced.numpy(), y.numpy())  # eager == generated code
    return y.numpy(), [None if g is None else g.numpy() for g in grads]


def test_erfinv_ndtri_erfcinv_match_tensorflow():
    y, (g,) = _value_and_grads(M.erfinv, [-0.999, -0.5, 0.0, 0.3, 0.9, 0.999999, 1.0, 1.5])
    # near 1 erfinv is ill-conditioned (one ulp of y moves x by 1e-11): erfc(ours) is 1 - y to 3e-15, TF's to 1e-10
    np.testing.assert_allclose(y, [-2.3267537655135246, -0.4769362762044699, 0.0, 0.27246271472675443,
                                   1.1630871536766738, 3.458910737260051, np.inf, np.nan], rtol=1e-11)
    np.testing.assert_allclose(g, [198.93951776442498, 1.1125848189719496, 0.8862269254527579, 0.9545203588405493,
                                   3.4280428114518378, 139146.3103118389, np.inf, np.nan], rtol=1e-9)
    y, (g,) = _value_and_grads(M.ndtri, [1e-300, 1e-10, 0.02, 0.3, 0.5, 0.7, 0.98, 1 - 1e-10, 0.0, 1.0, -0.1])
    np.testing.assert_allclose(y, [-37.0470962993612, -6.361340902404056, -2.053748910631823, -0.5244005127080409,
                                   0.0, 0.5244005127080407, 2.0537489106318225, 6.361340889697422, -np.inf, np.inf,
                                   np.nan], rtol=1e-13)
    np.testing.assert_allclose(g[1:8], [1535723698.1963818, 20.653418018055977, 2.876103659264292, 2.5066282746310002,
                                        2.876103659264292, 20.65341801805596, 1535723574.061949], rtol=1e-11)
    y, (g,) = _value_and_grads(M.erfcinv, [1e-100, 0.01, 0.5, 1.0, 1.7, 2.0])
    np.testing.assert_allclose(y, [15.065574702592647, 1.8213863677184499, 0.4769362762044699, 0.0,
                                   -0.7328690779592171, -np.inf], rtol=1e-13)
    np.testing.assert_allclose(g[1:5], [-24.450876473746433, -1.1125848189719496, -0.8862269254527579,
                                        -1.516363217333765], rtol=1e-12)
    assert M.erfinv(np.float32(0.5)).dtype == tf.float32


def test_erfinv_of_a_tiny_argument_keeps_its_bits():
    # erf(x) ~ 2x / sqrt(pi) near 0 (TensorFlow's float64 kernel returns 0 here; this is the true value).
    assert float(M.erfinv(tf.constant(1e-20, tf.float64))) == pytest.approx(np.sqrt(np.pi) / 2 * 1e-20, rel=1e-15)


A = [0.5, 1.0, 3.0, 10.0, 0.1, 50.0, 2.0]
X = [0.3, 2.0, 3.0, 8.0, 5.0, 60.0, 0.0]


def test_igamma_igammac_and_their_gradients_match_tensorflow():
    p, (ga, gx) = _value_and_grads(M.igamma, A, X)
    np.testing.assert_allclose(p, [0.5614219739190001, 0.8646647167633873, 0.5768099188731565, 0.28337574127298837,
                                   0.9998560610341533, 0.9155933189063081, 0.0], rtol=1e-13)
    np.testing.assert_allclose(ga, [-0.7705703513753518, -0.22082542621185938, -0.23681823213329284,
                                    -0.11260572310818602, -0.001753947315557889, -0.021284992786349464, 0.0],
                               rtol=1e-8)
    np.testing.assert_allclose(gx, [0.763090578768186, 0.1353352832366127, 0.22404180765538767, 0.12407691728941897,
                                    0.00016638490099201526, 0.019392664606901297, 0.0], rtol=1e-12)
    q, (ga_c, gx_c) = _value_and_grads(M.igammac, A, X)
    np.testing.assert_allclose(q, [0.43857802608099994, 0.1353352832366127, 0.4231900811268436, 0.7166242587270116,
                                   0.00014393896584673397, 0.0844066810936919, 1.0], rtol=1e-12)
    np.testing.assert_allclose(ga_c, -ga)
    np.testing.assert_allclose(gx_c, -gx)
    bad = M.igamma(tf.constant([-1.0, 0.0, 1.0], tf.float64), tf.constant([1.0, 1.0, -1.0], tf.float64)).numpy()
    assert np.isnan(bad).all()


def test_betainc_and_zeta_match_tensorflow():
    y, grads = _value_and_grads(M.betainc, [0.5, 2.0, 5.0, 1.0, 30.0], [0.5, 3.0, 1.0, 1.0, 20.0],
                                [0.2, 0.5, 0.9, 0.3, 0.6])
    np.testing.assert_allclose(y, [0.29516723530086664, 0.6875, 0.5904899999999998, 0.3, 0.49229980034234355],
                               rtol=1e-13)
    assert grads[0] is None and grads[1] is None  # TensorFlow differentiates in x only
    np.testing.assert_allclose(grads[2], [0.7957747154594766, 1.5000000000000004, 3.280499999999999, 1.0,
                                          5.727927641475993], rtol=1e-12)
    edge = M.betainc(tf.constant([-1.0, 1.0, 1.0], tf.float64), tf.constant([1.0] * 3, tf.float64),
                     tf.constant([0.5, 1.5, 0.0], tf.float64)).numpy()
    assert np.isnan(edge[:2]).all() and edge[2] == 0.0
    np.testing.assert_allclose(M.betainc(np.float64(2.0), np.ones(3), np.full(3, 0.5)).numpy(), [0.25] * 3)
    y, (gs, gq) = _value_and_grads(M.zeta, [2.0, 3.0, 1.5, 10.0, 1.0, 0.5, 2.0, 2.0],
                                   [1.0, 2.5, 0.3, 1.0, 1.0, 1.0, -1.0, -1.5])
    np.testing.assert_allclose(y, [1.6449340668482266, 0.11810202582086368, 8.237761671459724, 1.0009945751278182,
                                   np.inf, np.nan, np.inf, 9.379246644989124], rtol=1e-13)
    assert gs is None
    zeta_poles = M.zeta(tf.constant([3.0, 3.0, 2.5, 2.0, 4.0, 3.0, 2.0, 1.0, 0.5], tf.float64),
                        tf.constant([-1.0, 0.0, -1.5, 0.0, -2.0, -2.5, -3.2, -1.0, -1.0], tf.float64)).numpy()
    np.testing.assert_allclose(zeta_poles, [np.nan, np.nan, np.nan, np.inf, np.inf, 0.0541020258208641,
                                            28.29818640219403, np.inf, np.nan], rtol=1e-12)
    np.testing.assert_allclose(gq, [-2.404113806319188, -0.11195292440862604, -31.603858803371587,
                                    -10.004941886041195, -1.6449340668482266, -1.306187674342744, np.nan,
                                    -0.23620405164172825], rtol=1e-12)


def test_bessel_functions_match_tensorflow():
    z = [0.0, 0.5, -2.0, 10.0, 50.0]
    y, (g,) = _value_and_grads(M.bessel_i0, z)
    np.testing.assert_allclose(y, [1.0, 1.0634833707413238, 2.279585302336067, 2815.7166284662544,
                                   2.9325537838493355e+20], rtol=1e-14)
    np.testing.assert_allclose(g, [0.0, 0.2578943053908962, -1.5906368546373295, 2670.988303701255,
                                   2.9030785901035566e+20], rtol=1e-14)
    y, (g,) = _value_and_grads(M.bessel_i1, z)
    np.testing.assert_allclose(y, [0.0, 0.2578943053908962, -1.5906368546373295, 2670.988303701255,
                                   2.9030785901035566e+20], rtol=1e-14)
    np.testing.assert_allclose(g, [1.0, 0.5476947599595314, 1.484266875017402, 2548.617798096129,
                                   2.8744922120472645e+20], rtol=1e-14)  # 1.0 at 0 is TensorFlow's choice
    ze = z + [800.0]
    y, (g,) = _value_and_grads(M.special.bessel_i0e, ze)
    np.testing.assert_allclose(y, [1.0, 0.6450352704491502, 0.308508322553671, 0.1278333371634286,
                                   0.056561626647454184, 0.014106945005869183], rtol=1e-14)
    np.testing.assert_allclose(g, [0.0, -0.4886144672642786, 0.0932390333047333, -0.006570655778973075,
                                   -0.000568502754558782, -8.819599342187179e-06], rtol=1e-13)
    y, (g,) = _value_and_grads(M.special.bessel_i1e, ze)
    np.testing.assert_allclose(y, [0.0, 0.15642080318487162, -0.2152692892489377, 0.12126268138445552,
                                   0.0559931238928954, 0.014098125406526996], rtol=1e-14)
    np.testing.assert_allclose(g, [0.5, 0.17577286089453537, -0.014395611319735546, -0.005555612359472495,
                                   -0.0005513597232991302, -8.803057415971219e-06], rtol=1e-13)
    assert M.bessel_i0 is M.special.bessel_i0 and M.bessel_i1e is M.special.bessel_i1e
    assert M.bessel_i1e(np.array([0.5], np.float16)).dtype == tf.float16


def test_bessel_series_and_asymptotic_branches_meet():
    x = np.array([29.5, 29.99, 30.0, 30.01, 30.5])
    np.testing.assert_allclose(M.bessel_i0e(x).numpy(), np.i0(x) * np.exp(-x), rtol=1e-14)
    h = 1e-5  # I1 = I0': differences of NumPy's i0
    np.testing.assert_allclose(M.bessel_i1e(x).numpy(), np.exp(-x) * (np.i0(x + h) - np.i0(x - h)) / (2 * h),
                               rtol=1e-8)


def test_nextafter_and_angle_match_tensorflow():
    y, (g1, g2) = _value_and_grads(M.nextafter, np.array([1.0, 0.0, -1.0], np.float32),
                                   np.array([2.0, -1.0, -1.0], np.float32))
    assert y.tolist() == [1.0000001192092896, -1.401298464324817e-45, -1.0]
    assert g1.tolist() == [1.0, 1.0, 1.0] and g2.tolist() == [0.0, 0.0, 0.0]
    y, (g,) = _value_and_grads(M.angle, np.array([1 + 1j, -1 + 0j, -2j], np.complex64))
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, [0.7853981852531433, 3.1415927410125732, -1.5707963705062866])
    np.testing.assert_allclose(g, [-0.5 + 0.5j, -1j, 0.5 + 0j])
    real = M.angle(tf.constant([1.0, -2.0, 0.0, -0.0], tf.float64))
    assert real.numpy().tolist() == [0.0, np.pi, 0.0, 0.0] and real.dtype == tf.float64


@pytest.mark.parametrize("fn, args, types", [
    (M.erfinv, (np.float64(0.5),), ["Erfinv"]),
    (M.ndtri, (np.float64(0.5),), ["Ndtri"]),
    (M.erfcinv, (np.float64(0.5),), ["Mul", "Ndtri", "Neg", "Mul"]),
    (M.igamma, (np.float64(0.5), np.float64(1.0)), ["Igamma"]),
    (M.igammac, (np.float64(0.5), np.float64(1.0)), ["Igammac"]),
    (M.betainc, (np.float64(0.5), np.float64(1.0), np.float64(0.5)), ["Betainc"]),
    (M.zeta, (np.float64(2.0), np.float64(1.0)), ["Zeta"]),
    (M.bessel_i0, (np.float64(0.5),), ["BesselI0"]),
    (M.bessel_i0e, (np.float64(0.5),), ["BesselI0e"]),
    (M.bessel_i1, (np.float64(0.5),), ["BesselI1"]),
    (M.bessel_i1e, (np.float64(0.5),), ["BesselI1e"]),
    (M.nextafter, (np.float32(0.5), np.float32(1.0)), ["NextAfter"]),
    (M.angle, (np.complex64(1j),), ["Angle"]),
])
def test_graph_op_types_are_tensorflows(fn, args, types):
    cf = tf.function(fn).get_concrete_function(*[tf.TensorSpec([], tf.as_dtype(np.asarray(a).dtype)) for a in args])
    assert [op.type for op in cf.graph.get_operations() if op.type not in ("Placeholder", "Identity", "Const")] == types


@pytest.mark.parametrize("fn, args", [
    (M.erfinv, (np.array([1, 2], np.int32),)),
    (M.ndtri, (np.array([1, 2], np.int32),)),
    (M.bessel_i0e, (np.array([1, 2], np.int32),)),
    (M.igamma, (np.array([1, 2], np.int32), np.array([1, 2], np.int32))),
    (M.zeta, (np.array([1, 2], np.int32), np.array([1, 2], np.int32))),
])
def test_integer_input_is_refused_as_in_tensorflow(fn, args):
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of "
                                                              "allowed values"):
        fn(*[tf.constant(a) for a in args])
    with pytest.raises(TypeError, match="has DataType int32 not in list of allowed values"):
        tf.function(fn)(*[tf.constant(a) for a in args])


def test_betainc_broadcasts_scalars_only():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Shapes of a and b are inconsistent: \[2\] vs. \[3\]"):
        M.betainc(np.ones(2), np.ones(3), np.ones(2) * 0.5)
