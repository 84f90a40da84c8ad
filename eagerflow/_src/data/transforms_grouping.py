"""group_by_window, bucket_by_sequence_length, rebatch, choose_from_datasets,
sample_from_datasets and assert_cardinality: streams (elements yielded in order by `_stream()`)
with TensorFlow's semantics, messages and flush order.

group_by_window keeps one window of elements per key; a window that reaches its size goes to
`reduce_func(key, window_dataset)` and that dataset's elements come out; at the end the windows
left are flushed in increasing key order (TensorFlow keeps them in an ordered map).
bucket_by_sequence_length is group_by_window with the bucket as key and (padded_)batch as reduce,
as TensorFlow builds it."""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import FailedPreconditionError, InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor, TensorSpec
from .dataset import Dataset
from .functions import call_with_element, output_spec, trace
from .structure import UNKNOWN


class _ListDataset(Dataset):
    """A window: the elements it was given (eager values of one spec; shapes may differ)."""
    _name = "_VariantDataset"
    _indexable = False

    def __init__(self, elements, spec):
        self._rows, self._spec, self._size = list(elements), spec, len(elements)
        self._recipe = None  # (a tf.function keys it by identity)

    def _stream(self):
        yield from self._rows


def _scalar_int64(concrete, what):
    out = output_spec(concrete)
    if nest.is_nested(out) or out.shape.rank != 0 or out.dtype is not _dt.int64:
        shown = out if nest.is_nested(out) else f"<tf.Tensor '{what}:0' shape={out.shape} dtype={out.dtype.name}>"
        raise ValueError(f"Tensor conversion requested dtype int64 for Tensor with dtype "
                         f"{getattr(out, 'dtype', _dt.int64).name}: {shown}")
    return concrete


def _reduce_spec(reduce_fn, element_spec):
    """The element spec of the datasets reduce_func returns: one call on a symbolic key and an
    empty window, in a throwaway trace (as TensorFlow traces it once)."""
    from ..trace.function import function
    window = _ListDataset([], element_spec)
    found = []

    def probe(key):
        out = reduce_fn(key, window)
        if not isinstance(out, Dataset):
            raise TypeError(f"`reduce_func` must return a `tf.data.Dataset` object, but it returned "
                            f"{type(out).__name__}.")
        found.append(out.element_spec)
        return ()

    function(probe, autograph=False, name="reduce_func").get_concrete_function(TensorSpec([], _dt.int64))
    return found[0]


class GroupByWindowDataset(Dataset):
    _name = "_GroupByWindowDataset"
    _indexable = False

    def __init__(self, parent, key_func, reduce_func, window_size=None, window_size_func=None):
        from ..autograph.api import converted
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be "
                             "specified.")
        self._parent, self._size = parent, UNKNOWN
        self._key = _scalar_int64(trace(key_func, parent.element_spec, call_with_element, name="key_func"), "key_func")
        if window_size is not None:
            fixed = int(window_size.numpy()) if isinstance(window_size, Tensor) else int(window_size)
            self._window_size = lambda key: fixed
        else:
            sized = _scalar_int64(trace(window_size_func, TensorSpec([], _dt.int64), lambda fn, k: fn(k),
                                        name="window_size_func"), "window_size_func")
            self._window_size = lambda key: int(sized(key))
        self._reduce = converted(reduce_func)
        self._spec = _reduce_spec(self._reduce, parent.element_spec)

    def _stream(self):
        from ..core.convert import convert_to_tensor
        windows = {}
        for element in self._parent._elements():
            key = int(self._key(*nest.flatten(element, expand_composites=True)))
            rows = windows.setdefault(key, [])
            rows.append(element)
            if len(rows) >= self._window_size(convert_to_tensor(np.int64(key))):
                del windows[key]
                yield from self._reduced(key, rows)
        for key in sorted(windows):
            yield from self._reduced(key, windows[key])

    def _reduced(self, key, rows):
        from ..core.convert import convert_to_tensor
        window = _ListDataset(rows, self._parent.element_spec)
        out = self._reduce(convert_to_tensor(np.int64(key)), window)
        yield from out._elements()


