"""`tf.random.Generator`: a random number generator whose state is a tf.Variable.

Why a variable: the state then lives across calls of a traced function (each run of the graph
advances it, like any variable update) and is saved and restored with the model. Draws are the
ops of ops/random/generator.py. `from_seed(s)` puts s into the state's words as TensorFlow does
(counter = s, key = 0 for a small s), and the draws are TensorFlow's Philox stream
(ops/random/generator.py): a seed gives TensorFlow's numbers.
"""
from __future__ import annotations

import enum
import os
import threading

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..ops.operands import as_int_tensor
from ..ops.registry import bind
from ..ops.random.generator import (PHILOX, as_state, StatefulStandardNormalV2, StatefulTruncatedNormal, StatefulUniform,
                                   StatefulUniformFullInt, StatefulUniformInt)
from .variables import Variable

_MASK = (1 << 64) - 1


class Algorithm(enum.Enum):
    """`tf.random.Algorithm`."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def _algorithm(alg):
    if alg is None or alg in (Algorithm.PHILOX, Algorithm.AUTO_SELECT, PHILOX, 3) or \
            (isinstance(alg, str) and alg.lower() in ("philox", "auto_select")):
        return PHILOX
    if alg in (Algorithm.THREEFRY, 2) or (isinstance(alg, str) and alg.lower() == "threefry"):
        raise NotImplementedError("tf.random.Generator: eagerflow implements the Philox algorithm only")
    raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are philox for the Philox "
                     f"algorithm, threefry for the ThreeFry algorithm, and auto_select for auto-selection.")


def _words(value):
    """A (possibly big) non-negative integer, or a list of them, as three int64 state words."""
    if isinstance(value, (list, tuple, np.ndarray)):
        flat = [int(v) for v in np.ravel(value)]
        value = sum((v & _MASK) << (64 * i) for i, v in enumerate(flat))
    value = int(value)
    if value < 0:
        value &= (1 << 192) - 1
    return as_state([(value >> (64 * i)) & _MASK for i in range(3)])


class Generator:
    """Random numbers from a state variable; see the module docstring."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state, alg = copy_from.state.numpy(), copy_from.algorithm
        if state is None:
            raise ValueError("Generator needs `state` (or use Generator.from_seed / from_non_deterministic_state)")
        self._alg = _algorithm(alg)
        self._state_var = Variable(_words(state) if np.ndim(state) == 0 else np.asarray(state, np.int64),
                                   dtype=_dt.int64, trainable=False, name="StateVar")

    # --- constructors ---
    @classmethod
    def from_seed(cls, seed, alg=None):
        return cls(state=_words(seed), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None):
        return cls(state=_words(int.from_bytes(os.urandom(24), "little")), alg=alg)

    @classmethod
    def from_state(cls, state, alg):
        return cls(state=np.asarray(state, np.int64), alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg):
        return cls(state=np.array([*np.ravel(counter)[:2], np.ravel(key)[0]], np.int64), alg=alg)

    # --- state ---
    @property
    def state(self):
        return self._state_var

    @property
    def algorithm(self):
        return self._alg

    def reset(self, state):
        self._state_var.assign(convert_to_tensor(np.asarray(state, np.int64)))

    def reset_from_seed(self, seed):
        self._state_var.assign(convert_to_tensor(_words(seed)))

    # --- draws ---
    def _draw(self, op, shape, dtype, extra=()):
        alg = convert_to_tensor(np.int64(self._alg))
        return bind(op, (self._state_var.handle, alg, as_int_tensor(shape), *extra), {"dtype": dtype})

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        dtype = _dt.as_dtype(dtype)
        return self._draw(StatefulStandardNormalV2, shape, dtype) * convert_to_tensor(stddev, dtype) + \
            convert_to_tensor(mean, dtype)

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=_dt.float32, name=None):
        dtype = _dt.as_dtype(dtype)
        return self._draw(StatefulTruncatedNormal, shape, dtype) * convert_to_tensor(stddev, dtype) + \
            convert_to_tensor(mean, dtype)

    def uniform(self, shape, minval=0, maxval=None, dtype=_dt.float32, name=None):
        dtype = _dt.as_dtype(dtype)
        if dtype.is_integer:
            if minval is None and maxval is None:
                return self.uniform_full_int(shape, dtype)
            if maxval is None:
                raise ValueError("Must specify maxval for integer dtype %r." % dtype)
            return self._draw(StatefulUniformInt, shape, dtype,
                              (convert_to_tensor(minval, dtype), convert_to_tensor(maxval, dtype)))
        lo = convert_to_tensor(0.0 if minval is None else minval, dtype)
        hi = convert_to_tensor(1.0 if maxval is None else maxval, dtype)
        return self._draw(StatefulUniform, shape, dtype) * (hi - lo) + lo

    def uniform_full_int(self, shape, dtype=_dt.uint64, name=None):
        return self._draw(StatefulUniformFullInt, shape, _dt.as_dtype(dtype))

    def make_seeds(self, count=1):
        """int64 [2, count]: seeds for the stateless random ops; as TensorFlow makes them for Philox,
        `count` random keys over a row of zeros."""
        from ..ops.array.basic import zeros_like
        from ..ops.array.joining import stack
        keys = self.uniform_full_int([count], _dt.int64)
        return stack([keys, zeros_like(keys)])

    def split(self, count=1):
        """`count` new generators, each with a random key from this one's stream (which advances) and
        a zero counter: TensorFlow's state [0, 0, key]."""
        keys = self.uniform_full_int([count], _dt.int64).numpy()
        return [Generator(state=as_state([0, 0, int(k) & _MASK]), alg=self._alg) for k in keys]


_global = []
_global_lock = threading.Lock()


def get_global_generator():
    """The process's generator (made from a non-deterministic state on first use)."""
    with _global_lock:
        if not _global:
            _global.append(Generator.from_non_deterministic_state())
        return _global[0]


def set_global_generator(generator):
    with _global_lock:
        _global[:] = [generator]
