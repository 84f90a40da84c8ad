"""The Fourier transform ops of `tf.signal`, as TensorFlow's op types: FFT/IFFT/FFT2D/IFFT2D/FFT3D/
IFFT3D on complex tensors, and RFFT/IRFFT/RFFT2D/IRFFT2D/RFFT3D/IRFFT3D between real and
Hermitian-half spectra (attrs Treal, Tcomplex). Each transforms the innermost 1, 2 or 3 axes.

The public functions (fft_length inference, padding, dtype checks) live in ops/signal/fft.py; here
is each op once: kernel (NumPy's pocketfft), shape rule, gradient, JAX lowering.

Gradients follow TensorFlow's definitions: FFT's is IFFT(g) * N and IFFT's FFT(g) / N. RFFT's is
written as IRFFT(g * mask) * N (the mask halves every bin but DC and Nyquist, which IRFFT counts
once), the same gradient as TensorFlow's "IRFFT plus the DC/Nyquist terms" form, and IRFFT's is
RFFT(g) * mask' / N (mask' doubles the mirrored bins), TensorFlow's own form. Each real transform's
gradient is made of the other, so gradients nest. Where the kernel cropped its input (an
`fft_length` shorter than the input), the gradient is zero-padded back to the input's shape
(TensorFlow's gradient fails there with a shape mismatch). TensorFlow registers no gradient for
RFFT3D/IRFFT3D, and neither do we (LookupError, as there).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import UNREGISTERED_GRADIENT, Spec, bind, defop, static_value
from ..lazy_jax import jnp  # callables that import JAX on first use only
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from ..array import padding as _padding
from ..math import reduce as _reduce
from ..array import sequences as _sequences
from ..array import slicing as _slicing

COMPLEX = (_dt.complex64, _dt.complex128)
REALS = (_dt.float32, _dt.float64)
REAL_OF = {_dt.complex64: _dt.float32, _dt.complex128: _dt.float64}
COMPLEX_OF = {_dt.float32: _dt.complex64, _dt.float64: _dt.complex128}


def _axes(rank):
    return tuple(range(-rank, 0))


def check_rank(op_name, shape, rank):
    """An input of too low a rank, in TensorFlow's words: the kernel's eagerly, the shape
    function's while tracing."""
    if shape.rank is not None and shape.rank < rank:
        if state.graph is not None:
            raise ValueError(f"Shape must be at least rank {rank} but is rank {shape.rank}")
        raise ValueError(f"Input must have rank of at least {rank} but got: {R.fmt_dims(shape)}")


# ----------------------------------------------------------------------------------------------
# Complex to complex: FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D
# ----------------------------------------------------------------------------------------------


def _complex_kernel(rank, inverse):
    transform = np.fft.ifftn if inverse else np.fft.fftn

    def kernel(x, Tcomplex=None):
        if 0 in x.shape[x.ndim - rank:]:  # NumPy refuses empty transforms; TensorFlow returns them
            return x.copy()
        return transform(x, axes=_axes(rank)).astype(x.dtype, copy=False)
    return kernel


def _complex_rule(op_name, rank):
    def infer(inputs, attrs):
        x = inputs[0]
        R.check_dtype_in(op_name, x.dtype, COMPLEX, arg="input", attr="Tcomplex")
        check_rank(op_name, x.shape, rank)
        return [Spec(x.shape, x.dtype)]
    return infer


def _size(t, rank, dtype):
    """The number of points of the innermost `rank` axes of `t`, as a scalar of `dtype`."""
    dims = t.shape.as_list()[-rank:] if t.shape.rank is not None else [None]
    if None not in dims:
        return as_tensor(np.array(np.prod(dims), dtype.np_dtype))
    return _math.cast(_reduce.reduce_prod(_array.shape(t)[-rank:]), dtype)


def _fft_grad(rank, inverse):
    def grad(op, g):
        if inverse:  # IFFT: FFT(g) / N
            return complex_transform(g, rank, False) * _math.reciprocal(_size(g, rank, g.dtype))
        return complex_transform(g, rank, True) * _size(g, rank, g.dtype)
    return grad


def _complex_op(name, rank, inverse):
    op = defop(name, inputs=("input",), kernel=_complex_kernel(rank, inverse), infer=_complex_rule(name, rank),
               grad=_fft_grad(rank, inverse))
    op.jax = _jax_complex(rank, inverse)
    return op


def complex_transform(x, rank, inverse):
    """Binds the FFT op of this rank and direction on a complex tensor."""
    return bind(COMPLEX_OPS[(rank, inverse)], (x,), {"Tcomplex": x.dtype})


