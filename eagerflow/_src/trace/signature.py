"""Call arguments -> a hashable trace key, plus the flat list of tensors the graph takes.

The rules themselves are stated once, in trace/cache.py's docstring; this file is how they are
computed. Building the key is on the cached-call hot path, so `key_of` is one recursive walk that
tests the common types first (an EagerTensor, a Python number) by exact type.

Key parts, so that readers of keys (relax, accepts, the retrace explanations) agree on them:
  (TENSOR, dtype, shape)             a tensor or NumPy value; shape None = unknown rank
  (LITERAL, value)                   a Python bool/int/float/str/None, equal as Python compares them
  (VARIABLE, dtype, shape, trainable) the first occurrence of a Variable in this call
  (ALIAS, i)                         the same Variable again: it is tensor number i of this call
  (tuple|list|namedtuple type, (parts...))
  (dict, ((key, part), ...))         any Mapping, keys sorted by str
  (DATASET, class, parts)            a tf.data pipeline whose run-time parts are inputs (datasets.py)
  (ITERATOR, element spec part)      a tf.data iterator, fed as its resource handle (data/iterator.py)
  (COMPOSITE, spec type, (TENSOR, dtype, shape))  a composite (SparseTensor) or its spec: keyed by the
                                     spec's static shape and dtype, fed its component tensors (composite/)
  (OBJECT, ObjectKey)                any other hashable object, by its __hash__ and __eq__
"""
from __future__ import annotations

import math
import weakref
from collections.abc import Mapping

import numpy as np

from ..core import dtypes as _dt
from ..core.shape import TensorShape
from ..core.tensor import DeviceTensor, EagerTensor, Tensor, make_eager

TENSOR = "T"
ITERATOR = "I"
SPEC = "S"  # a component of an iterator's element spec (never relaxed: the graph's static shapes)
VARIABLE = "V"
ALIAS = "A"
LITERAL = "L"
COMPOSITE = "C"  # composite/sparse_tensor.py writes the same letter (composite/ does not import trace/)
OBJECT = "O"
_NAN = (LITERAL, "<nan>")  # every NaN keys alike (NaN != NaN would retrace on every call)
_NAN_MARK = object()


class ObjectKey:
    """A hashable argument inside a call key: compares by the object's own __eq__ (same type).

    The key built for a call holds the object strongly (it is in use); `persist` swaps it for a
    WeakObjectKey before the key is stored, so the cache never keeps a user's object alive."""

    __slots__ = ("value", "hash")

    def __init__(self, value, h):
        self.value, self.hash = value, h

    def get(self):
        return self.value

    def __hash__(self):
        return self.hash

    def __eq__(self, other):
        if not isinstance(other, ObjectKey):
            return NotImplemented
        a, b = self.get(), other.get()
        if a is None or b is None:  # a dead weak reference equals nothing
            return False
        if a is b:
            return True
        if type(a) is not type(b):
            return False
        try:
            return bool(a == b)
        except Exception:  # an __eq__ that cannot answer is not equality
            return False

    def __repr__(self):
        return f"<{type(self.get()).__name__} object>"


class WeakObjectKey(ObjectKey):
    """The stored form of an ObjectKey: a weak reference whose callback lets the cache drop
    every trace made for the object once it dies."""

    __slots__ = ("ref",)

    def __init__(self, value, h, on_death):
        super().__init__(None, h)
        self.ref = weakref.ref(value, on_death)

    def get(self):
        return self.ref()


def call_key(args, kwargs, tensors: list) -> tuple:
    """The key of a call with keywords, or of one that get_concrete_function looks up: (positional
    parts, (name, part) per keyword in sorted order); the tensors go to `tensors` in that order."""
    return (tuple([key_of(a, tensors) for a in args]),
            tuple([(k, key_of(kwargs[k], tensors)) for k in sorted(kwargs)]))


