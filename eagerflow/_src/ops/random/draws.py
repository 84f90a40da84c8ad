"""Random ops (`tf.random`) with TensorFlow's global-seed / op-seed rules.

TensorFlow's rules, restated (bit-exact numbers are not a goal; the reproducibility contract is):
- neither a global seed (`set_seed`) nor an op `seed`: fresh randomness on every call;
- a global seed only: each random call takes the next op seed from a sequence that `set_seed`
  restarts, so a program's random values repeat exactly when it runs again after `set_seed`;
- an op seed only: the global seed defaults to a fixed constant (reproducible across runs);
- both: the pair names one random stream. Calling the same op again with the same pair
  continues that stream (TensorFlow keeps one kernel per pair); `set_seed` restarts it.

Each op is stateful: its kernel draws from a NumPy Generator looked up by (op type, seed, seed2),
so a traced graph (where seed and seed2 are attributes fixed at trace time) also continues its
stream on each run. The global seed and the op-seed sequence live in core/context.py (process-wide,
locked); the table of live streams is locked here, so concurrent draws of one seeded op share one
stream (each call gets the next values) instead of racing to create two.
Random ops have no gradient; `normal` and `uniform` are built as `standard * scale + offset` so
gradients still reach a tensor `mean` or `stddev`.
"""
from __future__ import annotations

import collections
import threading
import zlib

import numpy as np

from ...core import dtypes as _dt
from ...core.context import random_seeds, state
from ...core.convert import convert_to_tensor
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_int_tensor, as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop, static_value
from ..lazy_jax import ON_HOST

DEFAULT_GRAPH_SEED = 87654321  # TensorFlow's global seed when only an op seed is given
_MAXINT32 = 2 ** 31 - 1
_MAX_STREAMS = 4096  # seeded streams kept alive; the oldest are dropped beyond this


class _Streams:
    """The live seeded streams: (op type, seed, seed2) -> NumPy Generator, oldest dropped first."""

    def __init__(self):
        self._lock = threading.Lock()
        self._by_key: collections.OrderedDict = collections.OrderedDict()
        self._unseeded = None

    @property
    def unseeded(self) -> np.random.Generator:
        """The stream of unseeded draws, made on the first one: `numpy.random` costs several ms to
        import, so `import eagerflow` leaves it for the first random op. NumPy's Generator locks
        its own bit generator, so concurrent unseeded draws are safe."""
        if self._unseeded is None:
            with self._lock:
                if self._unseeded is None:
                    self._unseeded = np.random.default_rng()
        return self._unseeded

    def restart(self, reseed) -> None:
        """Drops every stream and calls `reseed()` in one step: no draw between the two can make a
        stream under the new seeds that the clearing then restarts."""
        with self._lock:
            reseed()
            self._by_key.clear()

    def get(self, op_name, seed, seed2) -> np.random.Generator:
        key = (op_name, seed, seed2)
        with self._lock:
            gen = self._by_key.get(key)
            if gen is None:
                entropy = [seed & 0xFFFFFFFFFFFF, seed2 & 0xFFFFFFFFFFFF, zlib.crc32(op_name.encode())]
                gen = np.random.default_rng(np.random.SeedSequence(entropy))
                self._by_key[key] = gen
                if len(self._by_key) > _MAX_STREAMS:
                    self._by_key.popitem(last=False)
            else:
                self._by_key.move_to_end(key)
            return gen


_streams = _Streams()


def set_seed(seed):
    """`tf.random.set_seed`: sets the global seed and restarts every seeded random sequence."""
    _streams.restart(lambda: random_seeds.reset(seed))


def get_seed(op_seed):
    """(seed, seed2) attributes for a random op, from the global seed and the op's own seed.
    (0, 0) means "not seeded": the kernel then draws fresh randomness."""
    global_seed, op_seed = random_seeds.pair(op_seed, _MAXINT32)
    if global_seed is None and op_seed is None:
        return 0, 0
    if global_seed is None:
        global_seed = DEFAULT_GRAPH_SEED
    seeds = (int(global_seed), int(op_seed))
    # (0, 0) is reserved for "unseeded", so a user's explicit zeros must map elsewhere.
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _generator(op_name, seed, seed2) -> np.random.Generator:
    if seed == 0 and seed2 == 0:
        return _streams.unseeded
    return _streams.get(op_name, seed, seed2)


