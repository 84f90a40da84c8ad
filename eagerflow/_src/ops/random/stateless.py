"""`tf.random.stateless_*`: random numbers that are a pure function of (shape, seed), TensorFlow's
numbers included (ops/random/philox.py implements the generator and the conversions).

As in TensorFlow, a draw is two ops: StatelessRandomGetKeyCounter turns the seed pair into a Philox
key and counter, and a V2 op (StatelessRandomUniformV2, ...) reads the stream from there; scaling to
[minval, maxval) or to mean/stddev is ordinary arithmetic after it. fold_in and split derive new
seeds from full-range integer draws. Being pure functions of their inputs, none is stateful.
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError, UnimplementedError
from ...core.shape import TensorShape
from . import philox as _philox
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from .draws import _dims, _exact, _shape_from_input
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from ..array import joining as _joining
from ..lazy_jax import ON_HOST

_PHILOX = 1


def _check_seed(seed_shape, graph=False):
    """A seed must be a vector of 2: in the kernel's words, or (`graph`) the graph shape function's."""
    if seed_shape.rank is not None and (seed_shape.rank != 1 or seed_shape[0] not in (None, 2)):
        if graph and seed_shape.rank == 1:
            raise InvalidArgumentError(None, None, f"Dimension must be 2 but is {seed_shape[0]}")
        if graph:
            raise InvalidArgumentError(None, None, f"Shape must be rank 1 but is rank {seed_shape.rank}")
        raise InvalidArgumentError(None, None, f"seed must have shape [2], not {R.fmt_dims(seed_shape)}")


def _get_key_counter_kernel(seed):
    _check_seed(TensorShape(seed.shape))
    key, counter = _philox.key_counter(seed[0], seed[1])
    return _philox.pack_key_counter(key, counter)


def _get_key_counter_infer(inputs, attrs):
    seed = inputs[0]
    R.check_dtype_in("StatelessRandomGetKeyCounter", seed.dtype, (_dt.int32, _dt.int64), "seed", attr="Tseed")
    _check_seed(seed.shape, R.graph_shape_check(inputs))
    return [Spec(TensorShape([1]), _dt.uint64), Spec(TensorShape([2]), _dt.uint64)]


StatelessRandomGetKeyCounter = defop("StatelessRandomGetKeyCounter", inputs=("seed",), multi_output=True,
                                     kernel=_get_key_counter_kernel, infer=_get_key_counter_infer, grad=NO_GRADIENT)


def _stream(key, counter, alg):
    if int(alg) != _PHILOX:
        raise UnimplementedError(None, None, f"eagerflow's stateless random ops implement Philox (alg 1), not alg "
                                             f"{int(alg)}")
    return _philox.unpack_key_counter(key, counter)


def _draw_kernel(draw):
    def kernel(shape, key, counter, alg, dtype=_dt.float32):
        dims = _dims(shape)
        k, c = _stream(key, counter, alg)
        return draw(k, c, int(np.prod(dims, dtype=np.int64)), dtype.np_dtype).reshape(dims)
    return kernel


def _draw_infer(op_name, allowed):
    def infer(inputs, attrs):
        R.check_dtype_in(op_name, attrs["dtype"], allowed, "shape", attr="dtype")
        return [Spec(_shape_from_input(inputs[0]), attrs["dtype"])]
    return infer


def _draw_op(name, draw, allowed):
    return defop(name, inputs=("shape", "key", "counter", "alg"), kernel=_draw_kernel(draw),
                 infer=_draw_infer(name, allowed), grad=NO_GRADIENT)


_INTS = (_dt.int32, _dt.int64, _dt.uint32, _dt.uint64)
StatelessRandomUniformV2 = _draw_op("StatelessRandomUniformV2", _philox.uniform, R.FLOATS)
StatelessRandomNormalV2 = _draw_op("StatelessRandomNormalV2", _philox.normal, R.FLOATS)
StatelessTruncatedNormalV2 = _draw_op("StatelessTruncatedNormalV2", _philox.truncated_normal, R.FLOATS)
StatelessRandomUniformFullIntV2 = _draw_op("StatelessRandomUniformFullIntV2", _philox.uniform_full_int, _INTS)


def _uniform_int_kernel(shape, key, counter, alg, minval, maxval):
    lo, hi = minval.item(), maxval.item()
    if lo >= hi:
        raise InvalidArgumentError(None, None, f"Need minval < maxval, got {lo} >= {hi}")
    dims = _dims(shape)
    k, c = _stream(key, counter, alg)
    return _philox.uniform_int(k, c, int(np.prod(dims, dtype=np.int64)), lo, hi, minval.dtype).reshape(dims)


def _uniform_int_infer(inputs, attrs):
    shape, _, _, _, lo, hi = inputs
    R.check_same_dtype("StatelessRandomUniformIntV2", (lo, hi))
    R.check_dtype_in("StatelessRandomUniformIntV2", lo.dtype, _INTS, "minval", attr="dtype")
    for t, what in ((lo, "minval"), (hi, "maxval")):
        if t.shape.rank not in (None, 0):
            raise InvalidArgumentError(None, None, f"{what} must be 0-D, got shape {R.fmt_dims(t.shape)}")
    return [Spec(_shape_from_input(shape), lo.dtype)]


StatelessRandomUniformIntV2 = defop("StatelessRandomUniformIntV2",
                                    inputs=("shape", "key", "counter", "alg", "minval", "maxval"),
                                    kernel=_uniform_int_kernel, infer=_uniform_int_infer, grad=NO_GRADIENT)


def _multinomial_kernel(logits, num_samples, seed, output_dtype=_dt.int64):
    """TensorFlow's sampler: per row the unnormalised CDF of exp(logit - max) over the finite
    logits, and for each sample the first class whose CDF passes u * total, with u a float64 from
    two words of the seed's stream (rows continue one stream)."""
    n = int(num_samples)
    if logits.ndim != 2:
        dims = ",".join(str(d) for d in logits.shape)
        raise InvalidArgumentError(None, None, f"logits should be a matrix, got shape [{dims}]")
    if n < 0:
        raise InvalidArgumentError(None, None, f"num_samples should be non-negative, got {n}")
    _check_seed(TensorShape(seed.shape))
    key, counter = _philox.key_counter(seed[0], seed[1])
    rows = logits.shape[0]
    bits = _philox.random_bits(key, counter, 2 * rows * n).reshape(rows, n, 2)
    u = _philox.to_float64(bits[..., 0], bits[..., 1])
    out = np.zeros((rows, n), output_dtype.np_dtype)
    for b in range(rows):
        row = logits[b].astype(np.float64)
        finite = np.isfinite(row)
        top = row[finite].max() if finite.any() else np.finfo(np.float64).min
        with np.errstate(over="ignore", invalid="ignore"):
            cdf = np.cumsum(np.where(finite, np.exp(row - top), 0.0))
        out[b] = np.searchsorted(cdf, u[b] * cdf[-1], side="right") if cdf.size else 0
    return out


