"""`keras.saving`: .keras model files, weight files, and the registry of names a config may use."""
from .saving_api import (check_weights_path, load_model, load_weights, save_model, save_weights,  # noqa: F401
                         serialize_keras_object)
from .serialization import (custom_object_scope, deserialize_keras_object, get_registered_name,  # noqa: F401
                            get_registered_object, register_keras_serializable)