def bucket_by_sequence_length(dataset, element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """Elements batched with others of similar length: bucket i holds lengths in
    [boundaries[i-1], boundaries[i]) and is batched (padded) bucket_batch_sizes[i] at a time."""
    boundaries, sizes = [int(b) for b in bucket_boundaries], [int(b) for b in bucket_batch_sizes]
    if len(sizes) != len(boundaries) + 1:
        raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         f"`len(bucket_batch_sizes)={len(sizes)}` and `len(bucket_boundaries)={len(boundaries)}`.")
    from ..ops.math import elementwise as _math
    from ..ops.math.reduce import reduce_sum
    bounds = np.array(boundaries, np.int64)

    def key(*element):
        length = _math.cast(element_length_func(*element), _dt.int64)
        return reduce_sum(_math.cast(_math.less_equal(bounds, length), _dt.int64))  # the bucket: boundaries <= length

    def reduce(bucket, window):
        # A symbolic bucket is the spec probe: any batch size, and no fixed leading dimension
        # (TensorFlow's batch size is a tensor there, so its spec leads with None too).
        eager = isinstance(bucket, EagerTensor)
        index = int(bucket) if eager else 0
        size, drop = sizes[index], bool(drop_remainder) and eager
        if no_padding:
            return window.batch(size, drop_remainder=drop)
        shapes = padded_shapes
        if pad_to_bucket_boundary and eager:
            if index == len(boundaries):
                raise InvalidArgumentError(None, None, "When pad_to_bucket_boundary=True, elements must have length "
                                                       "< max(bucket_boundaries).")
            filler = boundaries[index] - 1
            shapes = nest.map_structure(
                lambda s: TensorShape([filler if d is None else d for d in s.shape.as_list()]),
                window.element_spec)
        return window.padded_batch(size, padded_shapes=shapes, padding_values=padding_values, drop_remainder=drop)

    return GroupByWindowDataset(dataset, key, reduce, window_size_func=lambda bucket: _bucket_size(sizes, bucket))


def _bucket_size(sizes, bucket):
    from ..ops.array.slicing import gather
    return gather(np.array(sizes, np.int64), bucket)


class RebatchDataset(Dataset):
    """The input's rows in batches of `batch_size` (or of each size of a list, in turn)."""
    _name = "_RebatchDataset"
    _indexable = False

    def __init__(self, parent, batch_size, drop_remainder):
        sizes = [int(batch_size)] if np.ndim(batch_size) == 0 else [int(b) for b in np.asarray(batch_size)]
        self._rows, self._sizes, self._drop = parent.unbatch(), sizes, bool(drop_remainder)
        self._parent, self._size = parent, UNKNOWN
        lead = sizes[0] if self._drop and len(sizes) == 1 else None
        from .composite_elements import batched_spec
        self._spec = batched_spec(self._rows.element_spec, lead)

    def _stream(self):
        from .composite_elements import stack_with_spec
        pending, turn = [], 0
        row_spec = self._rows.element_spec

        def stack_elements(rows):
            return stack_with_spec(row_spec, rows)
        for row in self._rows._elements():
            pending.append(row)
            if len(pending) == self._sizes[turn % len(self._sizes)]:
                yield stack_elements(pending)
                pending, turn = [], turn + 1
        if pending and not self._drop:
            yield stack_elements(pending)


def _compatible_spec(specs):
    """The most specific spec all of `specs` fit, or None when their structures or dtypes differ."""
    first = specs[0]
    try:
        for other in specs[1:]:
            nest.assert_same_structure(first, other)
    except (ValueError, TypeError):
        return None
    flat = [nest.flatten(s) for s in specs]
    merged = []
    for parts in zip(*flat):
        if any(not isinstance(p, TensorSpec) or p.dtype is not parts[0].dtype for p in parts):
            return None
        shapes = [p.shape for p in parts]
        if len({s.rank for s in shapes}) != 1:
            merged.append(TensorSpec(TensorShape(None), parts[0].dtype))
            continue
        dims = [a if all(s.as_list()[i] == a for s in shapes) else None
                for i, a in enumerate(shapes[0].as_list())] if shapes[0].rank is not None else None
        merged.append(TensorSpec(TensorShape(dims), parts[0].dtype))
    return nest.pack_sequence_as(first, merged)


