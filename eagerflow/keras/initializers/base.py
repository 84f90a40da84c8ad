"""The base of every Keras initializer and what the families share: the random generator, the
dtype of a draw, and how a weight shape's fans are counted.

Why NumPy: a layer may be built while a tf.function traces (its first call, or a call on
`keras.Input`s), and a Variable's initial value must be concrete then; NumPy draws stay concrete in
both modes.
"""
from __future__ import annotations

import math

import numpy as np

_rng = None  # made on the first draw: `import eagerflow` does not load numpy.random (start-up time)


def set_random_seed(seed):
    """Reseeds the generator every initializer and Dropout layer draws from (`keras.utils.set_random_seed`)."""
    global _rng
    _rng = np.random.default_rng(seed)
    from ..._src.ops.random.draws import set_seed
    set_seed(seed)


def numpy_dtype(dtype):
    """The NumPy dtype for what an initializer is called with: a tf.DType, a name, or None (float32,
    Keras' floatx). Names go through eagerflow's dtypes, which know bfloat16 (ml_dtypes) where NumPy
    does not."""
    if dtype is None:
        return np.dtype("float32")
    from ..._src.core.dtypes import as_dtype
    return np.dtype(as_dtype(str(getattr(dtype, "name", dtype))).np_dtype)


def rng_for(seed):
    """A seeded initializer draws the same values on every call (Keras 3 with an int seed); an
    unseeded one draws from the generator `set_random_seed` restarts."""
    global _rng
    if seed is not None:
        return np.random.default_rng(seed)
    if _rng is None:
        _rng = np.random.default_rng()
    return _rng


def compute_fans(shape, input_axes=None, output_axes=None):
    """(fan_in, fan_out) of a weight shape, as Keras 3.15 counts them: the product of the sizes on
    `input_axes` and on `output_axes` when both are given, else by rank (a kernel's last two axes
    times its receptive field)."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return math.prod(shape[a] for a in input_axes), math.prod(shape[a] for a in output_axes)
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class Initializer:
    """`init(shape, dtype=None)` gives the starting value of a weight; `get_config`/`from_config`
    round-trip its arguments."""

    def __call__(self, shape, dtype=None):
        raise NotImplementedError("Initializer subclasses must implement the `__call__()` method.")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def clone(self):
        return type(self).from_config(self.get_config())
