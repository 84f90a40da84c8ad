"""`keras.applications.vgg19`."""
from .vgg import VGG19, decode_predictions, preprocess_input  # noqa: F401
