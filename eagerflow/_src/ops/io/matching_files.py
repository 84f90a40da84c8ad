"""MatchingFiles: `tf.io.matching_files`, the sorted paths that one or more glob patterns match (`*`, `?`,
`[...]`, within one directory level as TensorFlow's patterns). It reads directory listings, so it
declares the "files" effect: no pass runs it before the program runs, and a loaded model holds it only
when the caller allowed file access (saved_model/load_safety.py)."""
from __future__ import annotations

import glob
import os

import numpy as np

from ...core import dtypes as _dt
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import FILES, NO_GRADIENT, Spec, bind, defop


def _kernel(pattern):
    found = set()
    for item in np.ravel(pattern):
        text = item.decode("utf-8") if isinstance(item, bytes) else str(item)
        found.update(glob.glob(text) if os.path.dirname(text) else glob.glob(os.path.join(".", text)))
    return np.array([p.encode("utf-8") for p in sorted(found)], dtype=object).reshape(-1)


def _infer(inputs, attrs):
    R.check_input_dtype("MatchingFiles", inputs, 0, _dt.string)
    rank = inputs[0].shape.rank
    if rank is not None and rank > 1:
        raise ValueError(f"Shape must be at most rank 1 but is rank {rank}")
    return [Spec(TensorShape([None]), _dt.string)]


MatchingFiles = defop("MatchingFiles", inputs=("pattern",), kernel=_kernel, infer=_infer, grad=NO_GRADIENT,
                      doc="The sorted paths matching a glob pattern (or a vector of them).")
MatchingFiles.effects = FILES


def matching_files(pattern, name=None):
    """`tf.io.matching_files`: a string vector of the sorted matches."""
    return bind(MatchingFiles, [as_tensor(pattern, _dt.string)], name=name)
