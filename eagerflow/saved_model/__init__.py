"""`tf.saved_model`: save an object's traced functions, signatures and variables; load them back
without the code that defined them. Saving writes TensorFlow's SavedModel layout (saved_model.pb,
variables/, fingerprint.pb, assets/; tf_format/) beside eagerflow's own document
(docs/savedmodel-format.md), which eagerflow's loader reads."""
from .asset import Asset, contains_saved_model
from .constants import *  # noqa: F401,F403 - TensorFlow's tf.saved_model constants
from .constants import __all__ as _CONSTANTS
from .load import load
from .load_options import LoadOptions
from .save import save
from .save_options import SaveOptions

__all__ = ["save", "load", "LoadOptions", "SaveOptions", "Asset", "contains_saved_model", *_CONSTANTS]
