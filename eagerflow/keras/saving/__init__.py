"""`keras.saving`: .keras model files, weight files, and the registry of names a config may use."""
from .saving_api import (check_weights_path, deserialize_keras_object, load_model, load_weights,  # noqa: F401
                         save_model, save_weights, serialize_keras_object)
from .serialization import (custom_object_scope, get_registered_name,  # noqa: F401
                            get_registered_object, register_keras_serializable)
