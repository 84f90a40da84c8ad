"""`tf.data`: Dataset, Options, the iterator and spec types, and the cardinality / AUTOTUNE constants."""
import types as _types

from ..data.dataset import AUTOTUNE, Dataset  # noqa: F401
from ..data.iterator import OwnedIterator as Iterator  # noqa: F401
from ..data.options import Options  # noqa: F401
from ..data.structure import DatasetSpec  # noqa: F401
from ..data.structure import INFINITE as INFINITE_CARDINALITY  # noqa: F401
from ..data.structure import UNKNOWN as UNKNOWN_CARDINALITY  # noqa: F401
from ..data.text_line import TextLineDataset  # noqa: F401
from ..data.tfrecord import TFRecordDataset  # noqa: F401

experimental = _types.SimpleNamespace(AUTOTUNE=AUTOTUNE, INFINITE_CARDINALITY=INFINITE_CARDINALITY,
                                      UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY)
del _types