# ----------------------------------------------------------------------------------------------
# Real to Hermitian half and back: RFFT, IRFFT, RFFT2D, IRFFT2D, RFFT3D, IRFFT3D
# ----------------------------------------------------------------------------------------------


def _lengths(fft_length, rank):
    """fft_length as Python ints, refused as TensorFlow's kernels refuse it."""
    n = [int(v) for v in np.ravel(fft_length)]
    if np.ndim(fft_length) != 1 or len(n) != rank:
        raise InvalidArgumentError(None, None, f"fft_length must have shape [{rank}]")
    for i, v in enumerate(n):
        if v < 0:
            raise InvalidArgumentError(None, None, f"fft_length[{i}] must >= 0, but got: {v}")
    if 0 in n:  # TensorFlow's kernel aborts the process here
        raise InvalidArgumentError(None, None, f"fft_length must be positive, got: {n}")
    return n


def _out_shape(x_shape, n, rank, half):
    outer = list(x_shape[:len(x_shape) - rank])
    return tuple(outer + n[:-1] + [n[-1] // 2 + 1 if half else n[-1]])


def _real_kernel(rank, inverse):
    def kernel(x, fft_length, Treal=None, Tcomplex=None):
        n = _lengths(fft_length, rank)
        out_dtype = (Treal if inverse else Tcomplex).np_dtype
        if x.size == 0:
            return np.zeros(_out_shape(x.shape, n, rank, not inverse), out_dtype)
        transform = np.fft.irfftn if inverse else np.fft.rfftn
        return transform(x, s=n, axes=_axes(rank)).astype(out_dtype, copy=False)
    return kernel


def _real_rule(op_name, rank, inverse):
    def infer(inputs, attrs):
        x, fft_length = inputs
        R.check_dtype_in(op_name, x.dtype, COMPLEX if inverse else REALS, arg="input",
                         attr="Tcomplex" if inverse else "Treal")
        R.check_dtype_in(op_name, fft_length.dtype, (_dt.int32,), arg="fft_length", attr="T")
        check_rank(op_name, x.shape, rank)
        n_shape = fft_length.shape
        if n_shape.rank is not None and (n_shape.rank != 1 or n_shape[0] not in (None, rank)):
            if state.graph is not None:
                raise ValueError(f"Dimension must be {rank} but is {n_shape[0] if n_shape.rank else 0}")
            raise ValueError(f"fft_length must have shape [{rank}]")
        out_dtype = REAL_OF[x.dtype] if inverse else COMPLEX_OF[x.dtype]
        if x.shape.rank is None:
            return [Spec(TensorShape(None), out_dtype)]
        known = static_value(fft_length)
        n = [int(v) for v in np.ravel(known)] if known is not None else [None] * rank
        last = n[-1] if inverse or n[-1] is None else n[-1] // 2 + 1
        dims = list(x.shape)[:x.shape.rank - rank] + n[:-1] + [last]
        return [Spec(TensorShape(dims), out_dtype)]
    return infer


def _half_mask(fft_length, dtype, inverse):
    """Weights of the Hermitian-half bins along the last axis: DC (and Nyquist, for an even length)
    appear once in the full spectrum, the others twice. RFFT's gradient halves the twice-counted
    bins (1, 0.5, ..., 0.5, 1); IRFFT's doubles them (1, 2, ..., 2, 1)."""
    pair = 2.0 if inverse else 0.5
    n = static_value(fft_length)
    if n is not None:
        n_last = int(np.ravel(n)[-1])
        mask = np.full(n_last // 2 + 1, pair)
        mask[0] = 1.0
        if n_last % 2 == 0:
            mask[-1] = 1.0
        return as_tensor(mask.astype(dtype.np_dtype))
    n_last = fft_length[-1]
    k = _sequences.range(n_last // 2 + 1)
    once = _math.logical_or(_math.equal(k, 0),
                            _math.logical_and(_math.equal(k, n_last // 2), _math.equal(n_last % 2, 0)))
    ones = _array.ones_like(_math.cast(k, dtype))
    return _array.where(once, ones, ones * as_tensor(np.array(pair, dtype.np_dtype)))


def fit_inner(t, like, rank):
    """`t` cropped or zero-padded on its innermost `rank` axes to the shape of `like` (the gradient
    of a kernel that cropped or padded its input)."""
    ts, ls = t.shape, like.shape
    if ts.rank is not None and ls.rank is not None and ts.is_fully_defined() and ls.is_fully_defined():
        have, want = ts.as_list(), ls.as_list()
        if have == want:
            return t
        keep = [min(h, w) for h, w in zip(have, want)]
        if keep != have:
            t = _slicing.slice(t, [0] * len(keep), keep)
        pads = [[0, w - k] for w, k in zip(want, keep)]
        return _padding.pad(t, pads) if any(p for _, p in pads) else t
    keep = _math.minimum(_array.shape(t), _array.shape(like))
    t = _slicing.slice(t, _array.zeros_like(keep), keep)
    extra = _array.shape(like) - keep
    return _padding.pad(t, _joining.stack([_array.zeros_like(extra), extra], axis=1))


def _rfft_grad(rank):
    def grad(op, g):
        x, fft_length = op.inputs
        real = REAL_OF[g.dtype]
        weighted = g * _math.cast(_half_mask(fft_length, real, False), g.dtype)
        dx = real_transform(weighted, fft_length, rank, True) * _size_of_lengths(fft_length, real)
        return fit_inner(dx, x, rank), None
    return grad


def _irfft_grad(rank):
    def grad(op, g):
        x, fft_length = op.inputs
        scale = _half_mask(fft_length, g.dtype, True) / _size_of_lengths(fft_length, g.dtype)
        dx = real_transform(g, fft_length, rank, False) * _math.cast(scale, COMPLEX_OF[g.dtype])
        return fit_inner(dx, x, rank), None
    return grad


def _size_of_lengths(fft_length, dtype):
    n = static_value(fft_length)
    if n is not None:
        return as_tensor(np.array(np.prod(np.ravel(n)), dtype.np_dtype))
    return _math.cast(_reduce.reduce_prod(fft_length), dtype)


def _real_op(name, rank, inverse):
    grad = UNREGISTERED_GRADIENT if rank == 3 else (_irfft_grad if inverse else _rfft_grad)(rank)
    op = defop(name, inputs=("input", "fft_length"), kernel=_real_kernel(rank, inverse),
               infer=_real_rule(name, rank, inverse), grad=grad)
    op.jax = _jax_real(rank, inverse)
    return op


def real_transform(x, fft_length, rank, inverse):
    """Binds RFFT (real -> complex) or IRFFT (complex -> real) of this rank; `fft_length` an int32
    tensor."""
    if inverse:
        attrs = {"Treal": REAL_OF[x.dtype], "Tcomplex": x.dtype}
    else:
        attrs = {"Treal": x.dtype, "Tcomplex": COMPLEX_OF[x.dtype]}
    return bind(REAL_OPS[(rank, inverse)], (x, fft_length), attrs)


# --- JAX lowerings (jit_compile=True, codegen/xla.py); fft_length is known at trace time ---


def _jax_complex(rank, inverse):
    def lower(x, Tcomplex=None):
        fft = jnp.module().fft
        return (fft.ifftn if inverse else fft.fftn)(x, axes=_axes(rank)).astype(x.dtype)
    return lower


def _jax_real(rank, inverse):
    def lower(x, fft_length, Treal=None, Tcomplex=None):
        n = tuple(int(v) for v in np.ravel(fft_length))
        fft = jnp.module().fft
        out = (fft.irfftn if inverse else fft.rfftn)(x, s=n, axes=_axes(rank))
        return out.astype((Treal if inverse else Tcomplex).np_dtype)
    return lower


FFT = _complex_op("FFT", 1, False)
IFFT = _complex_op("IFFT", 1, True)
FFT2D = _complex_op("FFT2D", 2, False)
IFFT2D = _complex_op("IFFT2D", 2, True)
FFT3D = _complex_op("FFT3D", 3, False)
IFFT3D = _complex_op("IFFT3D", 3, True)
COMPLEX_OPS = {(1, False): FFT, (1, True): IFFT, (2, False): FFT2D, (2, True): IFFT2D,
               (3, False): FFT3D, (3, True): IFFT3D}

RFFT = _real_op("RFFT", 1, False)
IRFFT = _real_op("IRFFT", 1, True)
RFFT2D = _real_op("RFFT2D", 2, False)
IRFFT2D = _real_op("IRFFT2D", 2, True)
RFFT3D = _real_op("RFFT3D", 3, False)
IRFFT3D = _real_op("IRFFT3D", 3, True)
REAL_OPS = {(1, False): RFFT, (1, True): IRFFT, (2, False): RFFT2D, (2, True): IRFFT2D,
            (3, False): RFFT3D, (3, True): IRFFT3D}

