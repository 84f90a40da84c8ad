"""tf.signal's Fourier transforms (ops/signal/fourier.py, ops/signal/fft.py) against TensorFlow 2.21's values,
dtypes, shapes and errors (written in here) and NumPy's transforms."""
import numpy as np
import pytest

import eagerflow as tf

X = np.array([1., 2., -1., 0.5, 3.], np.float32)
Y = np.array([1 + 2j, 2 - 1j, 0.5 + 0.5j, 3 + 1j], np.complex64)
X2 = (((np.arange(12) * 7) % 5) - 2).reshape(3, 4).astype(np.float32)
Y2 = (np.arange(12).reshape(3, 4) + 1j * np.arange(12).reshape(3, 4)[::-1]).astype(np.complex64)
RNG = np.random.default_rng(3)
C3 = (RNG.normal(size=(2, 3, 4, 5)) + 1j * RNG.normal(size=(2, 3, 4, 5)))


def _close(got, want, rtol=1e-5, atol=1e-5):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


# --- values ---------------------------------------------------------------------------------------


def test_rfft_pads_and_crops_to_fft_length_as_tensorflow():
    _close(tf.signal.rfft(X, [8]), [5.5, -0.9393399 - 0.76776695j, 5 - 1.5j, -3.0606601 - 2.767767j, 0.5])
    _close(tf.signal.rfft(X, [3]), [2, 0.5 - 2.598076j])
    assert tf.signal.rfft(X).dtype == tf.complex64 and tf.signal.rfft(X).shape == [3]
    _close(tf.signal.irfft(tf.signal.rfft(X)), [2.0498984, 1.2585312, -0.89969516, 3.0912657])


