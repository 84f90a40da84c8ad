"""`keras.models`."""
from .model import Functional, Model  # noqa: F401
from .sequential import Sequential  # noqa: F401
from ..saving import load_model, save_model  # noqa: F401,E402
from .cloning import clone_model, model_from_json  # noqa: F401,E402
