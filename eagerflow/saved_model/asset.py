"""`tf.saved_model.Asset`: a file a SavedModel carries. Saving copies the file into the model's
`assets/` directory; functions that captured `asset_path` read, after loading, the copy's path (the
SavedModel records the capture as the asset's, not as the original path)."""
from __future__ import annotations

import os

from .._src.core import dtypes as _dt
from .._src.core.convert import convert_to_tensor
from .._src.core.tensor import Tensor


class Asset:
    def __init__(self, path):
        if isinstance(path, Asset):
            path = path.asset_path
        if isinstance(path, Tensor):
            if path.dtype is not _dt.string:
                raise TypeError(f"Cannot convert {path!r} to EagerTensor of dtype string")
            self.asset_path = path
            return
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if not isinstance(path, (str, bytes)):
            raise TypeError(f"Cannot convert {path!r} to EagerTensor of dtype string")
        self.asset_path = convert_to_tensor(path, _dt.string)

    def _path(self) -> str:
        value = self.asset_path.numpy()
        return value.decode() if isinstance(value, bytes) else str(value)

    def __repr__(self):
        return f"<tf.saved_model.Asset {self._path()!r}>"


def contains_saved_model(export_dir) -> bool:
    """Whether `export_dir` holds a SavedModel: TensorFlow's saved_model.pb or .pbtxt, or an older
    eagerflow saved_model.json."""
    from .format import DOCUMENT_NAME
    from .constants import SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT
    export_dir = os.fspath(export_dir)
    return any(os.path.isfile(os.path.join(export_dir, name))
               for name in (SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT, DOCUMENT_NAME))
