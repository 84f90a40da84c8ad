"""keras.random.SeedGenerator and the rule that turns a `seed=` argument into a stateless seed pair.

Keras 3's contract, restated: an int seed names one fixed draw (the same values on every call); a
SeedGenerator hands out its state and then advances it (state[1] += 1), so successive draws differ
yet a generator made with the same seed repeats the sequence; `seed=None` draws from one process-wide
generator, re-seeded when `keras.utils.set_random_seed` / `tf.random.set_seed` is called (so a program
repeats after it) and seeded afresh otherwise. The state is an int64 variable, so a draw inside a
traced function advances it on every run instead of freezing one value into the graph.
"""
from __future__ import annotations

import random as _pyrandom
import threading

from ..._src.core import dtypes as _dt
from ..._src.core.context import random_seeds
from ..._src.core.convert import convert_to_tensor
from ..naming import unique_name
from ..variables import KerasVariable

_MAX_SEED = 2 ** 31 - 1


class SeedGenerator:
    """A stateful source of stateless seed pairs: `next()` returns the current [seed, counter] and
    advances the counter."""

    def __init__(self, seed=None, name=None, **kwargs):
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        self._initial_seed = seed
        self.name = name or unique_name("seed_generator")
        start = _pyrandom.SystemRandom().randint(1, _MAX_SEED) if seed is None else seed
        self.state = KerasVariable([start, 0], trainable=False, name="seed_generator_state",
                                   path=f"{self.name}/seed_generator_state", dtype=_dt.int64)

    def next(self, ordered=True):
        """The seed pair for one draw; the state moves on by one."""
        current = convert_to_tensor(self.state)
        self.state.assign_add(convert_to_tensor([0, 1], _dt.int64))
        return current

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _GlobalGenerator:
    """The generator behind `seed=None`: made again (from the global seed's op-seed sequence) each time
    that sequence is restarted, so draws repeat after `set_random_seed`."""

    def __init__(self):
        self._lock = threading.Lock()
        self._generator = None
        self._sequence = None

    def get(self):
        with self._lock:
            sequence = random_seeds._op_seeds  # replaced by every set_seed
            if self._generator is None or sequence is not self._sequence:
                _, op_seed = random_seeds.pair(None, _MAX_SEED)
                self._generator = SeedGenerator(op_seed, name="global_seed_generator")
                self._sequence = sequence
            return self._generator


_GLOBAL = _GlobalGenerator()


def draw_seed(seed):
    """The [2] int64 seed tensor of one draw, by Keras 3's rules for `seed=` (module docstring)."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        return _GLOBAL.get().next()
    if isinstance(seed, int) and not isinstance(seed, bool):
        return convert_to_tensor([seed, 0], _dt.int64)
    raise ValueError(f"Argument `seed` must be either an integer or an instance of `SeedGenerator`. Received: "
                     f"seed={seed} (of type {type(seed)})")
