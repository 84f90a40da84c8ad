"""`keras.utils`: data helpers (arrays, PyDataset, tf.data builders), the serialization registry,
and the Keras-tensor helpers, as Keras 3.15 in TensorFlow 2.21 has them."""
from ..initializers import set_random_seed  # noqa: F401
from ..naming import clear_session  # noqa: F401
from ..progbar import Progbar  # noqa: F401
from ..saving.serialization import (custom_object_scope, get_registered_name, get_registered_object,  # noqa: F401
                             register_keras_serializable)
from .arrays import normalize, pad_sequences, to_categorical  # noqa: F401
from .datasets import split_dataset, timeseries_dataset_from_array  # noqa: F401
from .packing import (deserialize_keras_object, get_source_inputs, is_keras_tensor,  # noqa: F401
                      pack_x_y_sample_weight, serialize_keras_object, unpack_x_y_sample_weight)
from .py_dataset import PyDataset, Sequence  # noqa: F401
from .audio_dataset import audio_dataset_from_directory  # noqa: F401
from .image_dataset import image_dataset_from_directory  # noqa: F401
from .file_utils import get_file  # noqa: F401
from .image_utils import array_to_img, img_to_array, load_img, save_img  # noqa: F401
from .text_dataset import text_dataset_from_directory  # noqa: F401

CustomObjectScope = custom_object_scope


def get_custom_objects():
    """The global name -> object table that loading consults (registered classes land here)."""
    from ..saving.serialization import _REGISTERED
    return _REGISTERED
from .feature_space import FeatureSpace  # noqa: F401,E402


def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False, show_layer_names=False, rankdir="TB",
               expand_nested=False, dpi=200, show_layer_activations=False, show_trainable=False, **kwargs):
    """Draws the model's layers into `to_file` (.png, .svg, .pdf, .jpg, .dot): see keras/utils/model_plot.py."""
    from .model_plot import plot_model as draw  # on first use: most programs never draw
    return draw(model, to_file, show_shapes=show_shapes, show_dtype=show_dtype, show_layer_names=show_layer_names,
                rankdir=rankdir, expand_nested=expand_nested, dpi=dpi, show_layer_activations=show_layer_activations,
                show_trainable=show_trainable, **kwargs)


def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True, rankdir="TB", expand_nested=False,
                 dpi=200, subgraph=False, show_layer_activations=False, show_trainable=False, **kwargs):
    """The model's layer drawing as DOT text (`.to_string()`): see keras/utils/model_plot.py."""
    from .model_plot import model_to_dot as to_dot
    return to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype, show_layer_names=show_layer_names,
                  rankdir=rankdir, expand_nested=expand_nested, dpi=dpi, subgraph=subgraph,
                  show_layer_activations=show_layer_activations, show_trainable=show_trainable, **kwargs)
