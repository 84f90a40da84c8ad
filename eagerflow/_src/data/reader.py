"""Readers: one pass over a dataset, addressed by element index.

Every dataset here can say what its i-th element is, so one description serves both ways of
running it: eager iteration asks for elements 0, 1, 2, ... with Python ints, and a `for` loop
inside tf.function becomes one tf.while_loop whose body asks for element `index` (an int32
tensor) and computes it with ops (a gather from the captured source tensors, the map function
inlined, ...). Nothing is unrolled.

`open(epochs)` makes a reader for one pass. It is where randomness is drawn: a shuffle draws its
permutations there, once per pass, with a stateful random op (so a traced loop draws fresh ones
on every call of the function, as TensorFlow's iterator does). `epochs` says how many times the
reader will be swept by repeats above it (None: without end).

A reader answers:
  element(i, epoch)        the element at index i of sweep number `epoch` (a repeat above asks
                           for its sweeps in turn; a shuffle draws a new order per sweep)
  gather(indices, epoch)   the elements at `indices` stacked (what a batch above asks for);
                           `indices` is a NumPy int array eagerly, an int32 tensor in a graph.
The default `gather` asks `element` for each index: a Python loop eagerly, a tf.while_loop writing a
TensorArray in a graph. Sources and index-only transformations override it with one vectorized op.
"""
from __future__ import annotations

import numpy as np

from ..core import nest
from .structure import stack_elements


class Reader:
    def __init__(self, spec):
        self.spec = spec

    def element(self, i, epoch):
        raise NotImplementedError

    def gather(self, indices, epoch):
        if isinstance(indices, np.ndarray):
            return stack_elements([self.element(int(i), epoch) for i in indices])
        return self._gather_loop(indices, epoch)

    def _gather_loop(self, indices, epoch):
        from ..control_flow.tensor_array import TensorArray
        from ..control_flow.while_loop import while_loop
        from ..ops.array.basic import shape
        from ..ops.array.slicing import gather
        flat_spec = nest.flatten(self.spec, expand_composites=True)
        k = indices.shape[0] if indices.shape[0] is not None else shape(indices)[0]
        arrays = [TensorArray(s.dtype, size=k, element_shape=s.shape) for s in flat_spec]

        def body(j, *tas):
            values = nest.flatten(self.element(gather(indices, j), epoch), expand_composites=True)
            return [j + 1] + [ta.write(j, v) for ta, v in zip(tas, values)]

        out = while_loop(lambda j, *tas: j < k, body, [0] + arrays)
        return nest.pack_sequence_as(self.spec, [ta.stack() for ta in out[1:]], expand_composites=True)


class FunctionReader(Reader):
    """A reader made of two functions (most datasets need no state of their own)."""

    def __init__(self, spec, element, gather=None):
        super().__init__(spec)
        self._element = element
        self._gather = gather

    def element(self, i, epoch):
        return self._element(i, epoch)

    def gather(self, indices, epoch):
        if self._gather is None:
            return super().gather(indices, epoch)
        return self._gather(indices, epoch)
