"""Where TensorFlow's TopKV2 puts NaN: rows of top_k, sort and argsort that hold a NaN.

TensorFlow orders a row by comparing values with `<`, and a NaN compares false with everything, so
a NaN is neither above nor below its neighbours: where it ends up is whatever the sorting
procedure does with such a comparison. Rows without NaN are ordered by NumPy in ordering.py; a row
with a NaN is replayed here, step for step, through the procedures TensorFlow's CPU kernel runs:

* k == 1: the row's maximum as TensorFlow's vectorised reduction finds it (the largest multiple of
  8 leading values, 4 for float64, in lanes that skip NaN; the rest scanned left to right, where a NaN replaces the
  best so far and the next number replaces the NaN; the scan's result kept unless below the
  lanes'), then the first position holding that maximum, or position 0 when it is NaN;
* k == row length: an introspective sort (quicksort with median-of-three pivots, insertion sort
  for short stretches) of the positions by "value greater", then each run of equal values put in
  increasing position order;
* otherwise: a bounded heap of the k best positions by "value greater, or equal and lower
  position", then sorted out of the heap.

Rows are short in practice and a NaN is rare, so plain Python is fast enough here.
"""
from __future__ import annotations

import numpy as np

_SHORT = 16  # stretches up to this long are left to insertion sort


def nan_row_order(row, k):
    """The k positions TopKV2 returns for a 1-D row that holds a NaN (a list of ints)."""
    values = [float(v) for v in row]
    n = len(values)
    if k == 0:
        return []
    if k == 1:
        return [_first_of_scanned_max(values, 4 if row.dtype.itemsize == 8 else 8)]
    if k == n:
        return _full_sort(values)
    return _bounded_heap(values, k)


def _first_of_scanned_max(values, lanes):
    """`lanes`: values per vector register in TensorFlow's CPU build (8 float32 under AVX)."""
    vectorised = len(values) // lanes * lanes
    numbers = [v for v in values[:vectorised] if v == v]
    lanes_best = max(numbers) if numbers else (np.nan if vectorised else -np.inf)
    best = -np.inf
    for v in values[vectorised:]:
        best = best if best > v else v
    best = lanes_best if best < lanes_best else best
    for i, v in enumerate(values):
        if v == best:
            return i
    return 0


# --- k == n: introspective sort by "greater", then runs of equal values by position ------------------


def _full_sort(values):
    def comes_first(a, b):
        return values[b] < values[a]
    order = list(range(len(values)))
    _introsort(order, comes_first)
    start = 0
    while start < len(order) - 1:  # runs of equal values (never a NaN: it equals nothing) by position
        end = start + 1
        while end < len(order) and values[order[start]] == values[order[end]]:
            end += 1
        if end - start > 1:
            order[start:end] = sorted(order[start:end])
        start = end
    return order


def _introsort(a, less):
    n = len(a)
    if n < 2:
        return
    _introsort_loop(a, 0, n, 2 * (n.bit_length() - 1), less)
    if n > _SHORT:
        _insertion_sort(a, 0, _SHORT, less)
        for i in range(_SHORT, n):
            _linear_insert(a, i, 0, less)
    else:
        _insertion_sort(a, 0, n, less)


def _introsort_loop(a, first, last, depth, less):
    while last - first > _SHORT:
        if depth == 0:  # too many uneven splits: heap sort the stretch
            _make_heap(a, first, last, less)
            _sort_heap(a, first, last, less)
            return
        depth -= 1
        cut = _partition_around_median(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _partition_around_median(a, first, last, less):
    mid = first + (last - first) // 2
    x, y, z = first + 1, mid, last - 1
    if less(a[x], a[y]):
        pick = y if less(a[y], a[z]) else (z if less(a[x], a[z]) else x)
    elif less(a[x], a[z]):
        pick = x
    else:
        pick = z if less(a[y], a[z]) else y
    a[first], a[pick] = a[pick], a[first]
    pivot, lo, hi = a[first], first + 1, last
    while True:
        while lo < last - 1 and less(a[lo], pivot):
            lo += 1
        hi -= 1
        while hi > first and less(pivot, a[hi]):
            hi -= 1
        if not lo < hi:
            return lo
        a[lo], a[hi] = a[hi], a[lo]
        lo += 1


def _insertion_sort(a, first, last, less):
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            a[first:i + 1] = [a[i]] + a[first:i]
        else:
            _linear_insert(a, i, first, less)


def _linear_insert(a, i, floor, less):
    value = a[i]
    while i > floor and less(value, a[i - 1]):
        a[i] = a[i - 1]
        i -= 1
    a[i] = value


# --- binary heaps, "largest" first by `less`, as the C++ standard library builds them -------------------


def _sift_up(a, first, hole, top, value, less):
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust(a, first, hole, length, value, less):
    top, child = hole, hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _sift_up(a, first, hole, top, value, less)


def _make_heap(a, first, last, less):
    length = last - first
    for parent in range((length - 2) // 2, -1, -1):
        _adjust(a, first, parent, length, a[first + parent], less)


def _pop_heap(a, first, last, less):
    """Moves the top to position last - 1 and re-heaps [first, last - 1)."""
    if last - first > 1:
        value = a[last - 1]
        a[last - 1] = a[first]
        _adjust(a, first, 0, last - 1 - first, value, less)


def _sort_heap(a, first, last, less):
    while last - first > 1:
        _pop_heap(a, first, last, less)
        last -= 1


# --- 1 < k < n: the k best positions kept in a bounded heap ----------------------------------------------


def _bounded_heap(values, k):
    def better(a, b):  # value greater, or equal (a NaN is "equal" to everything) and lower position
        if values[b] < values[a]:
            return True
        if values[b] > values[a]:
            return False
        return a < b
    kept, heaped = [], False
    for i in range(len(values)):
        if not heaped:
            kept.append(i)
            if len(kept) == k + 1:  # full: heap with the worst on top, drop it
                _make_heap(kept, 0, len(kept), better)
                _pop_heap(kept, 0, len(kept), better)
                kept.pop()
                heaped = True
        elif better(i, kept[0]):
            _pop_heap(kept, 0, len(kept), better)
            kept[-1] = i
            _sift_up(kept, 0, len(kept) - 1, 0, i, better)
    if heaped:
        _sort_heap(kept, 0, len(kept), better)
    else:
        _introsort(kept, better)
    return kept
