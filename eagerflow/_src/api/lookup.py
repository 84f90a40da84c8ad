"""`tf.lookup`: static key -> value tables (ops/lookup/tables.py, ops/lookup/text_file.py)."""
from ..ops.lookup.tables import KeyValueTensorInitializer, StaticHashTable, StaticVocabularyTable  # noqa: F401
from ..ops.lookup.text_file import TextFileIndex, TextFileInitializer  # noqa: F401
from . import lookup_experimental as experimental  # noqa: F401
