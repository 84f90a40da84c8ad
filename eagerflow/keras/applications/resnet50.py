"""`keras.applications.resnet50`: ResNet50 and its preprocessing, also reachable from resnet.py."""
from .resnet import ResNet50, decode_predictions, preprocess_input  # noqa: F401