def _multinomial_infer(inputs, attrs):
    logits, num, seed = inputs
    R.check_dtype_in("StatelessMultinomial", logits.dtype, R.REAL_NUMBERS, "logits")
    if logits.shape.rank is not None and logits.shape.rank != 2:
        raise InvalidArgumentError(None, None, f"logits should be a matrix, got shape {R.fmt_dims(logits.shape)}")
    n = static_value(num)
    if n is not None and int(n) < 0:
        R.refuse(f"num_samples should be non-negative, got {int(n)}",
                 f"Dimension size, given by scalar input 1, must be non-negative but is {int(n)}")
    rows = logits.shape[0] if logits.shape.rank == 2 else None
    return [Spec(TensorShape([rows, None if n is None else int(n)]), attrs["output_dtype"])]


StatelessMultinomial = defop("StatelessMultinomial", inputs=("logits", "num_samples", "seed"),
                             kernel=_multinomial_kernel, infer=_multinomial_infer, grad=NO_GRADIENT)

# ----------------------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------------------


def _alg(alg):
    if alg in (None, "auto_select", "philox", 1, 3) or getattr(alg, "value", None) in (1, 3):
        return _PHILOX
    if alg in ("threefry", 2) or getattr(alg, "value", None) == 2:
        raise UnimplementedError(None, None, "eagerflow's stateless random ops implement Philox only")
    raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are philox for the Philox "
                     f"algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection.")


def _key_counter(seed, alg):
    if seed is None and state.graph is not None:  # TensorFlow's graph-mode conversion of the argument
        raise ValueError("Tried to convert 'seed' to a tensor and failed. Error: None values not supported.")
    seed_t = seed if hasattr(seed, "dtype") and not isinstance(seed, np.ndarray) else as_tensor(seed)
    key, counter = bind(StatelessRandomGetKeyCounter, (seed_t,))
    return key, counter, as_tensor(np.int32(_alg(alg)))


