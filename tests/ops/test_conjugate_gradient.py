"""tf.linalg.experimental.conjugate_gradient against TensorFlow 2.21: the CGState fields after the
default tolerance (relative to ||rhs||), a max_iter cut, a loose tol, an initial guess, a batch of
right-hand sides, a batch of operators and a diagonal preconditioner; and its refusal of an
operator not marked self-adjoint positive definite. Eager and tf.function alike."""
import numpy as np
import pytest

import eagerflow as tf

_RS = np.random.RandomState(3)
_M = _RS.randn(4, 4)
A = (_M @ _M.T + 4 * np.eye(4)).astype(np.float32)
B = _RS.randn(4).astype(np.float32)
BB = _RS.randn(2, 4).astype(np.float32)


def _operator(matrix=A):
    return tf.linalg.LinearOperatorFullMatrix(matrix, is_self_adjoint=True, is_positive_definite=True)


CASES = {
    "default": lambda: tf.linalg.experimental.conjugate_gradient(_operator(), tf.constant(B)),
    "maxiter2": lambda: tf.linalg.experimental.conjugate_gradient(_operator(), tf.constant(B), max_iter=2),
    "tol_loose": lambda: tf.linalg.experimental.conjugate_gradient(_operator(), tf.constant(B), tol=0.1),
    "x0": lambda: tf.linalg.experimental.conjugate_gradient(_operator(), tf.constant(B), x=tf.ones(4), max_iter=3),
    "batch": lambda: tf.linalg.experimental.conjugate_gradient(_operator(), tf.constant(BB), max_iter=3),
    "precond": lambda: tf.linalg.experimental.conjugate_gradient(
        _operator(), tf.constant(B), max_iter=2,
        preconditioner=tf.linalg.LinearOperatorDiag(1.0 / np.diag(A), is_self_adjoint=True, is_positive_definite=True)),
    "batchop": lambda: tf.linalg.experimental.conjugate_gradient(
        _operator(np.stack([A, A + np.eye(4, dtype=np.float32)])), tf.constant(B), max_iter=2),
}
# TensorFlow's (i, x, r, p, gamma)
EXPECTED = {
    "default": (4, [0.03352374956011772, -0.3544795513153076, 0.1113777756690979, -0.16212071478366852],
        [1.2922100722789764e-07, -5.587935447692871e-09, -5.360925570130348e-08, 7.543712854385376e-08],
        [1.2921771030960372e-07, -5.590783835884849e-09, -5.361003019288546e-08, 7.544204549958522e-08],
        2.5294006391349613e-14),
    "maxiter2": (2, [0.0380697175860405, -0.345647394657135, 0.1348952353000641, -0.15200479328632355],
        [-0.036602020263671875, -0.030664682388305664, -0.1338317096233368, -0.05820572376251221],
        [-0.0239807590842247, -0.048440828919410706, -0.1325385570526123, -0.05975079536437988],
        0.023578863590955734),
    "tol_loose": (2, [0.0380697175860405, -0.345647394657135, 0.1348952353000641, -0.15200479328632355],
        [-0.036602020263671875, -0.030664682388305664, -0.1338317096233368, -0.05820572376251221],
        [-0.0239807590842247, -0.048440828919410706, -0.1325385570526123, -0.05975079536437988],
        0.023578863590955734),
    "x0": (3, [0.03219316899776459, -0.3555615246295929, 0.11152336746454239, -0.15983572602272034],
        [0.00827634334564209, 0.0070708394050598145, -0.0010898709297180176, -0.014336958527565002],
        [0.00838910136371851, 0.006822414696216583, -0.0009171654819510877, -0.014407516457140446],
        0.0003252308233641088),
    "batch": (3, [[-0.0966830924153328, -0.008964435197412968, 0.21052207052707672, 0.10076187551021576], [-0.0778031125664711, -0.14115476608276367, 0.06564062833786011, 0.009892892092466354]],
        [[-0.005789261311292648, 0.0011407062411308289, -0.005380363203585148, 0.005787782371044159], [-0.0011660344898700714, -0.00034377723932266235, -0.0021879728883504868, 0.0004417151212692261]],
        [[-0.0057595474645495415, 0.0025119944475591183, -0.005104064475744963, 0.005804087501019239], [-0.0011423296527937055, -0.000389229942811653, -0.0022037967573851347, 0.000390534580219537]],
        [9.726348798722029e-05, 6.46015678285039e-06]),
    "precond": (2, [0.020319834351539612, -0.3666987419128418, 0.1080184131860733, -0.13532090187072754],
        [0.06026184558868408, 0.07819658517837524, 0.026434138417243958, -0.1817510724067688],
        [0.011400770395994186, 0.010632945224642754, 0.002048070542514324, -0.0241721011698246],
        0.005965935532003641),
    "f64": (4, [0.03352376153753783, -0.3544795395055814, 0.1113777781969182, -0.16212072199101185],
        [-1.700029006457271e-16, 1.1275702593849246e-17, 7.237049501340742e-17, -9.75781955236954e-17],
        [-1.700029006457328e-16, 1.1275702593844316e-17, 7.237049501340608e-17, -9.75781955236869e-17],
        4.3787120487092054e-32),
    "batchop": (2, [[0.03806973248720169, -0.345647394657135, 0.1348952353000641, -0.15200479328632355], [0.02209164947271347, -0.2823345363140106, 0.11495260149240494, -0.1294585019350052]],
        [[-0.036602139472961426, -0.03066462278366089, -0.1338317096233368, -0.058205753564834595], [-0.027837276458740234, -0.023321568965911865, -0.10178373008966446, -0.0442674458026886]],
        [[-0.023980874568223953, -0.04844077304005623, -0.1325385570526123, -0.05975082889199257], [-0.019423048943281174, -0.03435397893190384, -0.10128873586654663, -0.044884562492370605]],
        [0.02357887104153633, 0.013638344593346119]),
}


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("case", list(CASES))
def test_matches_tensorflow(mode, case):
    state = CASES[case]() if mode == "eager" else tf.function(CASES[case])()
    assert type(state).__name__ == "CGState" and state._fields == ("i", "x", "r", "p", "gamma")
    i, x, r, p, gamma = EXPECTED[case]
    assert state.i.dtype == tf.int32 and int(state.i) == i
    atol = 5e-6 if case == "x0" else 5e-7  # TF's own eager and graph runs differ by 2e-6 there
    np.testing.assert_allclose(state.x.numpy(), x, atol=atol)
    np.testing.assert_allclose(state.r.numpy(), r, atol=atol)
    np.testing.assert_allclose(state.p.numpy(), p, atol=atol)
    np.testing.assert_allclose(state.gamma.numpy(), gamma, rtol=1e-4, atol=1e-9)


def test_converged_solution_solves_the_system():
    op = tf.linalg.LinearOperatorFullMatrix(A.astype(np.float64), is_self_adjoint=True, is_positive_definite=True)
    state = tf.linalg.experimental.conjugate_gradient(op, tf.constant(B.astype(np.float64)))
    assert int(state.i) == 4  # n steps in exact arithmetic; TensorFlow stops there too
    np.testing.assert_allclose(state.x.numpy(), np.linalg.solve(A.astype(np.float64), B), rtol=1e-10)


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_operator_must_be_marked_self_adjoint_positive_definite(mode):
    def call():
        return tf.linalg.experimental.conjugate_gradient(tf.linalg.LinearOperatorFullMatrix(A), tf.constant(B))
    with pytest.raises(ValueError, match=r"^Expected a self-adjoint, positive definite operator.$"):
        call() if mode == "eager" else tf.function(call)()
