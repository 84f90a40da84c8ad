"""`tf.saved_model`: save an object's traced functions, signatures and variables; load them back
without the code that defined them. The format: docs/savedmodel-format.md."""
from .load import load
from .load_options import LoadOptions
from .save import save

__all__ = ["save", "load", "LoadOptions"]