def _dims(shape_array):
    dims = tuple(int(d) for d in np.ravel(shape_array))
    for i, d in enumerate(dims):
        if d < 0:
            raise InvalidArgumentError(None, None, f"Dimension {d} must be >= 0")
    return dims


def check_shape_input(op_name, inputs, index=0):
    """A random op's `shape` input: an int32 or int64 tensor (TensorFlow's attr T), refused otherwise
    in its eager and graph-mode words."""
    R.check_dtype_in(op_name, inputs[index].dtype, (_dt.int32, _dt.int64), "shape", attr="T")


def _shape_from_input(shape_tensor) -> TensorShape:
    """The static output shape; a negative size is unknown here, for the kernel to refuse (a graph's
    shape function lets it through, and the kernel's refusal is TensorFlow's eager one)."""
    value = static_value(shape_tensor)
    if value is not None:
        return TensorShape([int(d) if d >= 0 else None for d in np.ravel(value)])
    producer = getattr(shape_tensor, "op", None) if getattr(shape_tensor, "is_symbolic", False) else None
    if producer is not None and producer.type == "Shape":  # tf.shape(x): x's known dims carry over
        return producer.inputs[0].shape
    n = shape_tensor.shape[0] if shape_tensor.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


def _sampler(op_name, draw, half_open=False):
    """Kernel and shape rule for a float distribution. NumPy draws float32/float64 natively;
    other float types are drawn in float32 and rounded."""
    def kernel(shape, dtype, seed=0, seed2=0):
        gen = _generator(op_name, seed, seed2)
        native = dtype.np_dtype if dtype in (_dt.float32, _dt.float64) else np.float32
        values = draw(gen, _dims(shape), native).astype(dtype.np_dtype, copy=False)
        if half_open and native is np.float32 and dtype is not _dt.float32:
            # [0, 1) must stay half-open after rounding to a narrow float type (float16 can reach 1)
            values = np.minimum(values, np.nextafter(np.array(1, values.dtype), np.array(0, values.dtype)))
        return values

    def infer(inputs, attrs):
        check_shape_input(op_name, inputs)
        R.check_dtype_in(op_name, attrs["dtype"], R.FLOATS + (_dt.bfloat16,), "shape")
        return [Spec(_shape_from_input(inputs[0]), attrs["dtype"])]
    return kernel, infer


def _truncated(gen, dims, dtype):
    """Standard normal values beyond two standard deviations are drawn again."""
    values = gen.standard_normal(dims, dtype=dtype)
    bad = np.abs(values) > 2
    while bad.any():
        values[bad] = gen.standard_normal(int(bad.sum()), dtype=dtype)
        bad = np.abs(values) > 2
    return values


def _sampling_op(op_name, draw, half_open=False):
    kernel, infer = _sampler(op_name, draw, half_open)
    return defop(op_name, inputs=("shape",), kernel=kernel, infer=infer, grad=NO_GRADIENT, stateful=True)


RandomStandardNormal = _sampling_op("RandomStandardNormal", lambda gen, dims, dt: gen.standard_normal(dims, dtype=dt))
RandomUniform = _sampling_op("RandomUniform", lambda gen, dims, dt: gen.random(dims, dtype=dt), half_open=True)
TruncatedNormal = _sampling_op("TruncatedNormal", _truncated)


def _uniform_int_kernel(shape, minval, maxval, seed=0, seed2=0):
    lo, hi = minval.item(), maxval.item()
    if lo >= hi:
        raise InvalidArgumentError(None, None, f"Need minval < maxval, got {lo} >= {hi}")
    gen = _generator("RandomUniformInt", seed, seed2)
    return gen.integers(lo, hi, size=_dims(shape), dtype=minval.dtype)