def key_of(value, tensors: list):
    """The key part for one argument; appends the tensors it contains to `tensors`."""
    t = type(value)
    if t is EagerTensor:
        tensors.append(value)
        return (TENSOR, value._dtype, value._value.shape)
    if t is float:
        return (LITERAL, value) if value == value else _NAN
    if t is int or t is bool or t is str or value is None:
        return (LITERAL, value)
    if t is tuple or t is list:
        return (t, tuple([key_of(v, tensors) for v in value]))
    if t is dict:
        return (dict, tuple([(k, key_of(value[k], tensors)) for k in sorted(value, key=str)]))
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        tensor = make_eager(arr.copy(), _dt.from_numpy(arr.dtype))
        tensors.append(tensor)
        return (TENSOR, tensor._dtype, arr.shape)
    if isinstance(value, Tensor):  # a symbolic tensor from an enclosing trace
        tensors.append(value)
        return (TENSOR, value.dtype, tuple(value.shape.as_list()) if value.shape.rank is not None else None)
    if isinstance(value, tuple) and hasattr(t, "_fields"):  # namedtuple
        return (t, tuple([key_of(v, tensors) for v in value]))
    if isinstance(value, Mapping):  # TensorFlow keys every Mapping as a dict
        return (dict, tuple([(k, key_of(value[k], tensors)) for k in sorted(value, key=str)]))
    if hasattr(t, "_as_tensor") and not hasattr(t, "_composite_key"):  # a Variable (not an IndexedSlices):
        # keyed by its spec and aliasing, fed as its handle
        handle = value.handle
        for i, seen in enumerate(tensors):
            if seen is handle:
                return (ALIAS, i)
        tensors.append(handle)
        return (VARIABLE, value.dtype, tuple(value.shape.as_list()), value.trainable)
    composite_key = getattr(t, "_composite_key", None)
    if composite_key is not None:  # a SparseTensor (its parts appended) or a SparseTensorSpec
        return composite_key(value, tensors)
    if isinstance(value, float) and math.isnan(value):
        return _NAN
    attributes = getattr(value, "__dict__", ())
    if "_recipe" in attributes:  # a tf.data Dataset: by its pipeline (datasets.py)
        from .datasets import dataset_key
        part = dataset_key(value, tensors)
        if part is not None:
            return part
    argument_handle = getattr(t, "_argument_handle", None)
    if argument_handle is not None:  # a tf.data iterator: by its element spec, fed as its handle
        handle = argument_handle(value)
        if handle is not None:
            tensors.append(handle)
            return (ITERATOR, spec_part(value.element_spec))
    try:
        h = hash(value)
    except TypeError:
        raise TypeError(unhashable_message(value)) from None
    return (OBJECT, ObjectKey(value, h))


def spec_part(spec):
    """An element spec as a key part: (SPEC, dtype, shape) per TensorSpec, in its structure."""
    if isinstance(spec, (tuple, list)):
        return (type(spec), tuple([spec_part(s) for s in spec]))
    if isinstance(spec, Mapping):
        return (dict, tuple([(k, spec_part(spec[k])) for k in sorted(spec, key=str)]))
    shape, dtype = getattr(spec, "shape", None), getattr(spec, "dtype", None)
    if isinstance(shape, TensorShape) and dtype is not None and type(spec).__name__ == "TensorSpec":
        return (SPEC, dtype, None if shape.rank is None else tuple(shape.as_list()))
    return (SPEC, repr(spec))


