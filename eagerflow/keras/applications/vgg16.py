"""`keras.applications.vgg16`."""
from .vgg import VGG16, decode_predictions, preprocess_input  # noqa: F401