def _uniform_int_infer(inputs, attrs):
    shape, lo, hi = inputs
    check_shape_input("RandomUniformInt", inputs)
    R.check_same_dtype("RandomUniformInt", (lo, hi))
    R.check_dtype_in("RandomUniformInt", lo.dtype, (_dt.int32, _dt.int64), "minval")
    if lo.shape.rank not in (None, 0) or hi.shape.rank not in (None, 0):
        raise InvalidArgumentError(None, None, f"minval must be 0-D, got shape {R.fmt_dims(lo.shape)}"
                                   if lo.shape.rank else f"maxval must be 0-D, got shape {R.fmt_dims(hi.shape)}")
    return [Spec(_shape_from_input(shape), lo.dtype)]


RandomUniformInt = defop("RandomUniformInt", inputs=("shape", "minval", "maxval"), kernel=_uniform_int_kernel,
                         infer=_uniform_int_infer, grad=NO_GRADIENT, stateful=True)


def _shuffle_kernel(value, seed=0, seed2=0):
    if value.ndim == 0:
        return value.copy()
    gen = _generator("RandomShuffle", seed, seed2)
    return value[gen.permutation(value.shape[0])]


RandomShuffle = defop("RandomShuffle", inputs=("value",), kernel=_shuffle_kernel, infer=R.unary(),
                      grad=NO_GRADIENT, stateful=True)


def _multinomial_kernel(logits, num_samples, seed=0, seed2=0, output_dtype=_dt.int64):
    if logits.ndim != 2:
        raise InvalidArgumentError(None, None, f"logits should be a matrix, got shape {list(logits.shape)}")
    n = int(num_samples)
    if n < 0:
        raise InvalidArgumentError(None, None, f"num_samples should be non-negative, got {n}")
    batch, classes = logits.shape
    if classes == 0 and batch and n:
        raise InvalidArgumentError(None, None, "num_classes should be positive, got 0")
    gen = _generator("Multinomial", seed, seed2)
    x = logits.astype(np.float64)
    x = np.exp(x - np.max(x, axis=1, keepdims=True))  # -inf logits get probability 0
    cdf = np.cumsum(x, axis=1)
    cdf /= cdf[:, -1:]
    u = gen.random((batch, n))
    picks = np.empty((batch, n), dtype=np.int64)
    for b in range(batch):  # searchsorted per row: fine for the small batches sampling sees
        picks[b] = np.searchsorted(cdf[b], u[b], side="right")
    return np.minimum(picks, max(classes - 1, 0)).astype(output_dtype.np_dtype)


def _multinomial_infer(inputs, attrs):
    logits, num = inputs
    R.check_dtype_in("Multinomial", logits.dtype, R.REAL_NUMBERS, "logits")
    n = static_value(num)
    if R.graph_shape_check(inputs):  # the graph's shape function's checks; eagerly the kernel's
        if logits.shape.rank is not None and logits.shape.rank != 2:
            raise InvalidArgumentError(None, None, f"Shape must be rank 2 but is rank {logits.shape.rank}")
        if n is not None and int(n) < 0:
            raise InvalidArgumentError(None, None, f"Dimension size, given by scalar input 1, must be non-negative "
                                                   f"but is {int(n)}")
    if n is not None and int(n) < 0:
        n = None  # the kernel refuses it
    batch = logits.shape[0] if logits.shape.rank == 2 else None
    return [Spec(TensorShape([batch, None if n is None else int(n)]), attrs.get("output_dtype", _dt.int64))]


Multinomial = defop("Multinomial", inputs=("logits", "num_samples"), kernel=_multinomial_kernel,
                    infer=_multinomial_infer, grad=NO_GRADIENT, stateful=True)

# ----------------------------------------------------------------------------------------------
# Public functions
# ----------------------------------------------------------------------------------------------


def _seed_attrs(seed, dtype=None):
    s, s2 = get_seed(seed)
    attrs = {"seed": s, "seed2": s2}
    if dtype is not None:
        attrs["dtype"] = dtype
    return attrs