def test_irfft_of_a_non_hermitian_half_spectrum_matches_tensorflow():
    # TF 2.21: the imaginary parts of DC (and of Nyquist for an even length) are ignored
    _close(tf.signal.irfft(Y, [6]), [1.5, 0.06100424, 0.68301266, -0.8333334, -0.1830127, -0.22767094])
    _close(tf.signal.irfft(Y, [5]), [1.2, 0.54827577, 0.03991518, -0.81073564, 0.02254465])
    _close(tf.signal.irfft(Y, [4]), [1.375, 0.625, -0.625, -0.375])
    _close(tf.signal.irfft2d(Y2, [2, 6]), [[3.5, -4.9967937, 0.28867513, -0.16666667, -0.28867513, 3.6634605],
                                           [-2., -1.1547005, 0., 0., 0., 1.1547005]])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_complex_transforms_match_numpy_on_the_innermost_axes(rank, dtype):
    x = tf.constant(C3.astype(dtype))
    axes = tuple(range(-rank, 0))
    fwd = {1: tf.signal.fft, 2: tf.signal.fft2d, 3: tf.signal.fft3d}[rank](x)
    inv = {1: tf.signal.ifft, 2: tf.signal.ifft2d, 3: tf.signal.ifft3d}[rank](x)
    assert fwd.dtype == tf.as_dtype(dtype) and inv.dtype == tf.as_dtype(dtype) and fwd.shape == x.shape
    tol = 1e-4 if dtype == np.complex64 else 1e-12
    _close(fwd, np.fft.fftn(x.numpy(), axes=axes), tol, tol)
    _close(inv, np.fft.ifftn(x.numpy(), axes=axes), tol, tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_real_transforms_match_numpy_and_tensorflow_dtypes(rank, dtype):
    x = C3.real.astype(dtype)
    axes = tuple(range(-rank, 0))
    rfft = {1: tf.signal.rfft, 2: tf.signal.rfft2d, 3: tf.signal.rfft3d}[rank]
    irfft = {1: tf.signal.irfft, 2: tf.signal.irfft2d, 3: tf.signal.irfft3d}[rank]
    spectrum = rfft(tf.constant(x))
    assert spectrum.dtype == (tf.complex64 if dtype == np.float32 else tf.complex128)
    assert spectrum.shape == x.shape[:-1] + (3,)
    tol = 1e-4 if dtype == np.float32 else 1e-12
    _close(spectrum, np.fft.rfftn(x, axes=axes), tol, tol)
    back = irfft(spectrum)  # inferred fft_length: 2 * (3 - 1) = 4 on the last axis
    assert back.dtype == tf.as_dtype(dtype) and back.shape == x.shape[:-1] + (4,)
    _close(back, np.fft.irfftn(np.fft.rfftn(x, axes=axes), s=x.shape[-rank:-1] + (4,), axes=axes), tol, tol)
    n = [3, 4, 7][-rank:]
    _close(rfft(tf.constant(x), n), np.fft.rfftn(x, s=n, axes=axes), tol, tol)
    _close(irfft(spectrum, n), np.fft.irfftn(np.asarray(spectrum), s=n, axes=axes), tol, tol)


def test_conversions_of_non_tensor_inputs_follow_tensorflow():
    # TF 2.21: a NumPy array converts to the op's default dtype (complex64 / float32)
    assert tf.signal.fft(X).dtype == tf.complex64
    assert tf.signal.fft(X.astype(np.float64)).dtype == tf.complex64
    assert tf.signal.fft(Y.astype(np.complex128)).dtype == tf.complex64
    assert tf.signal.rfft(X.astype(np.float64)).dtype == tf.complex64
    assert tf.signal.fft([1.0, 2.0]).dtype == tf.complex64
    assert tf.signal.fft([1.0 + 1j, 2.0 + 0j]).dtype == tf.complex128  # Python complex: complex128
    _close(tf.signal.rfft([1.0, 2.0]), [3, -1])
    _close(tf.signal.irfft(X), [0.875, 0.01516503, 0.75, -0.51516503, -0.375, -0.51516503, 0.75, 0.01516503])


def test_empty_inputs():
    assert tf.signal.fft(tf.zeros([2, 0], tf.complex64)).shape == [2, 0]


def test_fftshift_and_ifftshift_match_tensorflow():
    _close(tf.signal.fftshift(np.arange(10.)), [5, 6, 7, 8, 9, 0, 1, 2, 3, 4])
    _close(tf.signal.fftshift(np.arange(6.).reshape(2, 3), axes=1), [[2, 0, 1], [5, 3, 4]])
    _close(tf.signal.ifftshift(np.arange(15.).reshape(3, 5), axes=(-1,)),
           [[2, 3, 4, 0, 1], [7, 8, 9, 5, 6], [12, 13, 14, 10, 11]])
    _close(tf.signal.ifftshift(np.arange(15.).reshape(3, 5)), [[7, 8, 9, 5, 6], [12, 13, 14, 10, 11], [2, 3, 4, 0, 1]])
    x = np.arange(35.).reshape(5, 7)
    _close(tf.signal.ifftshift(tf.signal.fftshift(x)), x)


# --- errors ---------------------------------------------------------------------------------------


def test_bad_dtypes_raise_tensorflows_errors_eagerly_and_in_graphs():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'Tcomplex' of float is not in the list of allowed values: complex64, "
                             "complex128"):
        tf.signal.fft(tf.constant(X))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'Tcomplex' of int32"):
        tf.signal.fft(tf.constant([1, 2]))
    graph_fft = tf.function(tf.signal.fft)
    with pytest.raises(TypeError, match="Value passed to parameter 'input' has DataType float32 not in list of "
                                        "allowed values: complex64, complex128"):
        graph_fft.get_concrete_function(tf.TensorSpec([3]))
    with pytest.raises(ValueError, match=r"RFFT requires tf.float32 or tf.float64 inputs, got: .*int32"):
        tf.signal.rfft(tf.constant([1, 2]))
    with pytest.raises(ValueError, match=r"RFFT requires tf.float32 or tf.float64 inputs, got: .*int32"):
        tf.function(tf.signal.rfft).get_concrete_function(tf.TensorSpec([3], tf.int32))
    with pytest.raises(ValueError, match="RFFT requires tf.float32 or tf.float64 inputs, got: .*complex64"):
        tf.signal.rfft(tf.constant([1 + 0j], tf.complex64))
    with pytest.raises(ValueError, match="IRFFT requires tf.complex64 or tf.complex128 inputs"):
        tf.signal.irfft(tf.constant(X))


