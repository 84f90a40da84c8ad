"""`keras.initializers` (also `tf.initializers` and `tf.keras.initializers`): the classes, the
lower-case names Keras 3 exports for the same classes (`keras.initializers.zeros is Zeros`), and
`get`, which turns a name, a config dict, a class or any callable into what a layer calls as
`init(shape, dtype)`."""
from __future__ import annotations

from .base import Initializer, compute_fans, set_random_seed  # noqa: F401 (set_random_seed: keras.utils)
from .constant import STFT, Constant, Identity, Ones, Zeros
from .random import (GlorotNormal, GlorotUniform, HeNormal, HeUniform, LecunNormal, LecunUniform, Orthogonal,
                     RandomNormal, RandomUniform, TruncatedNormal, VarianceScaling)

IdentityInitializer = Identity
OrthogonalInitializer = Orthogonal
STFTInitializer = STFT

constant = Constant
zeros = Zeros
ones = Ones
identity = Identity
stft = STFT
random_normal = RandomNormal
random_uniform = RandomUniform
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling
orthogonal = Orthogonal
glorot_normal = GlorotNormal
glorot_uniform = GlorotUniform
he_normal = HeNormal
he_uniform = HeUniform
lecun_normal = LecunNormal
lecun_uniform = LecunUniform

_CLASSES = (Initializer, Constant, Zeros, Ones, Identity, STFT, RandomNormal, RandomUniform, TruncatedNormal,
            VarianceScaling, Orthogonal, GlorotNormal, GlorotUniform, HeNormal, HeUniform, LecunNormal, LecunUniform)
_ALIASES = {"IdentityInitializer": Identity, "OrthogonalInitializer": Orthogonal, "STFTInitializer": STFT,
            "constant": Constant, "zeros": Zeros, "ones": Ones, "identity": Identity, "stft": STFT,
            "random_normal": RandomNormal, "random_uniform": RandomUniform, "truncated_normal": TruncatedNormal,
            "variance_scaling": VarianceScaling, "orthogonal": Orthogonal, "glorot_normal": GlorotNormal,
            "glorot_uniform": GlorotUniform, "he_normal": HeNormal, "he_uniform": HeUniform,
            "lecun_normal": LecunNormal, "lecun_uniform": LecunUniform,
            "uniform": RandomUniform, "normal": RandomNormal, "one": Ones, "zero": Zeros}
# every name a config or a string may use: the class names, then Keras' lower-case and short aliases
MODULE_OBJECTS = {**{cls.__name__: cls for cls in _CLASSES}, **_ALIASES}


def serialize(initializer):
    """Keras 3's config dict; a user function as Keras' function dict (its registered name)."""
    from ..saving.object_config import serialize_keras_object
    return serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """An initializer from Keras 3's config dict (a function's dict finds it by its registered name)."""
    from ..saving.object_config import deserialize_keras_object
    if isinstance(config, str):
        return get(config)
    return deserialize_keras_object(config, custom_objects, module_objects=MODULE_OBJECTS)


def get(identifier):
    """None stays None; a name or config dict gives an instance; a class is instantiated with its
    defaults; any other callable (an instance, a TensorFlow initializer, a user function
    `fn(shape, dtype=None)`) is used as given."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        found = deserialize(identifier)
    elif isinstance(identifier, str):
        found = MODULE_OBJECTS.get(identifier)
        if found is None:
            from ..saving.serialization import get_registered_object
            found = get_registered_object(identifier)
    else:
        found = identifier
    if callable(found):
        return found() if isinstance(found, type) else found
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")
