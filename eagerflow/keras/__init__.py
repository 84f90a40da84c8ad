"""`tf.keras` / `from eagerflow import keras`: the Keras 3 subset the seed programs use, built on
tf.Module, tf.Variable, the ops and tf.function. TensorFlow 2.21's Keras is the reference for names,
defaults, weight paths, summary() and fit()'s output."""
from . import activations, initializers, layers, models  # noqa: F401
from .layers import Input, Layer  # noqa: F401
from .models import Model, Sequential  # noqa: F401
from .naming import clear_session as _clear_session


class backend:  # noqa: N801 - Keras' module name; only what the seed programs use
    clear_session = staticmethod(_clear_session)


def _to_categorical(x, num_classes=None):
    """One-hot float32 rows for integer class labels (`keras.utils.to_categorical`)."""
    import numpy as np
    x = np.asarray(x, dtype=np.int64)
    if x.ndim > 1 and x.shape[-1] == 1:
        x = x[..., 0]
    n = int(x.max()) + 1 if num_classes is None else int(num_classes)
    return np.eye(n, dtype=np.float32)[x]


class utils:  # noqa: N801
    set_random_seed = staticmethod(initializers.set_random_seed)
    to_categorical = staticmethod(_to_categorical)
    # tf.keras (TF 2.21) has no `keras.saving`: its programs reach the name registry through keras.utils
    from .serialization import custom_object_scope, get_registered_name, get_registered_object  # noqa: E402
    from .serialization import register_keras_serializable  # noqa: E402
    custom_object_scope = staticmethod(custom_object_scope)
    get_registered_name = staticmethod(get_registered_name)
    get_registered_object = staticmethod(get_registered_object)
    register_keras_serializable = staticmethod(register_keras_serializable)

    @staticmethod
    def get_custom_objects():
        """The global name -> object table that loading consults (registered classes land here)."""
        from .serialization import _REGISTERED
        return _REGISTERED
from . import constraints, losses, metrics, optimizers, regularizers  # noqa: F401,E402
from . import callbacks, saving  # noqa: F401,E402
from . import datasets  # noqa: F401,E402
