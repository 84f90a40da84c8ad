"""Loop counters of a compiled loop computed from the scan's step number instead of carried.

`for t in tf.range(T)` carries t (an int32, TensorFlow's type) beside the step number lax.scan
keeps for itself (an int64: JAX runs with 64-bit types). XLA merges two induction variables of one
type, start and step into one, but not an int32 and an int64, so the loop would keep two counters:
on CPU each costs its own small kernels in every iteration (a copy, an add), about 0.5 µs an
iteration, a quarter of the T=100 RNN that collects its states in a TensorArray.

The static trip count (codegen/xla_trip_count.py) runs the loop's known variables at trace time;
`Counters` watches that run. A scalar integer loop variable whose values form an arithmetic
progression (start, start + step, ...) is then not carried: the body computes it as
start + k * step in its own dtype from an int64 step number k the scan carries (XLA merges k with
its own counter), and the loop's final value of it is the constant the run ended with.
Wrapping agrees with the carried form: both are the same sums modulo 2**bits.
"""
from __future__ import annotations

import numpy as np

from .xla_run import value_of


class _Progression:
    """One loop variable's values, iteration by iteration, while they keep a constant step."""
    __slots__ = ("start", "step", "final", "broken")

    def __init__(self, value):
        self.start, self.step, self.final = value, None, None
        self.broken = not _counter_like(value)

    def see(self, value, next_value):
        """The variable entering an iteration and the body's value for it leaving the iteration."""
        if self.broken:
            return
        if not (_counter_like(value) and _counter_like(next_value) and value.dtype == self.start.dtype):
            self.broken = True
            return
        if self.final is not None and value != self.final:  # past the first: what the last one left
            self.broken = True
            return
        step = _wrapped(next_value - value, value.dtype)
        if self.step is None:
            self.step = step
        elif step != self.step:
            self.broken = True
            return
        self.final = next_value


def _counter_like(value):
    return isinstance(value, (np.ndarray, np.generic)) and np.shape(value) == () and value.dtype.kind in "iu"


def _wrapped(value, dtype):
    with np.errstate(all="ignore"):
        return np.asarray(value).astype(dtype)


class Counters:
    """Watches a static trip count's run of a loop body (`watch`), then gives the scan its carry
    without the counters (`carried`) and the loop variables back from the carry and the step
    number (`loop`)."""

    def __init__(self, body, init):
        self._body = body
        self._n = len(init)
        self._seen = None  # position -> _Progression, from the first iteration on
        self._init = init
        self.found = {}  # position -> (start, step, final): after `settle`

    def watch(self, env):
        """static_trip_count's per-iteration hook: env holds the body's values known at trace time."""
        program = self._body.program
        entering, leaving = [], []
        for ph, out in zip(self._body.explicit, program.outputs[:self._n]):
            entering.append(env.get(id(ph)))
            try:
                leaving.append(value_of(program, env, out))
            except KeyError:
                leaving.append(None)
        if self._seen is None:
            self._seen = {i: _Progression(np.asarray(v)) for i, v in enumerate(entering)
                          if v is not None and _counter_like(np.asarray(v))}
        for i, p in self._seen.items():
            v, nxt = entering[i], leaving[i]
            p.see(None if v is None else np.asarray(v), None if nxt is None else np.asarray(nxt))

    def settle(self, trips):
        """Keeps the progressions that held for all `trips` iterations (at least one)."""
        if not trips or self._seen is None:
            return {}
        self.found = {i: (p.start, p.step, p.final) for i, p in self._seen.items()
                      if not p.broken and p.step is not None and _same(self._init[i], p.start)}
        return self.found

    def carried(self, values):
        """`values` (one per loop variable) without the counters: what the scan carries."""
        return tuple(v for i, v in enumerate(values) if i not in self.found)

    def loop(self, carried, k):
        """All loop variables at step number `k`: the carried ones and the counters computed."""
        from jax import numpy as jnp
        it = iter(carried)
        out = []
        for i in range(self._n):
            if i in self.found:
                start, step, _ = self.found[i]
                dtype = start.dtype
                out.append(jnp.asarray(start, dtype) + k.astype(dtype) * jnp.asarray(step, dtype))
            else:
                out.append(next(it))
        return tuple(out)

    def final(self, carried):
        """The loop's results: the carried values, and each counter's known last value."""
        it = iter(carried)
        return [self.found[i][2] if i in self.found else next(it) for i in range(self._n)]


def _same(init, start):
    """The loop entered with the value the run started from (a known array equal to it)."""
    return isinstance(init, (np.ndarray, np.generic)) and np.asarray(init).dtype == start.dtype and init == start