def _is_python_number(value, target):
    return not isinstance(value, Tensor) and np.ndim(value) == 0 and not isinstance(value, np.ndarray) \
        and float(value) == target


def _exact(value, dtype):
    """Python numbers go straight to `dtype` (not through float32 first: stddev=0.1 in float64)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and dtype.is_floating:
        return convert_to_tensor(np.asarray(value, dtype.np_dtype))
    return as_tensor(value, dtype)


def _float_dtype(dtype, mean):
    dtype = _dt.as_dtype(dtype)
    if not dtype.is_floating:  # TensorFlow converts `mean` to the dtype first, and fails there
        if state.graph is not None:
            raise TypeError(f"Expected {dtype.name}, but got {mean!r} of type '{type(mean).__name__}'.")
        raise TypeError(f"Cannot convert {mean!r} to EagerTensor of dtype {dtype.name}")
    return dtype


def _scaled_draw(opdef, shape, mean, stddev, dtype, seed):
    """A standard draw of `opdef`, then `* stddev + mean` (how TensorFlow builds both normals)."""
    dtype = _float_dtype(dtype, mean)
    shape = as_int_tensor(shape)
    mean_t, std_t = _exact(mean, dtype), _exact(stddev, dtype)
    rnd = bind(opdef, (shape,), _seed_attrs(seed, dtype))
    return rnd * std_t + mean_t


def normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """`tf.random.normal`: standard normal samples, then `* stddev + mean`."""
    return _scaled_draw(RandomStandardNormal, shape, mean, stddev, dtype, seed)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dt.float32, seed=None, name=None):
    """`tf.random.truncated_normal`: normal samples redrawn until within two standard deviations."""
    return _scaled_draw(TruncatedNormal, shape, mean, stddev, dtype, seed)


def uniform(shape, minval=0, maxval=None, dtype=_dt.float32, seed=None, name=None):
    """`tf.random.uniform`: floats in [minval, maxval) (maxval defaults to 1); integers need an
    explicit maxval and come from RandomUniformInt."""
    dtype = _dt.as_dtype(dtype)
    if dtype not in R.FLOATS + (_dt.bfloat16, _dt.int32, _dt.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype!r}. Accepted dtypes are (tf.float16, "
                         f"tf.bfloat16, tf.float32, tf.float64, tf.int32, tf.int64).")
    shape = as_int_tensor(shape)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        lo, hi = as_tensor(minval, dtype), as_tensor(maxval, dtype)
        return bind(RandomUniformInt, (shape, lo, hi), _seed_attrs(seed))
    if maxval is None:
        maxval = 1
    rnd = bind(RandomUniform, (shape,), _seed_attrs(seed, dtype))
    if _is_python_number(minval, 0) and _is_python_number(maxval, 1):
        return rnd  # TensorFlow's shortcut: no arithmetic for the default range
    lo, hi = _exact(minval, dtype), _exact(maxval, dtype)
    return rnd * (hi - lo) + lo


def shuffle(value, seed=None, name=None):
    """`tf.random.shuffle`: permutes the first dimension."""
    return bind(RandomShuffle, (as_tensor(value),), _seed_attrs(seed))


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """`tf.random.categorical`: `num_samples` class indices per row of unnormalised log-probabilities."""
    logits = as_tensor(logits)
    dtype = _dt.int64 if dtype is None else _dt.as_dtype(dtype)
    if dtype not in (_dt.int32, _dt.int64):
        raise ValueError(f"Invalid output dtype for categorical: {dtype!r}")
    attrs = _seed_attrs(seed)
    attrs["output_dtype"] = dtype
    return bind(Multinomial, (logits, as_int_tensor(num_samples)), attrs)

# --- Under jit_compile=True (codegen/xla.py) the draws run on the host, from the same streams ---

for _op in (RandomStandardNormal, RandomUniform, TruncatedNormal, RandomUniformInt, RandomShuffle, Multinomial):
    _op.jax = ON_HOST
