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
The run's values are compared as Python integers, so a counter that wraps around is no
progression and stays carried; computed modulo 2**bits, start + k * step is each value exactly.
"""
from __future__ import annotations

import numpy as np

from .xla_run import value_of


class _Progression:
    """One loop variable's values, iteration by iteration, while they keep a constant step (as
    Python integers: a run that wraps around breaks the progression, and the variable stays
    carried)."""
    __slots__ = ("dtype", "start", "step", "final", "broken")

    def __init__(self, value):
        self.dtype, self.start, self.step, self.final, self.broken = value.dtype, int(value), None, None, False

    def see(self, value, next_value):
        """The variable entering an iteration and the body's value for it leaving the iteration."""
        if not (_counter_like(value) and _counter_like(next_value) and value.dtype == next_value.dtype == self.dtype):
            self.broken = True
            return
        value, next_value = int(value), int(next_value)
        if self.final is not None and value != self.final:  # past the first: what the last one left
            self.broken = True
            return
        if self.step is None:
            self.step = next_value - value
        elif next_value - value != self.step:
            self.broken = True
            return
        self.final = next_value


def _counter_like(value):
    return isinstance(value, (np.ndarray, np.generic)) and value.shape == () and value.dtype.kind in "iu"


class Counters:
    """Watches a static trip count's run of a loop body (`watch`), then gives the scan its carry
    without the counters (`carried`) and the loop variables back from the carry and the step
    number (`loop`)."""

    def __init__(self, body, init):
        self._body = body
        self._n = len(init)
        self._seen = None  # position -> _Progression, from the first iteration on
        self._init = init
        self.found = {}  # position -> (start, step, final) as arrays of the variable's dtype: after `settle`

    def watch(self, env):
        """static_trip_count's per-iteration hook: env holds the body's values known at trace time."""
        body = self._body
        if self._seen is None:
            self._seen = {}
            for i, ph in enumerate(body.explicit[:self._n]):
                v = env.get(id(ph))
                if v is not None and _counter_like(np.asarray(v)):
                    self._seen[i] = _Progression(np.asarray(v))
        program = body.program
        for i, p in self._seen.items():
            if p.broken:
                continue
            try:
                leaving = value_of(program, env, program.outputs[i])
            except KeyError:
                p.broken = True
                continue
            p.see(np.asarray(env[id(body.explicit[i])]), np.asarray(leaving))

    def settle(self, trips):
        """Keeps the progressions that held for all `trips` iterations (at least one)."""
        if not trips or self._seen is None:
            return {}
        self.found = {i: tuple(np.asarray(v).astype(p.dtype) for v in (p.start, p.step, p.final))
                      for i, p in self._seen.items()
                      if not p.broken and p.step is not None and _same(self._init[i], p.start, p.dtype)}
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
                out.append(jnp.asarray(start) + k.astype(start.dtype) * jnp.asarray(step))
            else:
                out.append(next(it))
        return tuple(out)

    def final(self, carried):
        """The loop's results: the carried values, and each counter's known last value."""
        it = iter(carried)
        return [self.found[i][2] if i in self.found else next(it) for i in range(self._n)]


def _same(init, start, dtype):
    """The loop entered with the value the run started from (a known array equal to it)."""
    return isinstance(init, (np.ndarray, np.generic)) and init.dtype == dtype and int(init) == start