def _datasets_spec(datasets):
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    spec = _compatible_spec([d.element_spec for d in datasets])
    if spec is None:
        raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs.")
    return spec


class ChooseFromDatasets(Dataset):
    """datasets[i] for each i the choice dataset yields."""
    _name = "_DirectedInterleaveDataset"
    _indexable = False

    def __init__(self, datasets, choice_dataset, stop_on_empty_dataset=True):
        spec = choice_dataset.element_spec
        if nest.is_nested(spec) or spec.dtype is not _dt.int64 or spec.shape.rank != 0:
            raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` "
                            f"tensors but are {spec}.")
        self._datasets, self._choices = list(datasets), choice_dataset
        self._spec, self._size, self._stop = _datasets_spec(self._datasets), UNKNOWN, bool(stop_on_empty_dataset)

    def _stream(self):
        streams = [d._elements() for d in self._datasets]
        done = [False] * len(streams)
        end = object()
        for choice in self._choices._elements():
            i = int(choice)
            if not 0 <= i < len(streams):
                raise InvalidArgumentError(None, None, f"Selector index out of range: {i} >= {len(streams)}")
            if done[i]:
                continue
            value = next(streams[i], end)
            if value is end:
                done[i] = True
                if self._stop:
                    return
                continue
            yield value


class SampleFromDatasets(Dataset):
    """A random interleaving: each element from datasets[i] with probability weights[i] (renormalised
    over the datasets not yet exhausted, unless stop_on_empty_dataset ends it at the first). The
    draws come from NumPy's generator seeded by `seed` (or the global seed): the same sequence for
    the same seed, not TensorFlow's."""
    _name = "_DirectedInterleaveDataset"
    _indexable = False

    def __init__(self, datasets, weights=None, seed=None, stop_on_empty_dataset=False):
        self._datasets = list(datasets)
        self._spec, self._size = _datasets_spec(self._datasets), UNKNOWN
        n = len(self._datasets)
        w = np.full(n, 1.0 / n) if weights is None else np.asarray(
            weights.numpy() if isinstance(weights, Tensor) else weights, np.float64).reshape(-1)
        if len(w) != n:
            raise ValueError(f"Invalid `weights`. `weights` should have the same length as `datasets` but got "
                             f"`len(weights)={len(w)}` vs. `len(datasets)={n}`.")
        self._weights, self._stop = w, bool(stop_on_empty_dataset)
        from ..ops.random.draws import get_seed
        seeds = get_seed(seed)  # (0, 0): not seeded, fresh draws on each iteration
        self._seed = None if seeds == (0, 0) else list(seeds)

    def _stream(self):
        rng = np.random.default_rng(self._seed)
        streams = [d._elements() for d in self._datasets]
        live = self._weights.copy()
        end = object()
        while live.sum() > 0:
            i = int(rng.choice(len(streams), p=live / live.sum()))
            value = next(streams[i], end)
            if value is end:
                if self._stop:
                    return
                live[i] = 0.0
                continue
            yield value


class AssertCardinalityDataset(Dataset):
    """The input's elements, checked to number exactly `expected` as they go (FailedPreconditionError
    at the first extra element or at a short end, TensorFlow's words); cardinality() is `expected`."""
    _name = "_AssertCardinalityDataset"
    _indexable = False

    def __init__(self, parent, expected):
        self._parent, self._spec = parent, parent.element_spec
        self._size = int(expected.numpy()) if isinstance(expected, Tensor) else int(expected)

    def _stream(self):
        expected, seen = self._size, 0
        for element in self._parent._elements():
            seen += 1
            if seen > expected:
                raise FailedPreconditionError(None, None, f"Input dataset was expected to contain {expected} "
                                                          f"elements but contained at least {seen} elements.")
            yield element
        if seen < expected:
            raise FailedPreconditionError(None, None, f"Input dataset was expected to contain {expected} elements "
                                                      f"but contained only {seen} elements.")


def assert_cardinality(expected_cardinality):
    """`tf.data.experimental.assert_cardinality`: a transformation for `Dataset.apply`."""
    return lambda dataset: AssertCardinalityDataset(dataset, expected_cardinality)

