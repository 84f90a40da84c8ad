"""`tf.random.gamma` and `tf.random.poisson`: RandomGamma and RandomPoissonV2, seeded like the other
stateful random ops (ops/random/draws.py: TensorFlow's global/op seed rules, NumPy's streams, so a seed
reproduces within eagerflow but not TensorFlow's numbers). Output shape: `shape + alpha.shape`.

RandomGamma is differentiable in alpha by implicit reparameterization, as in TensorFlow: with the
gamma CDF P(alpha, x), d sample / d alpha = -(dP/dalpha) / (dP/dx) at the sample, which is
RandomGammaGrad (it reuses Igamma's dP/dalpha, ops/math/special_inverse.py).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from .draws import _dims, _generator, _seed_attrs, _shape_from_input
from ..registry import NO_GRADIENT, Spec, bind, defop
from ..math.special import _lgamma_kernel
from ..math.special_inverse import _igamma_grad_a_kernel
from ..array import basic as _array
from ..array import joining as _joining
from ..math import elementwise as _math
from ..math import reduce as _reduce
from ..array import sequences as _sequences
from ..array import static_shapes as _static_shapes
from ..lazy_jax import ON_HOST


def _sample_shape(inputs):
    shape = _shape_from_input(inputs[0])
    param = inputs[1].shape
    if shape.rank is None or param.rank is None:
        return TensorShape(None)
    return TensorShape(list(shape) + list(param))


def _gamma_kernel(shape, alpha, seed=0, seed2=0):
    gen = _generator("RandomGamma", seed, seed2)
    dims = _dims(shape) + alpha.shape
    draws = gen.standard_gamma(np.broadcast_to(alpha.astype(np.float64), dims))
    return draws.astype(alpha.dtype, copy=False)


def _gamma_infer(inputs, attrs):
    R.check_dtype_in("RandomGamma", inputs[1].dtype, R.FLOATS, "alpha")
    return [Spec(_sample_shape(inputs), inputs[1].dtype)]


def _gamma_grad(op, g):
    """TensorFlow's rule: RandomGammaGrad at the samples, summed over the sample dimensions."""
    shape, alpha = op.inputs
    n = _array.size(shape)
    alpha_b = _array.reshape(alpha, _joining.concat([_array.ones_like(shape), _array.shape(alpha)], 0))
    partial = bind(RandomGammaGrad, (alpha_b, op.outputs[0]))
    return None, _reduce.reduce_sum(g * partial, _sequences.range(n))


def _gamma_grad_kernel(alpha, sample):
    a64, x64 = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        log_density = -x64 + (a64 - 1) * np.log(x64) - _lgamma_kernel(a64)
        out = -_igamma_grad_a_kernel(a64, x64) / np.exp(log_density)
    return out.astype(sample.dtype, copy=False)


RandomGamma = defop("RandomGamma", inputs=("shape", "alpha"), kernel=_gamma_kernel, infer=_gamma_infer,
                    grad=_gamma_grad, stateful=True)
RandomGammaGrad = defop("RandomGammaGrad", inputs=("alpha", "sample"), kernel=_gamma_grad_kernel,
                        infer=R.binary(R.FLOATS[1:]), grad=NO_GRADIENT)

_POISSON_TYPES = (_dt.float16, _dt.float32, _dt.float64, _dt.int32, _dt.int64)


def _poisson_kernel(shape, rate, seed=0, seed2=0, dtype=_dt.float32):
    gen = _generator("RandomPoissonV2", seed, seed2)
    dims = _dims(shape) + rate.shape
    return gen.poisson(np.broadcast_to(rate.astype(np.float64), dims)).astype(dtype.np_dtype)


def _poisson_infer(inputs, attrs):
    R.check_dtype_in("RandomPoissonV2", inputs[1].dtype, _POISSON_TYPES, "rate", attr="R")
    R.check_dtype_in("RandomPoissonV2", attrs["dtype"], _POISSON_TYPES, "shape", attr="dtype")
    return [Spec(_sample_shape(inputs), attrs["dtype"])]


RandomPoissonV2 = defop("RandomPoissonV2", inputs=("shape", "rate"), kernel=_poisson_kernel, infer=_poisson_infer,
                        grad=NO_GRADIENT, stateful=True)


def gamma(shape, alpha, beta=None, dtype=_dt.float32, seed=None, name=None):
    """`tf.random.gamma`: Gamma(alpha, beta) samples of shape `shape + broadcast(alpha, beta).shape`,
    differentiable in alpha and beta."""
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"Cannot convert {alpha!r} to EagerTensor of dtype {dtype.name}")
    alpha_t = as_tensor(alpha, dtype)
    beta_t = as_tensor(1 if beta is None else beta, dtype)
    if alpha_t.shape.is_fully_defined() and beta_t.shape.is_fully_defined():  # the usual case: a static shape
        target = as_int_tensor(list(np.broadcast_shapes(tuple(alpha_t.shape.as_list()), tuple(beta_t.shape.as_list()))))
    else:
        target = _static_shapes.broadcast_dynamic_shape(_array.shape(alpha_t), _array.shape(beta_t))
    both = _array.broadcast_to(alpha_t, target)
    sample = bind(RandomGamma, (as_int_tensor(shape), both), _seed_attrs(seed))
    return _math.maximum(sample / beta_t, as_tensor(np.finfo(dtype.np_dtype).tiny, dtype))


def poisson(shape, lam, dtype=_dt.float32, seed=None, name=None):
    """`tf.random.poisson`: Poisson(lam) counts of shape `shape + lam.shape`, in `dtype`."""
    attrs = _seed_attrs(seed, _dt.as_dtype(dtype))
    return bind(RandomPoissonV2, (as_int_tensor(shape), as_tensor(lam)), attrs)


# --- jit_compile=True: the draws run on the host from the same streams (as ops/random/draws.py's do) ---

RandomGamma.jax = ON_HOST
RandomPoissonV2.jax = ON_HOST
RandomGammaGrad.jax = ON_HOST
