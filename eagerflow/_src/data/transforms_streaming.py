"""filter, flat_map, interleave, window, scan: transformations whose i-th element cannot be
computed from i alone, so each is a stream (its elements yielded in order by `_stream()`; inside a
traced function that Python runs at run time, stream.py).

filter's predicate and scan's function are traced once over the element spec (their output is
checked when the dataset is built, as TensorFlow does). flat_map's and interleave's functions
return datasets, so they are called per element with the element's eager values."""
from __future__ import annotations

import os

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError
from ..core.tensor import Tensor
from .dataset import Dataset
from .functions import call_with_element, output_spec, trace
from .structure import UNKNOWN, is_static, normalize, spec_of


def _positive(value, what):
    n = int(value.numpy()) if isinstance(value, Tensor) else int(value)
    if n <= 0:
        raise InvalidArgumentError(None, None, f"{what} must be greater than zero.")
    return n


def _predicate(predicate, spec, words="must return a `tf.bool` scalar tensor, but its return type is "):
    fn = trace(predicate, spec, call_with_element, name="predicate")
    out = output_spec(fn)
    if nest.is_nested(out, expand_composites=True) or out.dtype != _dt.bool_ or out.shape.rank != 0:
        raise ValueError(f"Invalid `predicate`. `predicate` {words}{out}.")
    return fn


class FilterDataset(Dataset):
    """The input's elements for which `predicate` is true."""
    _name = "_FilterDataset"
    _indexable = False

    def __init__(self, parent, predicate):
        self._parent, self._spec, self._size = parent, parent.element_spec, UNKNOWN
        self._fn = _predicate(predicate, parent.element_spec)

    def _stream(self):
        for element in self._parent._elements():
            if bool(self._fn(*nest.flatten(element, expand_composites=True))):
                yield element


class TakeWhileDataset(Dataset):
    """The input's elements up to the first for which `predicate` is false."""
    _name = "_TakeWhileDataset"
    _indexable = False

    def __init__(self, parent, predicate):
        self._parent, self._spec, self._size = parent, parent.element_spec, UNKNOWN
        # NOTE: TensorFlow's take_while message has no space before the spec ("type isTensorSpec").
        self._fn = _predicate(predicate, parent.element_spec,
                              "must return a `tf.bool` scalar tensor but its return type is")

    def _stream(self):
        for element in self._parent._elements():
            if not bool(self._fn(*nest.flatten(element, expand_composites=True))):
                return
            yield element


class UniqueDataset(Dataset):
    """Each distinct element once, in order of first appearance (int32, int64 or string elements)."""
    _name = "_UniqueDataset"
    _indexable = False

    def __init__(self, parent):
        from .composite_elements import has_composites
        spec = parent.element_spec
        if has_composites(spec):
            raise InvalidArgumentError(None, None, "UniqueDataset only supports inputs with a single `tf.int32`, "
                                                   "`tf.int64`, or `tf.string` component.")
        if nest.is_nested(spec, expand_composites=True) or spec.dtype not in (_dt.int32, _dt.int64, _dt.string):
            shown = f"<dtype: '{spec.dtype.name}'>" if not nest.is_nested(spec, expand_composites=True) else str(spec)
            raise TypeError(f"`tf.data.Dataset.unique` does not support type {shown} -- only `tf.int32`, `tf.int64`, "
                            "and `tf.string` are supported.")
        self._parent, self._spec, self._size = parent, spec, UNKNOWN

    def _stream(self):
        seen = set()
        for element in self._parent._elements():
            value = np.asarray(element.numpy())
            key = (value.shape, tuple(value.ravel().tolist()))
            if key not in seen:
                seen.add(key)
                yield element


def _dataset_returned(func, element):
    out = call_with_element(func, element)
    if not isinstance(out, Dataset):
        raise TypeError(f"The function passed to `flat_map`/`interleave` must return a `tf.data.Dataset` "
                        f"object, but it returned {type(out).__name__}.")
    return out


class FlatMapDataset(Dataset):
    """The elements of map_func(element), one input element after the other."""
    _name = "_FlatMapDataset"
    _indexable = False

    def __init__(self, parent, map_func):
        from ..autograph.api import converted
        self._parent, self._fn = parent, converted(map_func)
        self._spec = _first_spec(self, parent)
        self._size = UNKNOWN

    def _stream(self):
        for element in self._parent._elements():
            yield from _dataset_returned(self._fn, element)._elements()


def _first_spec(ds, parent):
    """The element spec of the datasets map_func returns, found as TensorFlow does: by calling it
    once on symbolic inputs of the input's spec, in a throwaway trace (window elements, which are
    datasets, are passed as empty datasets of their spec)."""
    from ..trace.function import function
    from .structure import DatasetSpec
    spec = parent.element_spec
    flat = nest.flatten(spec, expand_composites=True)
    if any(isinstance(s, DatasetSpec) for s in flat):
        probe = nest.map_structure(lambda s: s._probe() if isinstance(s, DatasetSpec) else s, spec,
                                   expand_composites=True)
        return _dataset_returned(ds._fn, probe).element_spec
    found = []

    def probe(*values):
        nested = nest.is_nested(spec, expand_composites=True)
        element = nest.pack_sequence_as(spec, list(values), expand_composites=True) if nested else values[0]
        found.append(_dataset_returned(ds._fn, element).element_spec)
        return ()

    function(probe, autograph=False, name="map_func").get_concrete_function(*flat)
    return found[0]


