"""`keras.initializers`: starting values for weights, drawn in NumPy.

Why NumPy and not tf.random: a layer may be built while a tf.function traces (its first call), and a
Variable's initial value must be concrete then; drawing with NumPy keeps it so in both modes.
Formulas follow Keras 3: GlorotUniform draws U(-l, l) with l = sqrt(6 / (fan_in + fan_out)), where
for a conv kernel (kh, kw, cin, cout) the fans are kh*kw*cin and kh*kw*cout.
"""
from __future__ import annotations

import math

import numpy as np

_rng = None  # made on the first draw: `import eagerflow` does not load numpy.random (start-up time)


def set_random_seed(seed):
    """Reseeds the generator every initializer and Dropout layer draws from (`keras.utils.set_random_seed`)."""
    global _rng
    _rng = np.random.default_rng(seed)
    from .._src.ops.random.draws import set_seed
    set_seed(seed)


def _numpy_dtype(dtype):
    """The NumPy dtype for what an initializer is called with: a tf.DType or a name ('float32')."""
    return np.dtype(str(getattr(dtype, "name", dtype)))


def _rng_for(seed):
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
    def __call__(self, shape, dtype="float32"):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def __call__(self, shape, dtype="float32"):
        return np.full(tuple(shape), self.value, dtype=_numpy_dtype(dtype))

    def get_config(self):
        return {"value": self.value}


class Zeros(Constant):
    def __init__(self):
        super().__init__(0.0)

    def get_config(self):
        return {}


class Ones(Constant):
    def __init__(self):
        super().__init__(1.0)

    def get_config(self):
        return {}


class RandomUniform(Initializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def get_config(self):
        return {"seed": self.seed, "minval": self.minval, "maxval": self.maxval}

    def __call__(self, shape, dtype="float32"):
        draw = _rng_for(self.seed).uniform(self.minval, self.maxval, size=tuple(shape))
        return draw.astype(_numpy_dtype(dtype))


class RandomNormal(Initializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def get_config(self):
        return {"seed": self.seed, "mean": self.mean, "stddev": self.stddev}

    def __call__(self, shape, dtype="float32"):
        draw = _rng_for(self.seed).normal(self.mean, self.stddev, size=tuple(shape))
        return draw.astype(_numpy_dtype(dtype))


class VarianceScaling(Initializer):
    """Keras' family: scale / fan (fan_in, fan_out or their mean), uniform or truncated normal."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None, input_axes=None,
                 output_axes=None):
        self.scale, self.mode, self.distribution, self.seed = scale, mode, distribution, seed
        self.input_axes, self.output_axes = input_axes, output_axes  # the fans' axes (compute_fans)

    def get_config(self):
        axes = {"input_axes": self.input_axes, "output_axes": self.output_axes}
        if type(self) is not VarianceScaling:  # Glorot/He/LeCun: only the seed and the axes are arguments
            return {"seed": self.seed, **axes}
        return {"seed": self.seed, "scale": self.scale, "mode": self.mode, "distribution": self.distribution, **axes}

    def __call__(self, shape, dtype="float32"):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        fan = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        scale = self.scale / max(1.0, fan)
        rng = _rng_for(self.seed)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * scale)
            draw = rng.uniform(-limit, limit, size=tuple(shape))
        else:
            stddev = math.sqrt(scale) / 0.87962566103423978  # std of a unit normal truncated at 2 sigma
            draw = rng.normal(0.0, stddev, size=tuple(shape))
            bad = np.abs(draw) > 2 * stddev
            while bad.any():
                draw[bad] = rng.normal(0.0, stddev, size=int(bad.sum()))
                bad = np.abs(draw) > 2 * stddev
        return draw.astype(_numpy_dtype(dtype))


class Orthogonal(Initializer):
    """A (scaled) random orthogonal matrix: the Q of a QR decomposition of a normal draw, sign-fixed."""

    def __init__(self, gain=1.0, seed=None):
        self.gain, self.seed = gain, seed

    def get_config(self):
        return {"seed": self.seed, "gain": self.gain}

    def __call__(self, shape, dtype="float32"):
        shape = tuple(shape)
        rows, cols = int(np.prod(shape[:-1])), shape[-1]
        a = _rng_for(self.seed).normal(size=(max(rows, cols), min(rows, cols)))
        q, r = np.linalg.qr(a)
        q *= np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return (self.gain * q[:rows, :cols]).reshape(shape).astype(_numpy_dtype(dtype))


class GlorotUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "uniform", seed, input_axes, output_axes)


class GlorotNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_avg", "truncated_normal", seed, input_axes, output_axes)


class HeUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "uniform", seed, input_axes, output_axes)


class HeNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(2.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


class LecunUniform(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "uniform", seed, input_axes, output_axes)


class LecunNormal(VarianceScaling):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        super().__init__(1.0, "fan_in", "truncated_normal", seed, input_axes, output_axes)


_BY_NAME = {"zeros": Zeros, "ones": Ones, "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
            "he_uniform": HeUniform, "he_normal": HeNormal, "lecun_uniform": LecunUniform,
            "lecun_normal": LecunNormal, "variance_scaling": VarianceScaling, "random_uniform": RandomUniform,
            "random_normal": RandomNormal, "constant": Constant, "orthogonal": Orthogonal}


_CLASSES = {c.__name__: c for c in (Constant, Zeros, Ones, RandomUniform, RandomNormal, VarianceScaling, Orthogonal,
                                    GlorotUniform, GlorotNormal, HeUniform, HeNormal, LecunUniform, LecunNormal)}


def serialize(initializer):
    from .saving.serialization import serialize_keras_object
    return serialize_keras_object(initializer, "keras.initializers")


def deserialize(config, custom_objects=None):
    from .saving.serialization import deserialize_keras_object
    return deserialize_keras_object(config, _CLASSES, custom_objects, "initializer")


def get(identifier):
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if identifier is None or isinstance(identifier, Initializer) or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower()) or _BY_NAME.get(
            __import__("re").sub(r"(?<!^)(?=[A-Z])", "_", identifier).lower())
        if cls is not None:
            return cls()
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")
