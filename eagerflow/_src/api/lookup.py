"""`tf.lookup`: static key -> value tables (ops/lookup_tables.py, ops/lookup_text_file.py)."""
from ..ops.lookup_tables import KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable  # noqa: F401
from ..ops.lookup_text_file import TextFileIndex, TextFileInitializer  # noqa: F401
from . import lookup_experimental as experimental  # noqa: F401
