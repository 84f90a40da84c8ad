"""UnicodeScript (`tf.strings.unicode_script`): the script of each code point, as ICU numbers it (0 Common,
1 Inherited, 25 Latin, 8 Cyrillic, 17 Han, 103 Unknown, ...), and -1 for an integer that is no code point.
The table (script_table.py) is read once, on first use, into run starts for a binary search."""
from __future__ import annotations

import functools

import numpy as np

from ...core import dtypes as _dt
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import NO_GRADIENT, Spec, bind, defop


@functools.lru_cache(maxsize=1)
def _runs():
    from .script_table import RUNS
    gaps, codes = zip(*(entry.split(":") for entry in RUNS.split()))
    return np.cumsum([int(g, 16) for g in gaps]), np.array([int(c) for c in codes], np.int32)


def _kernel(input):  # noqa: A002 - TensorFlow's name
    points = np.asarray(input)
    starts, codes = _runs()
    inside = (points >= 0) & (points <= 0x10FFFF)
    found = codes[np.searchsorted(starts, np.where(inside, points, 0), side="right") - 1]
    return np.where(inside, found, -1).astype(np.int32)


def _infer(inputs, attrs):
    R.check_input_dtype("UnicodeScript", inputs, 0, _dt.int32)
    return [Spec(inputs[0].shape, _dt.int32)]


UnicodeScript = defop("UnicodeScript", inputs=("input",), kernel=_kernel, infer=_infer, grad=NO_GRADIENT,
                      doc="The ICU script code of each code point (-1 outside Unicode).")


def unicode_script(input, name=None):  # noqa: A002 - TensorFlow's name
    """`tf.strings.unicode_script`: int32 script codes, the input's shape."""
    return bind(UnicodeScript, (as_tensor(input, _dt.int32),), name=name)
