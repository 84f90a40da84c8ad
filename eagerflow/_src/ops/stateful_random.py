"""The ops behind `tf.random.Generator`: draws that read and advance a generator's state variable.

State: an int64 [3] variable, TensorFlow's Philox layout (a 128-bit counter in two words, a
64-bit key). Each draw runs NumPy's Philox bit generator from that counter and key and writes the
counter it ends at back, so consecutive draws (eager, or each run of a traced function holding
the generator) never repeat and a generator reset to the same state repeats exactly. The numbers
are NumPy's Philox stream, not TensorFlow's (its kernels' bit layout differs): seeds reproduce
within eagerflow. Op types are TensorFlow's (StatefulStandardNormalV2, ...). Under jit_compile the
same draws run on the host from the executable (the lowerings at the end).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from .registry import NO_GRADIENT, Spec, defop, static_value

PHILOX = 1  # TensorFlow's Algorithm.PHILOX value
_MASK = (1 << 64) - 1


def _bit_generator(holder):
    state = np.asarray(holder._array).astype(np.int64).reshape(-1)
    if state.shape != (3,):
        raise InvalidArgumentError(None, None, f"The size of the state must be 3 for the Philox algorithm, "
                                               f"got {state.size}")
    words = [int(v) & _MASK for v in state]
    return np.random.Philox(counter=np.array([words[0], words[1], 0, 0], np.uint64),
                            key=np.array([words[2], 0], np.uint64))


def as_state(words):
    """Unsigned 64-bit words as the int64 state array (two's complement, as TensorFlow stores them)."""
    return np.array([w - (1 << 64) if w >= 1 << 63 else w for w in words], np.int64)


def _advance(holder, bit_generator):
    """Stores where the draw left the counter: the next draw starts past the values drawn."""
    counter = bit_generator.state["state"]["counter"]
    key = int(bit_generator.state["state"]["key"][0])
    words = [int(counter[0]), int(counter[1]), key]
    if int(counter[2]) or int(counter[3]):  # the 128-bit counter of the state overflowed: wrap it
        words[:2] = [0, 0]
    holder._array = as_state(words)


def _dims(shape):
    dims = [int(d) for d in np.ravel(shape)]
    for d in dims:
        if d < 0:
            raise InvalidArgumentError(None, None, f"Dimension {d} must be >= 0 in shape {dims}")
    return tuple(dims)


def _draw_kernel(draw):
    def kernel(holder, algorithm, shape, *bounds, dtype=_dt.float32):
        if int(algorithm) != PHILOX:
            raise InvalidArgumentError(None, None, f"Unsupported algorithm id: {int(algorithm)}")
        bits = _bit_generator(holder)
        out = draw(np.random.Generator(bits), _dims(shape), dtype.np_dtype, *bounds)
        _advance(holder, bits)
        return np.asarray(out, dtype=dtype.np_dtype)
    return kernel


def _truncated(gen, dims, np_dtype):
    out = gen.standard_normal(dims)
    bad = np.abs(out) > 2
    while bad.any():  # resample outside two standard deviations, as TensorFlow's truncated normal
        out[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2
    return out


def _uniform_int(gen, dims, np_dtype, minval, maxval):
    lo, hi = int(minval), int(maxval)
    if hi <= lo:
        raise InvalidArgumentError(None, None, f"Need minval < maxval: {lo} >= {hi}")
    return gen.integers(lo, hi, size=dims, dtype=np_dtype)


def _full_int(gen, dims, np_dtype):
    info = np.iinfo(np_dtype)
    return gen.integers(info.min, info.max, size=dims, dtype=np_dtype, endpoint=True)


def _infer(inputs, attrs):
    value = static_value(inputs[2])
    shape = TensorShape(None) if value is None else TensorShape([int(d) for d in np.ravel(value)])
    return [Spec(shape, attrs.get("dtype", _dt.float32))]


def _op(name, draw, inputs=("resource", "algorithm", "shape"), doc=""):
    return defop(name, inputs=inputs, kernel=_draw_kernel(draw), infer=_infer, grad=NO_GRADIENT, stateful=True,
                 doc=doc)


StatefulStandardNormalV2 = _op("StatefulStandardNormalV2", lambda g, dims, t: g.standard_normal(dims),
                               doc="Standard normal draws from a generator's state (advances it).")
StatefulUniform = _op("StatefulUniform", lambda g, dims, t: g.random(dims),
                      doc="Uniform [0, 1) draws from a generator's state (advances it).")
StatefulTruncatedNormal = _op("StatefulTruncatedNormal", _truncated,
                              doc="Standard normal draws within two standard deviations (advances the state).")
StatefulUniformInt = _op("StatefulUniformInt", _uniform_int, inputs=("resource", "algorithm", "shape", "minval",
                                                                       "maxval"),
                         doc="Integers uniform in [minval, maxval) from a generator's state (advances it).")
StatefulUniformFullInt = _op("StatefulUniformFullInt", _full_int,
                             doc="Integers uniform over the whole dtype from a generator's state (advances it).")

# --- JAX lowerings (jit_compile=True, codegen/xla.py): the same NumPy Philox draw, run on the host
# from the executable (io_callback) on the state the compiled program carries, which gets the
# advanced state back; so compiled and uncompiled draws are the same numbers. The shape must be
# known when compiling. ---


class _StateHolder:
    """What the kernels read and advance: the state array, as a variable holds it."""
    __slots__ = ("_array",)

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
