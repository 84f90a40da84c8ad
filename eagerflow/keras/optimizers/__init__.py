"""`keras.optimizers`."""
from ..saving import serialization as _serialization
from . import schedules  # noqa: F401
from .base import Optimizer  # noqa: F401
from .adadelta import Adadelta  # noqa: F401
from .adafactor import Adafactor  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .adamw import AdamW  # noqa: F401
from .ftrl import Ftrl  # noqa: F401
from .lamb import Lamb  # noqa: F401
from .lion import Lion  # noqa: F401
from .muon import Muon  # noqa: F401
from .loss_scale_optimizer import LossScaleOptimizer  # noqa: F401
from .nadam import Nadam  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .sgd import SGD  # noqa: F401

_CLASSES = (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, Nadam, Ftrl, Lion, Adafactor, Lamb, Muon,
            LossScaleOptimizer)
_BY_NAME = {c.__name__.lower(): c for c in _CLASSES}


def get(identifier):
    """An optimizer from a name ('adam', 'Nadam'), a config dict, or an Optimizer instance."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


def serialize(optimizer):
    return {"module": "keras.optimizers", "class_name": type(optimizer).__name__, "config": optimizer.get_config(),
            "registered_name": None}


def deserialize(config, custom_objects=None):
    """Keras 3 reads a shipped optimizer's class name in any case ({"class_name": "adam"})."""
    if isinstance(config, dict) and isinstance(config.get("class_name"), str) \
            and config["class_name"].lower() in _BY_NAME and config["class_name"] not in (custom_objects or {}):
        config = dict(config, class_name=_BY_NAME[config["class_name"].lower()].__name__)
    return _serialization.deserialize_keras_object(config, {c.__name__: c for c in _CLASSES}, custom_objects,
                                                   "optimizer")
