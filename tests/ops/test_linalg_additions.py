"""tf.linalg additions against TensorFlow 2.21: expm, logm, sqrtm, lu (+ lu_solve, lu_matrix_inverse,
lu_reconstruct), eig, eigvals, banded_triangular_solve, eigh_tridiagonal. Every expected value,
dtype, error class and message below was printed by TensorFlow 2.21 for the same call."""
import numpy as np
import pytest

import eagerflow as tf

A = np.array([[1., 2., 0.], [3., 1., 4.], [0.5, 2., 2.]])
B2 = np.array([[4., 1.], [0.5, 3.]])


def _both_modes(fn, *args):
    """The eager result and the tf.function one (they must agree)."""
    eager = fn(*args)
    graph = tf.function(fn)(*args)
    return eager, graph


def _grad(fn, x):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = fn(x)
    return tape.gradient(y, x).numpy()


# --- expm / logm / sqrtm -------------------------------------------------------------------------

TF_EXPM_A = [[34.71953046961964, 38.60181713158193, 45.91510406442379],
             [69.38150171347883, 80.63463453404347, 100.16118629537576],
             [46.95647633523984, 55.819981155740884, 71.23860305956961]]
TF_LOGM_A = [[0.585429766068887 + 0.7838999824615872j, 0.07858372335332042 - 1.0346163659500363j,
              0.6134372143505 + 0.9506915557673095j],
             [0.27123488861760564 - 1.3142516599832268j, 1.198866980419387 + 1.734591538228896j,
              0.4638860538818912 - 1.5938869540164184j],
             [0.5180636674981113 + 0.5137827975734294j, 0.3086226787347581 - 0.6781070325372953j,
              0.8547605831269853 + 0.6231011328993099j]]
TF_SQRTM_A3 = [[1.877023678472421, 0.578597743653032, -0.1566604507102064],
               [0.8287315028019964, 1.7203632277622152, 1.0788652619509609],
               [0.017362819711215227, 0.5198500746367049, 2.107574881282608]]


def test_expm_matches_tf():
    for out in _both_modes(tf.linalg.expm, tf.constant(A)):
        np.testing.assert_allclose(out.numpy(), TF_EXPM_A, rtol=1e-13)
    z = tf.linalg.expm(np.array([[1j, 1], [0, 2]]))
    np.testing.assert_allclose(z.numpy(), [[0.5403023058681397 + 0.8414709848078965j,
                                            2.9077957141865833 + 1.0331623646893435j], [0, 7.38905609893065]],
                               rtol=1e-14)
    assert tf.linalg.expm(np.zeros((2, 0, 0))).shape == (2, 0, 0)
    f32 = tf.linalg.expm((A + 3 * np.eye(3)).astype(np.float32))
    assert f32.dtype == tf.float32
    np.testing.assert_allclose(f32.numpy(), [[697.3607, 775.3386, 922.23004], [1393.5648, 1619.5901, 2011.7915],
                                             [943.14594, 1121.1742, 1430.8656]], rtol=2e-6)


def test_expm_gradient_matches_tf():
    np.testing.assert_allclose(_grad(tf.linalg.expm, B2), [[97.55401808213185, 60.577690888018594],
                                                           [83.7424686285155, 51.22446260113813]], rtol=1e-12)