class InterleaveDataset(Dataset):
    """TensorFlow's deterministic interleave: `cycle_length` datasets open at once, `block_length`
    consecutive elements taken from each in turn; an exhausted one is replaced by the dataset of
    the next input element, in its slot. cycle_length None (AUTOTUNE) is the number of CPU cores,
    as in TensorFlow."""
    _name = "_InterleaveDataset"
    _indexable = False

    def __init__(self, parent, map_func, cycle_length, block_length):
        from ..autograph.api import converted
        self._parent, self._fn = parent, converted(map_func)
        self._cycle = (os.cpu_count() or 1) if cycle_length in (None, -1) else _positive(cycle_length, "cycle_length")
        self._block = 1 if block_length is None else _positive(block_length, "block_length")
        self._spec = _first_spec(self, parent)
        self._size = UNKNOWN

    def _stream(self):
        inputs = self._parent._elements()
        slots = [None] * self._cycle
        open_count, exhausted, index, taken = 0, False, 0, 0
        end = object()
        while not exhausted or open_count:
            if slots[index] is not None:
                value = next(slots[index], end)
                if value is not end:
                    yield value
                    taken += 1
                    if taken == self._block:
                        index, taken = (index + 1) % self._cycle, 0
                    continue
                slots[index] = None
                open_count -= 1
                index, taken = (index + 1) % self._cycle, 0
            elif not exhausted:
                element = next(inputs, end)
                if element is end:
                    exhausted = True
                else:
                    slots[index] = _dataset_returned(self._fn, element)._elements()
                    open_count += 1
            else:
                index, taken = (index + 1) % self._cycle, 0


class WindowDataset(Dataset):
    """Elements are windows: datasets of `size` input elements (a structure of datasets, one per
    component), starting every `shift` elements, taking every `stride`-th."""
    _name = "_WindowDataset"
    _indexable = False

    def __init__(self, parent, size, shift, stride, drop_remainder):
        from .structure import DatasetSpec
        self._parent = parent
        self._n = _positive(size, "Window size")
        self._shift = self._n if shift is None else _positive(shift, "Window shift")
        self._stride = _positive(stride, "Window stride")
        self._drop = bool(drop_remainder)
        self._spec = nest.map_structure(lambda s: DatasetSpec(s), parent.element_spec, expand_composites=True)
        n = parent._size
        if not is_static(n) or n < 0:
            self._size = n if is_static(n) else UNKNOWN
        elif self._drop:
            span = (self._n - 1) * self._stride + 1
            self._size = 0 if n < span else (n - span) // self._shift + 1
        else:
            self._size = (n + self._shift - 1) // self._shift

    def _stream(self):
        from .composite_elements import stack_with_spec
        span = (self._n - 1) * self._stride + 1
        spec = self._parent.element_spec

        def stack_elements(rows):  # RaggedTensor/SparseTensor rows too (a window is their batch, re-sliced)
            return stack_with_spec(spec, rows)
        pending = []  # input elements from the current window's start on
        for element in self._parent._elements():
            pending.append(element)
            if len(pending) == span:
                yield self._window(pending[::self._stride], stack_elements)
                pending = pending[self._shift:]
        while pending and not self._drop:
            yield self._window(pending[::self._stride], stack_elements)
            pending = pending[self._shift:]

    def _window(self, rows, stack):
        stacked = stack(rows)
        return nest.map_structure(_window_of, stacked)


def _window_of(rows):
    from .tensor_sources import _TensorSliceDataset
    window = _TensorSliceDataset(rows)
    window._name = "_VariantDataset"  # TensorFlow's repr of a window
    return window


class ScanDataset(Dataset):
    """scan_func(state, element) -> (new_state, output): the outputs, the state carried along."""
    _name = "_ScanDataset"
    _indexable = False

    def __init__(self, parent, initial_state, scan_func):
        from .reduce import fixed_state_function
        self._parent, self._size = parent, parent._size
        self._initial = normalize(initial_state)

        def call(fn, inputs):
            out = fn(*inputs)
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                returned = nest.map_structure(_spec_or, out, expand_composites=True)
                raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting of new state and "
                                f"the output value but its return type is {returned}.")
            return tuple(out)

        self._fn, _ = fixed_state_function(
            scan_func, self._initial, parent.element_spec, call, "scan_func", split=lambda out: out[0],
            dtype_message="Invalid `scan_func`. The element types for the new state must match the initial state. "
                          "Expected {}, got {}.")
        self._spec = output_spec(self._fn)[1]

    def _stream(self):
        state = self._initial
        for element in self._parent._elements():
            state, out = self._fn(*nest.flatten(state, expand_composites=True),
                                  *nest.flatten(element, expand_composites=True))
            yield out


def _spec_or(value):
    return spec_of(value) if isinstance(value, Tensor) else value