def _float(dtype, what):
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError(f"Cannot convert {what} to EagerTensor of dtype {dtype.name}")
    return dtype


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=_dt.float32, name=None, alg="auto_select"):
    """`tf.random.stateless_random_uniform`: floats in [minval, maxval), integers in [minval, maxval)
    (or over every value when both bounds are None), the same for the same seed."""
    dtype = _dt.as_dtype(dtype)
    shape_t = as_int_tensor(shape)
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype!r}, argument `minval` and `maxval` must be both "
                             f"None or not None. Got `minval`={minval} and `maxval`={maxval}.")
        key, counter, alg_t = _key_counter(seed, alg)
        if minval is None:
            return bind(StatelessRandomUniformFullIntV2, (shape_t, key, counter, alg_t), {"dtype": dtype})
        return bind(StatelessRandomUniformIntV2, (shape_t, key, counter, alg_t, as_tensor(minval, dtype),
                                                  as_tensor(maxval, dtype)))
    if dtype not in R.FLOATS and dtype is not _dt.bfloat16:
        raise ValueError(f"Argument `dtype` got invalid value {dtype!r}. Accepted dtypes are (tf.float16, "
                         f"tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64, tf.uint32, tf.uint64).")
    lo, hi = _exact(0 if minval is None else minval, dtype), _exact(1 if maxval is None else maxval, dtype)
    key, counter, alg_t = _key_counter(seed, alg)
    rnd = bind(StatelessRandomUniformV2, (shape_t, key, counter, alg_t), {"dtype": dtype})
    return rnd * (hi - lo) + lo


def _scaled(opdef, shape, seed, mean, stddev, dtype, alg):
    dtype = _float(dtype, mean)
    mean_t, std_t = _exact(mean, dtype), _exact(stddev, dtype)
    key, counter, alg_t = _key_counter(seed, alg)
    return bind(opdef, (as_int_tensor(shape), key, counter, alg_t), {"dtype": dtype}) * std_t + mean_t


def stateless_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None, alg="auto_select"):
    """`tf.random.stateless_normal`: normal samples (Box-Muller on the Philox stream), * stddev + mean."""
    return _scaled(StatelessRandomNormalV2, shape, seed, mean, stddev, dtype, alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None,
                               alg="auto_select"):
    """`tf.random.stateless_truncated_normal`: normals within two standard deviations."""
    return _scaled(StatelessTruncatedNormalV2, shape, seed, mean, stddev, dtype, alg)


def stateless_categorical(logits, num_samples, seed, dtype=_dt.int64, name=None):
    """`tf.random.stateless_categorical`: `num_samples` class indices per row of unnormalised
    log-probabilities, TensorFlow's numbers for the same seed."""
    dtype = _dt.as_dtype(dtype)
    if dtype not in (_dt.int32, _dt.int64):
        raise ValueError(f"Argument `dtype` got invalid value <dtype: '{dtype.name}'>. Accepted dtypes are "
                         f"(tf.int32, tf.int64).")
    seed_t = seed if hasattr(seed, "dtype") and not isinstance(seed, np.ndarray) else as_tensor(seed)
    return bind(StatelessMultinomial, (as_tensor(logits), as_int_tensor(num_samples), seed_t),
                {"output_dtype": dtype})


def stateless_fold_in(seed, data, alg="auto_select"):
    """`tf.random.fold_in` (`tf.random.experimental.stateless_fold_in`): a new seed [draw, data],
    the draw being one full-range integer of data's dtype from `seed`."""
    data_t = as_tensor(data)
    first = stateless_uniform([], seed, minval=None, maxval=None, dtype=data_t.dtype, alg=alg)
    return _joining.stack([first, data_t])


def stateless_split(seed, num=2, alg="auto_select"):
    """`tf.random.split` (`tf.random.experimental.stateless_split`): `num` new seeds, a [num, 2]
    tensor of full-range integers drawn from `seed`."""
    seed_t = as_tensor(seed)
    return stateless_uniform([num, 2], seed_t, minval=None, maxval=None, dtype=seed_t.dtype, alg=alg)


def create_rng_state(seed, alg):
    """`tf.random.create_rng_state`: the int64 state words a Generator of `alg` starts from
    (3 for Philox, 2 for ThreeFry), the seed split into 64-bit words, low first."""
    name = getattr(alg, "name", alg)
    size = {"philox": 3, 1: 3, "PHILOX": 3, "threefry": 2, 2: 2, "THREEFRY": 2}.get(
        name.lower() if isinstance(name, str) else name)
    if size is None:
        raise ValueError(f"Unsupported algorithm id: {alg}")
    value = int(seed) & ((1 << (64 * size)) - 1)
    words = [(value >> (64 * i)) & ((1 << 64) - 1) for i in range(size)]
    return np.array(words, np.uint64).view(np.int64)


# --- jit_compile=True (codegen/xla.py): the Philox words are NumPy uint64 work, run on the host
# during each compiled call, so a compiled function draws TensorFlow's numbers too. ---

for _op in (StatelessRandomGetKeyCounter, StatelessRandomUniformV2, StatelessRandomNormalV2,
            StatelessTruncatedNormalV2, StatelessRandomUniformFullIntV2, StatelessRandomUniformIntV2,
            StatelessMultinomial):
    _op.jax = ON_HOST
