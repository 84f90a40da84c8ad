"""A compiled function's large outputs: XLA buffers handed to the user as NumPy views, and
recycled into the next call once the user's tensor is gone.

Why: a fresh output buffer of a few megabytes is fresh memory. When the C allocator has given
the last one back to the kernel (glibc does, for large blocks, depending on the heap's state),
every page of the new one is zero-filled on first touch: 16 MB is about 4,000 page faults, which
cost several times what the GELU chain that fills it costs. Which calls pay that is a lottery of
heap layout (measured with getrusage: 0 or 4,097 faults per call for the same program in two
runs). XLA can write an output into a buffer the caller donates (`donate_argnums`); an old
output whose tensor died is such a buffer, already touched, so a loop `y = f(x)` keeps reusing
two buffers and never faults.

How: an output whose shape the trace fixed and whose size is at least `MIN_BYTES` is handed out
as `np.from_dlpack(array)`: a read-only view that, unlike `np.asarray`, is not cached on the XLA
array, so the view's death is observable. A finalizer on the view puts the XLA array back into
this program's pool (one buffer per output position); every call donates a buffer per large
output: the pooled one, or, when its tensor is still alive, a new one (`device_put` of an
uninitialised array: it costs the page faults XLA's own fresh output would have cost). Always
donating keeps one executable per trace: a call that sometimes donates would compile twice.
While any view of the data lives (slices, `np.asarray(tensor)`, a DLPack export), the buffer is
not recycled: the finalizer fires only when the last of them is gone.

Such a view passed back into a compiled function (`y = f(y)`) goes in as the XLA array it views
(`xla_array_of`), not as a copy: XLA reads it where it is.
"""
from __future__ import annotations

import functools
import weakref

import numpy as np

MIN_BYTES = 1 << 20  # below this an output's fresh pages cost less than the bookkeeping

_VIEWABLE_KINDS = frozenset("biufc")  # NumPy's DLPack import takes these (not bfloat16 & co.)


# id(view) -> (weak reference to the view, the XLA array it views), for the views handed out and
# still alive: an entry leaves when its view dies (in `_give_back`), before its id can be reused.
_ARRAY_OF_VIEW = {}


def xla_array_of(array):
    """The XLA array a recycled output's view shows, or None for any other NumPy array."""
    entry = _ARRAY_OF_VIEW.get(id(array))
    if entry is not None and entry[0]() is array:
        return entry[1]
    return None


def array_viewed(array):
    """The XLA array a NumPy array is the whole view of (what a DeviceTensor's first read made:
    `np.asarray` of an XLA array is a view through a memoryview of it), or None. Passed back into
    a compiled function, the XLA array goes in as it is, without a copy."""
    base = array.base  # a slice, reshape or transpose of that view has the view as its base instead
    if type(base) is memoryview:
        owner = base.obj
        if hasattr(owner, "unsafe_buffer_pointer") and owner.shape == array.shape and owner.dtype == array.dtype \
                and array.flags.c_contiguous:
            return owner
    return None


class OutputRecycler:
    """The pool of one compiled program's large outputs (position -> a dead output's XLA array).
    Held weakly by the finalizers, so a live output does not keep the program alive."""

    __slots__ = ("positions", "_shapes", "_pool", "_put", "__weakref__")

    def __init__(self, outputs, device_put):
        positions, shapes = [], []
        for i, t in enumerate(outputs):
            shape, dtype = t.shape, t.dtype
            if not shape.is_fully_defined():
                continue
            try:
                np_dtype = np.dtype(dtype.as_numpy_dtype)
            except (TypeError, AttributeError):
                continue
            if np_dtype.kind in _VIEWABLE_KINDS and shape.num_elements() * np_dtype.itemsize >= MIN_BYTES:
                positions.append(i)
                shapes.append((tuple(shape.as_list()), np_dtype))
        self.positions = tuple(positions)
        self._shapes = tuple(shapes)
        self._pool = {}
        self._put = device_put

    def donors(self):
        """A buffer per large output for XLA to write it into: a dead output's, else a new one."""
        pool, put = self._pool, self._put
        donors = []
        for i, (shape, dtype) in zip(self.positions, self._shapes):
            array = pool.pop(i, None)
            donors.append(put(np.empty(shape, dtype)) if array is None else array)
        return tuple(donors)

    def handed_out(self, outputs, inputs):
        """The outputs as the call returns them: the large ones as recyclable NumPy views, the
        others as they are (XLA arrays, converted when first read: core/tensor.py's DeviceTensor).
        An output that is an input's buffer (XLA may forward one) or repeats another output is
        never recycled."""
        result = list(outputs)
        seen = {a.unsafe_buffer_pointer() for a in inputs if hasattr(a, "unsafe_buffer_pointer")}
        me = weakref.ref(self)
        for i in self.positions:
            array = outputs[i]
            pointer = array.unsafe_buffer_pointer()
            if pointer in seen:
                result[i] = np.asarray(array)
                continue
            seen.add(pointer)
            view = np.from_dlpack(array)
            view.flags.writeable = False
            weakref.finalize(view, functools.partial(_give_back, me, i, id(view)), array).atexit = False
            _ARRAY_OF_VIEW[id(view)] = (weakref.ref(view), array)
            result[i] = view
        return tuple(result)


def _give_back(recycler_ref, position, view_id, array):
    """A recycled output's last view died: its buffer waits for the next call (one per position;
    a second one is freed)."""
    _ARRAY_OF_VIEW.pop(view_id, None)
    recycler = recycler_ref()
    if recycler is not None:
        recycler._pool.setdefault(position, array)