def test_bad_ranks_and_lengths_raise_tensorflows_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input must have rank of at least 1 but got: \[\]"):
        tf.signal.fft(tf.constant(1 + 0j, tf.complex64))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input must have rank of at least 2 but got: \[1\]"):
        tf.signal.fft2d(tf.constant([1 + 0j], tf.complex64))
    with pytest.raises(ValueError, match="Shape must be at least rank 2 but is rank 1"):
        tf.function(tf.signal.fft2d).get_concrete_function(tf.TensorSpec([3], tf.complex64))
    with pytest.raises(ValueError, match=r"Shape \(\) must have rank at least 1"):
        tf.signal.rfft(tf.constant(1.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"fft_length must have shape \[1\]"):
        tf.signal.rfft(X, [4, 4])
    with pytest.raises(ValueError, match="Dimension must be 1 but is 2"):
        tf.function(lambda v: tf.signal.rfft(v, [2, 2])).get_concrete_function(tf.TensorSpec([3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"fft_length\[0\] must >= 0, but got: -1"):
        tf.signal.rfft(X, [-1])


# --- graphs ---------------------------------------------------------------------------------------


def test_graphs_hold_tensorflows_op_types_and_attrs():
    def f(v):
        return tf.signal.rfft2d(v, [4, 6]), tf.signal.fft(tf.cast(v, tf.complex64)), tf.signal.irfft(
            tf.cast(v, tf.complex64))
    cf = tf.function(f).get_concrete_function(tf.TensorSpec([2, 5, 3]))
    ops = {op.type: op for op in cf.graph.get_operations()}
    assert {"RFFT2D", "FFT", "IRFFT"} <= set(ops)
    assert ops["RFFT2D"].get_attr("Treal") == tf.float32 and ops["RFFT2D"].get_attr("Tcomplex") == tf.complex64
    assert ops["IRFFT"].get_attr("Treal") == tf.float32 and ops["FFT"].get_attr("Tcomplex") == tf.complex64
    shapes = [o.shape.as_list() for o in cf.structured_outputs]
    assert shapes == [[2, 4, 4], [2, 5, 3], [2, 5, 4]]
    x = RNG.normal(size=(2, 5, 3)).astype(np.float32)
    for got, want in zip(cf(tf.constant(x)), f(tf.constant(x))):
        _close(got, want)


def test_unknown_dims_and_lengths_trace_and_run():
    cf = tf.function(lambda v, n: tf.signal.rfft(v, n)).get_concrete_function(
        tf.TensorSpec([None]), tf.TensorSpec([1], tf.int32))
    assert cf.structured_outputs.shape.as_list() == [None] and cf.structured_outputs.dtype == tf.complex64
    _close(cf(tf.constant(X), tf.constant([8])), np.fft.rfft(X, 8))
    _close(cf(tf.constant(X), tf.constant([3])), np.fft.rfft(X, 3))
    inv = tf.function(lambda v: tf.signal.irfft2d(v)).get_concrete_function(tf.TensorSpec([None, None], tf.complex64))
    _close(inv(tf.constant(Y2)), np.fft.irfft2(Y2), 1e-5, 1e-5)


# --- gradients (TensorFlow 2.21's values; tests/gradcheck/test_signal_grads.py checks finite differences) ---


def _grad(f, x, weights):
    x = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
        w = tf.cast(tf.reshape(weights(tf.range(tf.size(y))), tf.shape(y)), y.dtype)
        if y.dtype.is_complex:
            loss = tf.math.real(tf.reduce_sum(y * w * tf.cast(1 + 0.5j, y.dtype)))
        else:
            loss = tf.reduce_sum(y * w)
    return tape.gradient(loss, x).numpy()


def _ramp(r):
    return r


def _cycle(r):
    return r % 3 + 1


def test_gradients_match_tensorflow():
    _close(_grad(lambda v: tf.signal.rfft(v, [8]), X, _ramp), [10, -3, 1, -2.171573, 2])
    _close(_grad(tf.signal.rfft, X, _ramp), [3, -0.24570346, -0.8481469, 0.46618092, -2.3723304])
    _close(_grad(lambda v: tf.signal.irfft(v, [6]), Y, _ramp), [2.5, -1 + 1.7320508j, -1 + 0.57735026j, -0.5])
    _close(_grad(tf.signal.fft, Y, _ramp), [6 - 3j, -3 - 1j, -2 + 1j, -1 + 3j])
    _close(_grad(tf.signal.rfft2d, X2, _cycle), [[18, -3, 6, -9], [0, 0, 0, 0], [0, 0, 0, 0]])
    _close(_grad(lambda v: tf.signal.rfft2d(v, [3, 5]), X2, _cycle),
           [[18, 3.0711522, -1.5893483, 3.4434497], [0, 0, 0, 0], [0, 0, 0, 0]])
    _close(_grad(lambda v: tf.signal.irfft2d(v, [3, 6]), Y2, _cycle),
           [[2, 0, -1 + 0.57735026j, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    _close(_grad(lambda v: tf.signal.irfft2d(v, [3, 7]), Y2, _cycle),
           [[2, 0, 0, 0],
            [-0.07142857 + 0.04123931j, -0.25288945 + 0.01895144j, -0.8922434 - 0.35017967j,
             0.32965505 + 0.35528362j],
            [-0.07142857 - 0.04123931j, -0.08069997 - 0.11836509j, -0.02287292 - 0.15175155j,
             0.06190761 - 0.20069958j]])
    _close(_grad(tf.signal.ifft, Y2, _cycle),
           [[1.75 - 0.875j, -0.625, 0.25 - 0.125j, -0.375 + 0.5j], [2 - 1j, 0.125 - 0.375j, -0.5 + 0.25j,
                                                                   0.375 + 0.125j],
            [2.25 - 1.125j, 0.5 + 0.375j, 0.25 - 0.125j, -0.625j]])
    fft2d_grad = [[24 - 12j, 0, 0, 0],
                  [-1.9330126 - 0.11602521j, -4.8480763 + 4.299038j, 0.20096192 - 3.3480763j, -1.1519239 - 1.299038j],
                  [-1.0669874 + 1.6160252j, 0.34807616 + 1.7009618j, 2.7990382 + 1.8480761j, -6.3480763 + 1.299038j]]
    _close(_grad(tf.signal.fft2d, Y2, _cycle), fft2d_grad)
    _close(_grad(tf.signal.fft3d, Y2.reshape(1, 3, 4), _cycle), [fft2d_grad])


def test_gradient_of_a_cropping_transform_is_zero_padded_back():
    # TF 2.21's own gradient fails here ("Incompatible shapes: [3] vs. [5]"); the gradient that
    # finite differences give has zeros where the kernel dropped the input
    _close(_grad(lambda v: tf.signal.rfft(v, [3]), X, _ramp), [1, -0.06698731, -0.9330127, 0, 0])
    _close(_grad(lambda v: tf.signal.irfft(v, [4]), Y, _ramp), [1.5, -1 + 1j, -0.5, 0])


def test_three_dimensional_real_transforms_have_no_gradient_as_in_tensorflow():
    for f, x in ((tf.signal.rfft3d, np.ones((2, 2, 2), np.float32)),
                 (tf.signal.irfft3d, np.ones((2, 2, 2), np.complex64))):
        with pytest.raises(LookupError, match=f"gradient registry has no entry for: {'I' if x.dtype.kind == 'c' else ''}"
                                              f"RFFT3D"):
            _grad(f, x, _ramp)


def test_gradients_with_an_fft_length_known_only_at_run_time_equal_the_static_ones():
    rng = np.random.default_rng(0)
    x, zr, zi = rng.normal(size=(2, 7)), rng.normal(size=(2, 5)), rng.normal(size=(2, 5))

    def grads(x, zr, zi, n):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, zr, zi])
            y = tf.signal.rfft(x, n)
            real_loss = tf.reduce_sum(tf.math.real(y) * 1.5 + tf.math.imag(y) * 0.7)
            back = tf.signal.irfft(tf.cast(zr, tf.complex128) + tf.cast(zi, tf.complex128) * 1j, n)
            complex_loss = tf.reduce_sum(back * tf.cast(tf.range(tf.shape(back)[-1]), tf.float64))
        return [tape.gradient(real_loss, x)] + tape.gradient(complex_loss, [zr, zi])

    spec = tf.TensorSpec([None, None], tf.float64)
    traced = tf.function(grads).get_concrete_function(spec, spec, spec, tf.TensorSpec([1], tf.int32))
    for n in ([6], [7], [9], [4], [5]):  # even, odd, padded and cropped lengths
        static = grads(tf.constant(x), tf.constant(zr), tf.constant(zi), n)
        dynamic = traced(tf.constant(x), tf.constant(zr), tf.constant(zi), tf.constant(n))
        for s, d in zip(static, dynamic):
            np.testing.assert_allclose(d.numpy(), s.numpy(), rtol=1e-12, atol=1e-12)
