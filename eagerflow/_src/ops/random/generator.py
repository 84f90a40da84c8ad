"""The ops behind `tf.random.Generator`: draws that read and advance a generator's state variable.

State: an int64 [3] variable, TensorFlow's Philox layout (a 128-bit counter in two words, a
64-bit key). Each draw is TensorFlow's: Philox-4x32-10 under that key from that counter, with the
same conversions as the stateless ops (ops/random/philox.py), so `Generator.from_seed(1).uniform([3])`
gives TensorFlow's numbers. Like TensorFlow's kernel, a draw of n values then moves the counter
on by 256 * n (room for rejection sampling whatever the distribution), so consecutive draws
(eager, or each run of a traced function holding the generator) never overlap, and a generator
reset to the same state repeats exactly. Op types are TensorFlow's (StatefulStandardNormalV2, ...).
Under jit_compile the same draws run on the host from the executable (the lowerings at the end).
"""
from __future__ import annotations

import numpy as np

from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.update_locks import locked_update
from . import philox as _philox
from ..registry import NO_GRADIENT, Spec, defop, static_value

PHILOX = 1  # TensorFlow's Algorithm.PHILOX value
_MASK = (1 << 64) - 1
_SAMPLES_RESERVED_PER_OUTPUT = 256  # TensorFlow's counter step per value drawn


def _state_words(holder):
    state = np.asarray(holder._array).astype(np.int64).reshape(-1)
    if state.shape != (3,):
        raise InvalidArgumentError(None, None, f"The size of the state must be 3 for the Philox algorithm, "
                                               f"got {state.size}")
    return [int(v) & _MASK for v in state]


def _key_counter(words):
    """Philox's key (2 x 32 bits) and counter (4 x 32 bits) from the state words."""
    c0, c1, key = words
    return (key & 0xFFFFFFFF, key >> 32), (c0 & 0xFFFFFFFF, c0 >> 32, c1 & 0xFFFFFFFF, c1 >> 32)


def as_state(words):
    """Unsigned 64-bit words as the int64 state array (two's complement, as TensorFlow stores them)."""
    return np.array([w - (1 << 64) if w >= 1 << 63 else w for w in words], np.int64)


def _advance(holder, words, count):
    """The counter moved on past the draw (128-bit, wrapping), the key kept."""
    counter = ((words[0] | words[1] << 64) + count * _SAMPLES_RESERVED_PER_OUTPUT) & ((1 << 128) - 1)
    holder._array = as_state([counter & _MASK, counter >> 64, words[2]])


def _dims(shape):
    dims = [int(d) for d in np.ravel(shape)]
    for d in dims:
        if d < 0:
            raise InvalidArgumentError(None, None, f"Dimension {d} must be >= 0 in shape {dims}")
    return tuple(dims)


def _draw_kernel(draw):
    @locked_update  # two threads drawing from one generator get different numbers, as in TensorFlow
    def kernel(holder, algorithm, shape, *bounds, dtype=_dt.float32):
        if int(algorithm) != PHILOX:
            raise InvalidArgumentError(None, None, f"Unsupported algorithm id: {int(algorithm)}")
        words = _state_words(holder)
        dims = _dims(shape)
        count = int(np.prod(dims, dtype=np.int64))
        key, counter = _key_counter(words)
        out = draw(key, counter, count, dtype.np_dtype, *bounds) if count else np.zeros(0, dtype.np_dtype)
        _advance(holder, words, count)
        return np.asarray(out, dtype=dtype.np_dtype).reshape(dims)
    return kernel


def _uniform_int(key, counter, count, np_dtype, minval, maxval):
    lo, hi = int(minval), int(maxval)
    if hi <= lo:
        raise InvalidArgumentError(None, None, f"Need minval < maxval: {lo} >= {hi}")
    return _philox.uniform_int(key, counter, count, lo, hi, np_dtype)


def _infer(inputs, attrs):
    value = static_value(inputs[2])
    shape = TensorShape(None) if value is None else TensorShape([int(d) for d in np.ravel(value)])
    return [Spec(shape, attrs.get("dtype", _dt.float32))]


def _op(name, draw, inputs=("resource", "algorithm", "shape"), doc=""):
    return defop(name, inputs=inputs, kernel=_draw_kernel(draw), infer=_infer, grad=NO_GRADIENT, stateful=True,
                 doc=doc)


StatefulStandardNormalV2 = _op("StatefulStandardNormalV2", _philox.normal,
                               doc="Standard normal draws from a generator's state (advances it).")
StatefulUniform = _op("StatefulUniform", _philox.uniform,
                      doc="Uniform [0, 1) draws from a generator's state (advances it).")
StatefulTruncatedNormal = _op("StatefulTruncatedNormal", _philox.truncated_normal,
                              doc="Standard normal draws within two standard deviations (advances the state).")
StatefulUniformInt = _op("StatefulUniformInt", _uniform_int, inputs=("resource", "algorithm", "shape", "minval",
                                                                       "maxval"),
                         doc="Integers uniform in [minval, maxval) from a generator's state (advances it).")
StatefulUniformFullInt = _op("StatefulUniformFullInt", _philox.uniform_full_int,
                             doc="Integers uniform over the whole dtype from a generator's state (advances it).")

# --- JAX lowerings (jit_compile=True, codegen/xla.py): the same Philox draw, run on the host
# from the executable (io_callback) on the state the compiled program carries, which gets the
# advanced state back; so compiled and uncompiled draws are the same numbers. The shape must be
# known when compiling. ---


class _StateHolder:
    """What the kernels read and advance: the state array, as a variable holds it."""
    __slots__ = ("_array", "_update_lock")

    def __init__(self, array):
        self._array = array


def _host_lowering(opdef):
    def lower(state, algorithm, shape, *bounds, dtype=_dt.float32):
        import jax
        from jax.experimental import io_callback
        dims = _dims(shape)
        specs = (jax.ShapeDtypeStruct(dims, dtype.np_dtype), jax.ShapeDtypeStruct((3,), np.int64))

        def on_host(state_value, *bound_values):
            holder = _StateHolder(np.asarray(state_value))
            out = opdef.kernel(holder, np.asarray(algorithm), dims, *[np.asarray(b) for b in bound_values],
                               dtype=dtype)
            return out, np.asarray(holder._array, np.int64)
        out, new_state = io_callback(on_host, specs, state, *bounds, ordered=True)
        return [out], {0: new_state}
    lower.updates_variables = True
    return lower


for _opdef in (StatefulStandardNormalV2, StatefulUniform, StatefulTruncatedNormal, StatefulUniformInt,
               StatefulUniformFullInt):
    _opdef.jax = _host_lowering(_opdef)
