"""General (non-symmetric) eigendecomposition: `tf.linalg.eig` and `tf.linalg.eigvals` (op Eig).

The outputs are complex (complex64 for float32/complex64 input, complex128 for float64/complex128),
eigenvectors as unit-norm columns. The eigenvalues come in LAPACK's order (geev, as TensorFlow's
kernel): not sorted, so tests compare them as sets. The gradient is TensorFlow's EigGrad: for
A = V diag(e) V^-1, A's bar is V^-H (diag(ebar) + F * (V^H Vbar - V^H V diag(re(diag(V^H Vbar)))) V^H,
with F[i, j] = conj(1 / (e[j] - e[i])) off the diagonal; a real input keeps the real part.

XLA has no Eig kernel on CPU (TensorFlow 2.21 refuses it under jit_compile): no JAX lowering.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .solves import _matrix_shape, _run
from ..operands import as_tensor
from ..registry import Spec, defop
from ..shape_rules import check_dtype_in
from ..array import basic as _array
from ..math import complex as _complex
from . import solves as _linalg
from ..math import elementwise as _math
from . import matmul as _matmul
from . import matrix_parts as _parts

_EIG_TYPES = (_dt.float32, _dt.float64, _dt.complex64, _dt.complex128)
_COMPLEX_OF = {_dt.float32: _dt.complex64, _dt.complex64: _dt.complex64,
               _dt.float64: _dt.complex128, _dt.complex128: _dt.complex128}


def _eig_infer(inputs, attrs):
    x = inputs[0]
    check_dtype_in("Eig", x.dtype, _EIG_TYPES, "input")
    s = _matrix_shape("Eig", x)
    out = attrs.get("Tout", _COMPLEX_OF[x.dtype])
    if s.rank is None:
        return [Spec(TensorShape(None), out), Spec(TensorShape(None), out)]
    if not attrs.get("compute_v", True):
        return [Spec(s[:-1], out), Spec(TensorShape([0]), out)]
    return [Spec(s[:-1], out), Spec(s, out)]


def _eig_kernel(x, compute_v=True, Tout=None):  # noqa: N803 - TensorFlow's attribute name
    out = (Tout or _COMPLEX_OF[_dt.as_dtype(x.dtype)]).np_dtype
    if not compute_v:
        return np.linalg.eigvals(x).astype(out), np.zeros(0, out)
    e, v = np.linalg.eig(x)
    return e.astype(out), v.astype(out)


def _eig_grad(op, grad_e, grad_v):
    x = op.inputs[0]
    e = op.outputs[0]
    if op.attrs.get("compute_v", True):
        v = op.outputs[1]
        vh = _linalg.adjoint(v)
        f = _parts.set_diag(_safe_reciprocal(_array.expand_dims(e, -2) - _array.expand_dims(e, -1)),
                            _array.zeros_like(e))
        f = _math.conj(f)
        vgv = _matmul.matmul(vh, grad_v)
        diag_of_real = _parts.diag(_math.cast(_complex.real(_parts.diag_part(vgv)), vgv.dtype))
        mid = _parts.diag(grad_e) + f * (vgv - _matmul.matmul(_matmul.matmul(vh, v), diag_of_real))
    else:
        _, v = eig(x)
        vh = _linalg.adjoint(v)
        mid = _parts.diag(grad_e)
    grad_a = _linalg.solve(vh, _matmul.matmul(mid, vh))
    return grad_a if x.dtype.is_complex else _complex.real(grad_a)


def _safe_reciprocal(x):
    return _math.div_no_nan(_array.ones_like(x), x)


Eig = defop("Eig", inputs=("input",), kernel=_eig_kernel, infer=_eig_infer, grad=_eig_grad, multi_output=True)


def eig(tensor, name=None):
    """`tf.linalg.eig`: (eigenvalues, eigenvectors as columns), both complex."""
    t = as_tensor(tensor)
    e, v = _run(Eig, (t,), {"compute_v": True, "Tout": _COMPLEX_OF.get(t.dtype, _dt.complex64)})
    return e, v


def eigvals(tensor, name=None):
    """`tf.linalg.eigvals`: the (complex) eigenvalues alone."""
    t = as_tensor(tensor)
    return _run(Eig, (t,), {"compute_v": False, "Tout": _COMPLEX_OF.get(t.dtype, _dt.complex64)})[0]