def test_expm_errors_match_tf():
    with pytest.raises(ValueError, match=r"^tf.linalg.expm does not support matrices of type <dtype: 'int32'>$"):
        tf.linalg.expm(np.eye(2, dtype=np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[1,3\], "
                                                             r"In\[1\]: \[1,3\]"):
        tf.linalg.expm(np.ones(3))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[1,2,3\]"):
        tf.linalg.expm(np.ones((2, 3)))
    with pytest.raises(tf.errors.NotFoundError, match=r"Could not find device for node: \{\{node MatrixSolve\}\} "
                                                      r"= MatrixSolve\[T=DT_HALF, adjoint=false\]"):
        tf.linalg.expm(np.eye(2, dtype=np.float16))


def test_logm_matches_tf_and_refuses_real_input():
    for out in _both_modes(tf.linalg.logm, tf.constant(A.astype(np.complex128))):
        np.testing.assert_allclose(out.numpy(), TF_LOGM_A, atol=1e-13)
    np.testing.assert_allclose(tf.linalg.logm(np.array([[1., 1.], [0., 1.]], np.complex128)).numpy(),
                               [[0, 1], [0, 0]], atol=1e-14)
    c64 = tf.linalg.logm(B2.astype(np.complex64))
    assert c64.dtype == tf.complex64
    np.testing.assert_allclose(c64.numpy(), [[1.3670581579208374, 0.29176926612854004],
                                             [0.14588454365730286, 1.075289011001587]], atol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of double is not in the list of "
                                                             "allowed values: complex64, complex128"):
        tf.linalg.logm(A)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square."):
        tf.linalg.logm(np.ones((2, 3), np.complex64))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input tensor 0 must have rank >= 2, got 1"):
        tf.linalg.logm(np.ones(2, np.complex64))


def test_logm_has_no_gradient_as_in_tf():
    with pytest.raises(LookupError, match="gradient registry has no entry for: MatrixLogarithm"):
        _grad(tf.linalg.logm, B2.astype(np.complex128))


def test_sqrtm_matches_tf():
    for out in _both_modes(tf.linalg.sqrtm, tf.constant(A + 3 * np.eye(3))):
        np.testing.assert_allclose(out.numpy(), TF_SQRTM_A3, atol=1e-14)
    cases = {  # input -> TensorFlow's root: a Jordan block, a rotation, a singular matrix
        ((1., 1.), (0., 1.)): [[1.0, 0.5], [0.0, 1.0]],
        ((0., -1.), (1., 0.)): [[0.7071067811865476, -0.7071067811865476], [0.7071067811865476, 0.7071067811865476]],
        ((0., 0.), (0., 1.)): [[0.0, 0.0], [0.0, 1.0]],
    }
    for x, expected in cases.items():
        np.testing.assert_allclose(tf.linalg.sqrtm(np.array(x)).numpy(), expected, atol=1e-12)
    assert np.isnan(tf.linalg.sqrtm(-np.eye(2)).numpy()).all()  # no real root: TensorFlow's NaNs
    np.testing.assert_allclose(tf.linalg.sqrtm(np.array([[1 + 1j, 2], [0, 3j]])).numpy(),
                               [[1.09868411346781 + 0.45508986056222733j, 0.5652997054939778 - 0.4087106106707679j],
                                [0, 1.224744871391589 + 1.224744871391589j]], atol=1e-13)
    np.testing.assert_allclose(tf.linalg.sqrtm(np.stack([np.eye(2) * 4, np.eye(2) * 9])).numpy(),
                               [[[2, 0], [0, 2]], [[3, 0], [0, 3]]], atol=1e-14)
    assert tf.linalg.sqrtm(B2.astype(np.float32)).dtype == tf.float32


def test_sqrtm_gradient_and_errors_match_tf():
    np.testing.assert_allclose(_grad(tf.linalg.sqrtm, B2), [[0.22620276482286758, 0.2516669370838301],
                                                            [0.23397041656515383, 0.2615958058602202]], rtol=1e-12)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of "
                                                             "allowed values: double, float, half, complex64, "
                                                             "complex128"):
        tf.linalg.sqrtm(np.eye(2, dtype=np.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square."):
        tf.linalg.sqrtm(np.ones((2, 3)))
    with pytest.raises(tf.errors.NotFoundError, match=r"MatrixSquareRoot\[T=DT_HALF\]"):
        tf.linalg.sqrtm(B2.astype(np.float16))


# --- lu and its helpers ----------------------------------------------------------------------------

TF_LU_A = [[3.0, 1.0, 4.0], [0.16666666666666666, 1.8333333333333333, 1.3333333333333335],
           [0.3333333333333333, 0.9090909090909092, -2.545454545454546]]


def test_lu_matches_tf_layout_and_permutation():
    for lu, p in _both_modes(lambda x: tuple(tf.linalg.lu(x)), tf.constant(A)):
        np.testing.assert_allclose(lu.numpy(), TF_LU_A, rtol=1e-15)
        np.testing.assert_array_equal(p.numpy(), [1, 2, 0])
        assert p.dtype == tf.int32
    result = tf.linalg.lu(A, output_idx_type=tf.int64)
    assert type(result).__name__ == "Lu" and result._fields == ("lu", "p")
    assert result.p.dtype == tf.int64


def test_lu_helpers_match_tf():
    lu, p = tf.linalg.lu(A)
    np.testing.assert_allclose(tf.linalg.lu_reconstruct(lu, p).numpy(), A, atol=1e-15)
    np.testing.assert_allclose(tf.linalg.lu_solve(lu, p, np.ones((3, 2))).numpy(),
                               [[0.14285714285714282] * 2, [0.4285714285714286] * 2, [0.03571428571428572] * 2],
                               rtol=1e-13)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lu, p).numpy(),
                               [[0.42857142857142844, 0.2857142857142857, -0.5714285714285714],
                                [0.28571428571428575, -0.14285714285714285, 0.28571428571428575],
                                [-0.3928571428571428, 0.07142857142857141, 0.3571428571428571]], rtol=1e-13)
    with pytest.raises(ValueError, match=r"`lower_upper.shape\[-1\]` must equal `rhs.shape\[-1\]`."):
        tf.linalg.lu_solve(lu, p, np.ones((2, 2)))


