"""`keras.preprocessing`: the names Keras 3.15 keeps here (the rest moved to keras.utils and keras.layers):
the `image`, `sequence` and `text` modules (the legacy helpers older tutorials use) and the dataset builders."""
from . import image, sequence, text  # noqa: F401
from ..utils.datasets import timeseries_dataset_from_array  # noqa: F401
from ..utils.image_dataset import image_dataset_from_directory  # noqa: F401
from ..utils.text_dataset import text_dataset_from_directory  # noqa: F401
