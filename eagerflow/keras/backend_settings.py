"""`tf.keras.backend`'s settings (floatx, epsilon, image data format), its name counter (`get_uid`)
and the one way the backend functions reach the tf surface (`_tf()`, inside each call: keras/ sits
below `import eagerflow` in the layering)."""
from __future__ import annotations

from .naming import clear_session as _clear_session

_SETTINGS = {"floatx": "float32", "epsilon": 1e-7, "image_data_format": "channels_last"}


def _tf():
    import eagerflow as tf
    return tf


# --- settings -----------------------------------------------------------------------------------

def backend():
    return "tensorflow"


def floatx():
    """The default float type of Keras' weights and casts ('float32')."""
    return _SETTINGS["floatx"]


def set_floatx(value):
    if value not in ("bfloat16", "float16", "float32", "float64"):
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {{'bfloat16', 'float16', 'float32', "
                         f"'float64'}}")
    _SETTINGS["floatx"] = str(value)


def epsilon():
    """The fuzz factor Keras adds to divisions and clips probabilities with (1e-7)."""
    return _SETTINGS["epsilon"]


def set_epsilon(value):
    _SETTINGS["epsilon"] = float(value)


def image_data_format():
    return _SETTINGS["image_data_format"]


def set_image_data_format(data_format):
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', 'channels_last'}}. "
                         f"Received: data_format={data_format}")
    _SETTINGS["image_data_format"] = str(data_format)


def clear_session(free_memory=True):
    _clear_session()


_UIDS: dict = {}


def get_uid(prefix=""):
    """1, 2, ... per prefix: Keras' counter for unique names."""
    _UIDS[prefix] = _UIDS.get(prefix, 0) + 1
    return _UIDS[prefix]