def test_lu_batched_complex_against_numpy():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(2, 4, 4)) + 1j * rng.normal(size=(2, 4, 4))
    lu, p = tf.linalg.lu(x)
    lower = np.tril(lu.numpy(), -1) + np.eye(4)
    upper = np.triu(lu.numpy())
    np.testing.assert_allclose(lower @ upper, np.take_along_axis(x, p.numpy()[..., None], axis=-2), atol=1e-13)
    np.testing.assert_allclose(tf.linalg.lu_matrix_inverse(lu, p).numpy(), np.linalg.inv(x), atol=1e-12)


def test_lu_errors_match_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input is not invertible. \[Op:Lu\]"):
        tf.linalg.lu(np.array([[1., 2.], [2., 4.]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="^Input tensor must have rank >= 2, got 1"):
        tf.linalg.lu(np.ones(3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square."):
        tf.linalg.lu(np.ones((2, 3)))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of int32 is not in the list of "
                                                             "allowed values: double, float, half, complex64"):
        tf.linalg.lu(np.eye(2, dtype=np.int32))
    with pytest.raises(tf.errors.NotFoundError, match=r"Lu\[T=DT_HALF, output_idx_type=DT_INT32\]"):
        tf.linalg.lu(np.eye(2, dtype=np.float16))


# --- eig / eigvals ---------------------------------------------------------------------------------

TF_EIGVALS_A = [1.14162732, -2.35311057, 5.21148325]  # real here; TF's order is its solver's, not sorted


def test_eig_matches_tf_as_a_set_and_decomposes():
    for e, v in _both_modes(lambda x: tuple(tf.linalg.eig(x)), tf.constant(A)):
        assert e.dtype == tf.complex128 and v.dtype == tf.complex128
        np.testing.assert_allclose(np.sort(e.numpy().real), np.sort(TF_EIGVALS_A), atol=1e-8)
        np.testing.assert_allclose(A @ v.numpy(), v.numpy() * e.numpy(), atol=1e-13)
        np.testing.assert_allclose(np.linalg.norm(v.numpy(), axis=0), 1.0, rtol=1e-14)
    assert [t.dtype for t in tf.linalg.eig(A.astype(np.float32))] == [tf.complex64, tf.complex64]
    values = tf.linalg.eigvals(np.array([[0., -2.], [1.5, 0.]]))
    np.testing.assert_allclose(sorted(values.numpy(), key=lambda z: z.imag), [-np.sqrt(3) * 1j, np.sqrt(3) * 1j],
                               atol=1e-14)


def test_eig_errors_match_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input tensor 0 must have rank >= 2, got 1"):
        tf.linalg.eig(np.ones(3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix must be square."):
        tf.linalg.eig(np.ones((2, 3)))
    # TensorFlow's own wrapper fails here with an UnboundLocalError (its out_dtype is never set); we
    # refuse with the op's dtype message instead.
    with pytest.raises(tf.errors.InvalidArgumentError, match="allowed values: float, double, complex64, complex128"):
        tf.linalg.eig(np.eye(2, dtype=np.int32))


def test_eigvals_gradient_of_identity_matches_tf():
    np.testing.assert_allclose(_grad(lambda x: tf.math.real(tf.linalg.eigvals(x)), B2), [[1.0, 0.0], [0.0, 1.0]],
                               atol=1e-14)


# --- banded_triangular_solve --------------------------------------------------------------------

BANDS = np.array([[1., 2., 3.], [4., 5., 6.]])


@pytest.mark.parametrize("lower,adjoint,expected", [
    (True, False, [1.0, -2.0, 4.333333333333333]),
    (False, False, [0.21666666666666667, 0.13333333333333336, 0.16666666666666666]),
    (True, True, [3.5, -0.5, 0.3333333333333333]),
    (False, True, [0.25, 0.15, 0.11666666666666665]),
])
def test_banded_triangular_solve_matches_tf(lower, adjoint, expected):
    fn = lambda b, r: tf.linalg.banded_triangular_solve(b, r, lower=lower, adjoint=adjoint)  # noqa: E731
    for out in _both_modes(fn, tf.constant(BANDS), tf.ones((3, 1), tf.float64)):
        np.testing.assert_allclose(out.numpy().ravel(), expected, rtol=1e-14)


def test_banded_triangular_solve_extra_bands_batch_and_gradient_match_tf():
    np.testing.assert_allclose(tf.linalg.banded_triangular_solve(np.ones((5, 3)), np.ones((3, 1))).numpy().ravel(),
                               [1.0, 0.0, 0.0])
    assert tf.linalg.banded_triangular_solve(tf.ones([2, 2, 3]), tf.ones([3, 1])).shape == (2, 3, 1)
    grad = _grad(lambda b: tf.linalg.banded_triangular_solve(b, tf.ones((3, 1), tf.float64)), BANDS)
    np.testing.assert_allclose(grad, [[-3.5, -1.0, -1.4444444444444444], [0.0, 0.5, 0.6666666666666666]], atol=1e-14)


def test_banded_triangular_solve_errors_match_tf():
    cases = [
        ((np.ones((2, 4)), np.ones((3, 1))), r"In\[0\] mismatch In\[1\] shape: 4 vs. 3: \[2,4\] \[3,1\] 1 0"),
        ((np.ones(3), np.ones((3, 1))), r"In\[0\] ndims must be >= 2: 1"),
        ((np.ones((2, 2, 3)), np.ones((4, 3, 1))),
         r"In\[0\] and In\[1\] must have compatible batch dimensions: \[2,2,3\] vs. \[4,3,1\]"),
        ((np.ones((2, 3), np.float32), np.ones((3, 1))),
         r"cannot compute BandedTriangularSolve as input #1\(zero-based\) was expected to be a float tensor but is "
         r"a double tensor"),
        ((np.ones((2, 3), np.int32), np.ones((3, 1), np.int32)),
         "Value for attr 'T' of int32 is not in the list of allowed values: double, float, half, complex64"),
    ]
    for args, message in cases:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.linalg.banded_triangular_solve(*args)


# --- eigh_tridiagonal ----------------------------------------------------------------------------

D = np.array([1., 2., 3., 4.])
E = np.array([0.5, 0.25, 0.1])
TF_TRI_VALUES = [0.78867645, 2.14482574, 3.05627073, 4.01022708]
TF_TRI_VECTORS = [[-0.92021504, -0.38640417, 0.06238028, -0.00219201],
                  [0.38892621, -0.88473087, 0.25654147, -0.0131969],
                  [-0.04403185, 0.26028113, 0.95914844, -0.10173101],
                  [0.00137114, -0.01403001, -0.10163386, -0.99472199]]


def test_eigh_tridiagonal_matches_tf():
    values = tf.linalg.eigh_tridiagonal(D, E)  # eigvals_only by default
    np.testing.assert_allclose(values.numpy(), TF_TRI_VALUES, atol=1e-8)
    w, v = tf.linalg.eigh_tridiagonal(D, E, eigvals_only=False)
    np.testing.assert_allclose(np.abs(v.numpy()), np.abs(TF_TRI_VECTORS), atol=1e-8)  # columns up to sign
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(D, E, select="i", select_range=[1, 2]).numpy(),
                               TF_TRI_VALUES[1:3], atol=1e-8)
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(D, E, select="v", select_range=[1.5, 3.5]).numpy(),
                               TF_TRI_VALUES[1:3], atol=1e-8)
    assert [t.shape for t in tf.linalg.eigh_tridiagonal(D[:3], E[:2], eigvals_only=False, select="i",
                                                        select_range=[0, 1])] == [(2,), (3, 2)]
    assert tf.linalg.eigh_tridiagonal(D.astype(np.float32), E.astype(np.float32)).dtype == tf.float32
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(np.array([2.0]), np.zeros([0])).numpy(), [2.0])
    np.testing.assert_allclose(tf.linalg.eigh_tridiagonal(np.array([2.0, 1.0]), np.zeros([1])).numpy(), [1.0, 2.0])


def test_eigh_tridiagonal_complex_is_hermitian_with_beta_above_the_diagonal():
    d = np.array([1., 2., 3.]).astype(np.complex128)
    e = np.array([0.5 + 0.5j, 0.25 - 0.1j])
    w, v = tf.linalg.eigh_tridiagonal(d, e, eigvals_only=False)
    assert w.dtype == tf.float64
    np.testing.assert_allclose(w.numpy(), [0.62742626, 2.28687356, 3.08570018], atol=1e-8)
    dense = np.diag(d) + np.diag(e, 1) + np.diag(e.conj(), -1)
    np.testing.assert_allclose(dense @ v.numpy(), v.numpy() * w.numpy(), atol=1e-14)


def test_eigh_tridiagonal_errors_match_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Incompatible shapes"):
        tf.linalg.eigh_tridiagonal(D, E[:2])
    with pytest.raises(ValueError, match=r"^data type <class 'numpy.int32'> not inexact$"):
        tf.linalg.eigh_tridiagonal(D.astype(np.int32), E.astype(np.int32))
    with pytest.raises(ValueError, match=r"^'select must have a value in \{'a', 'i', 'v'\}.$"):
        tf.linalg.eigh_tridiagonal(D, E, select="x")


# --- jit_compile: only expm compiles, as in TensorFlow ------------------------------------------

@pytest.mark.parametrize("fn,op", [(lambda x: tf.linalg.lu(x).lu, "Lu"), (tf.linalg.eigvals, "Eig"),
                                   (tf.linalg.sqrtm, "MatrixSquareRoot")])
def test_jit_refuses_what_xla_cannot_compile(fn, op):
    pytest.importorskip("jax")
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Detected unsupported operations when trying to "
                                                             f"compile graph .* on XLA_CPU_JIT: {op} \\(No "
                                                             f"registered '{op}' OpKernel for XLA_CPU_JIT"):
        tf.function(fn, jit_compile=True)(tf.constant(A.astype(np.float32) + 3 * np.eye(3, dtype=np.float32)))


def test_jit_expm_matches_tf():
    pytest.importorskip("jax")
    x = tf.constant(A.astype(np.float32) + 3 * np.eye(3, dtype=np.float32))
    np.testing.assert_allclose(tf.function(tf.linalg.expm, jit_compile=True)(x).numpy(),
                               [[697.3607, 775.3386, 922.23004], [1393.5648, 1619.5901, 2011.7915],
                                [943.14594, 1121.1742, 1430.8656]], rtol=2e-5)


# --- graph mode: TensorFlow's shape functions and dtype checks (TypeError / ValueError at trace time) ---

W23 = np.ones((2, 3), np.float32)
V3 = np.ones(3, np.float32)
I22 = np.array([[1, 2], [3, 4]], np.int32)
_NOT_ALLOWED = "Value passed to parameter 'input' has DataType int32 not in list of allowed values: "


@pytest.mark.parametrize("call,cls,message", [
    (lambda: tf.linalg.inv(I22), TypeError, _NOT_ALLOWED + "float64, float32, float16, complex64, complex128"),
    (lambda: tf.linalg.lu(I22), TypeError, _NOT_ALLOWED + "float64, float32, float16, complex64, complex128"),
    (lambda: tf.linalg.sqrtm(I22), TypeError, _NOT_ALLOWED + "float64, float32, float16, complex64, complex128"),
    (lambda: tf.linalg.det(I22), TypeError, _NOT_ALLOWED + "float16, float32, float64, complex64, complex128"),
    (lambda: tf.linalg.inv(W23), ValueError, "Dimensions must be equal, but are 2 and 3 for '{{node MatrixInverse}}"),
    (lambda: tf.linalg.det(W23), ValueError,
     "Dimensions must be equal, but are 3 and 2 for '{{node MatrixDeterminant}}"),
    (lambda: tf.linalg.slogdet(W23), ValueError, "Dimensions must be equal, but are 3 and 2"),
    (lambda: tf.linalg.lu(W23), ValueError, "Dimensions must be equal, but are 2 and 3 for '{{node Lu}}"),
    (lambda: tf.linalg.eig(W23), ValueError, "Dimensions must be equal, but are 2 and 3 for '{{node Eig}}"),
    (lambda: tf.linalg.logm(W23.astype(np.complex64)), ValueError, "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.linalg.lu(V3), ValueError, "Shape must be at least rank 2 but is rank 1 for '{{node Lu}}"),
    (lambda: tf.linalg.cholesky(V3), ValueError, "Shape must be at least rank 2 but is rank 1 for '{{node Cholesky}}"),
    (lambda: tf.linalg.solve(W23, np.ones((2, 1), np.float32)), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.linalg.triangular_solve(np.ones((2, 2), np.float32), np.ones((3, 1), np.float32)), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    (lambda: tf.linalg.banded_triangular_solve(np.ones((2, 4), np.float32), np.ones((3, 1), np.float32)), ValueError,
     "Dimensions must be equal, but are 4 and 3"),
    (lambda: tf.linalg.banded_triangular_solve(V3, np.ones((3, 1), np.float32)), ValueError,
     "Shape must be at least rank 2 but is rank 1"),
])
def test_graph_mode_refusals_are_tensorflows(call, cls, message):
    with pytest.raises(cls) as info:
        tf.function(call)()
    assert message in str(info.value)


def test_banded_solve_of_a_zero_diagonal_is_not_invertible_as_in_tf():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible."):
        tf.linalg.banded_triangular_solve(np.array([[4., 2., 0.], [3., 1., 4.]]), np.ones((3, 1)))


def test_lu_helpers_trace_with_unknown_matrix_size():
    spec = tf.TensorSpec([None, None], tf.float64)
    solve = tf.function(lambda x, b: tf.linalg.lu_solve(*tf.linalg.lu(x), b), input_signature=[spec, spec])
    inverse = tf.function(lambda x: tf.linalg.lu_matrix_inverse(*tf.linalg.lu(x)), input_signature=[spec])
    rebuilt = tf.function(lambda x: tf.linalg.lu_reconstruct(*tf.linalg.lu(x)), input_signature=[spec])
    np.testing.assert_allclose(solve(tf.constant(A), tf.constant(np.ones((3, 2)))).numpy(),
                               [[0.14285714285714282] * 2, [0.4285714285714286] * 2, [0.03571428571428572] * 2],
                               rtol=1e-13)
    np.testing.assert_allclose(inverse(tf.constant(A)).numpy(), np.linalg.inv(A), rtol=1e-13)
    np.testing.assert_allclose(rebuilt(tf.constant(A)).numpy(), A, atol=1e-15)