def fast_key(args):
    """(dtype, shape, dtype, shape, ...) when every argument is an eager tensor, else None: the
    key of Function.__call__'s hot path, which builds the same key inline (one and two arguments
    unrolled, a loop of tuple concatenation otherwise: each measured cheaper than a comprehension,
    which costs a function call; about 0.25 us of the 1 us the call adds to its kernels)."""
    n = len(args)
    if n == 1:
        a = args[0]
        return (a._dtype, a._value.shape) if type(a) is EagerTensor or type(a) is DeviceTensor else None
    if n == 2:
        a, b = args
        if (type(a) is EagerTensor or type(a) is DeviceTensor) and (type(b) is EagerTensor or type(b) is DeviceTensor):
            return (a._dtype, a._value.shape, b._dtype, b._value.shape)
        return None
    key = ()
    for a in args:
        if type(a) is not EagerTensor and type(a) is not DeviceTensor:
            return None
        key += (a._dtype, a._value.shape)
    return key


def unhashable_message(value) -> str:
    """TensorFlow's words for an argument it cannot key, then how to fix it."""
    name = type(value).__name__
    return (f"Could not generate a generic TraceType for {value!r}.Please verify that it is immutable/hashable. "
            f"Otherwise, consider implementing the Tracing Protocol for it. (eagerflow: arguments that are "
            f"not tensors key the trace by value; make {name} hashable: @dataclass(frozen=True), "
            f"@dataclass(eq=False) to compare by identity, or a __hash__; or pass its tensors as arguments.)")


def persist(key, on_death, weak_parts: list):
    """The key to store: every ObjectKey whose object can be weakly referenced becomes a
    WeakObjectKey (collected in `weak_parts`); equal to `key` and with the same hash."""
    t = type(key)
    if t is ObjectKey:
        try:
            weak = WeakObjectKey(key.value, key.hash, on_death)
        except TypeError:  # not weakly referenceable (a frozenset, bytes...): a value, kept
            return key
        weak_parts.append(weak)
        return weak
    if t is tuple:
        return tuple([persist(k, on_death, weak_parts) for k in key])
    return key


def relax(key_a, key_b):
    """The most specific key both keys fit, for `reduce_retracing`; None if their structure differs.
    Tensor shapes become None where they differ."""
    if type(key_a) is not tuple or type(key_b) is not tuple or len(key_a) != len(key_b):
        return None if key_a != key_b else key_a
    if key_a and key_a[0] == TENSOR and key_b and key_b[0] == TENSOR:
        if key_a[1] is not key_b[1]:
            return None
        sa, sb = key_a[2], key_b[2]
        if sa is None or sb is None or len(sa) != len(sb):
            return (TENSOR, key_a[1], None)
        return (TENSOR, key_a[1], tuple(x if x == y else None for x, y in zip(sa, sb)))
    out = []
    for a, b in zip(key_a, key_b):
        if type(a) is tuple and type(b) is tuple:
            r = relax(a, b)
            if r is None:
                return None
            out.append(r)
        elif a == b:
            out.append(a)
        else:
            return None
    return tuple(out)


def accepts(general, key) -> bool:
    """Whether a call with `key` can run a function traced for `general` (None dims match anything)."""
    if type(general) is not tuple or type(key) is not tuple:
        return general == key
    if general and general[0] == TENSOR:
        if not (key and key[0] == TENSOR and general[1] is key[1]):
            return False
        gs, ks = general[2], key[2]
        if gs is None:
            return True
        return ks is not None and len(gs) == len(ks) and all(g is None or g == k for g, k in zip(gs, ks))
    return len(general) == len(key) and all(accepts(g, k) for g, k in zip(general, key))


def has_unknown_dims(key) -> bool:
    """Whether a key has a tensor of unknown rank or with a None dimension."""
    if type(key) is not tuple:
        return False
    if key and key[0] == TENSOR:
        return key[2] is None or any(d is None for d in key[2])
    return any(has_unknown_dims(part) for part in key)


def shape_text(part) -> str:
    """A tensor key part's shape as a user writes it: (2, 3), (None, 3), <unknown>."""
    if part[2] is None:
        return "<unknown rank>"
    return str(tuple(part[2])) if len(part[2]) != 1 else f"({part[2][0]},)"


def tensor_spec_shape(part):
    return TensorShape(None if part[2] is None else list(part[2]))
