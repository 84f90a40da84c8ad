"""Collectives between worker processes, on tensors that may be eager or symbolic.

A communicator works on NumPy arrays (`sum_arrays`, `gather_arrays`, `broadcast_array`). `on_arrays`
runs such a function on tensors: at once when they are eager, or as one `numpy_function` op when a
tf.function is being traced, so a compiled training step all-reduces at the same point every call.

`LocalCommunicator` is the one-process case (every collective is the identity); the MPI one is in
mpi_communicator.py, loaded only by MultiWorkerMirroredStrategy.
"""
from __future__ import annotations

import enum

import numpy as np

from ..autodiff.py_function import numpy_function
from ..core.context import state as _core_state
from ..core.convert import convert_to_tensor
from ..core.tensor import make_eager
from ..ops.array.static_shapes import ensure_shape


class CommunicationImplementation(enum.Enum):
    """`tf.distribute.experimental.CommunicationImplementation`: which collective library to use.
    Here every choice runs on MPI (RING and NCCL are accepted for programs that name them)."""
    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


CollectiveCommunication = CommunicationImplementation  # TensorFlow's older name for the same enum


class CommunicationOptions:
    """`tf.distribute.experimental.CommunicationOptions`: `bytes_per_pack` splits the gradients into
    packs of about that many bytes, each all-reduced in one call (0: one pack for all);
    `timeout_seconds` bounds how long a collective waits for the other workers."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None, implementation=CommunicationImplementation.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"Argument `bytes_per_pack` must be >=0, Received {bytes_per_pack}.")
        if isinstance(implementation, str):
            implementation = CommunicationImplementation[implementation.upper()]
        self.bytes_per_pack = int(bytes_per_pack)
        self.timeout_seconds = timeout_seconds
        self.implementation = implementation

    def merge(self, options):
        """These options with the fields `options` sets overriding them (TensorFlow's merge)."""
        merged = CommunicationOptions(self.bytes_per_pack, self.timeout_seconds, self.implementation)
        if options is not None:
            if options.bytes_per_pack:
                merged.bytes_per_pack = options.bytes_per_pack
            if options.timeout_seconds is not None:
                merged.timeout_seconds = options.timeout_seconds
            if options.implementation != CommunicationImplementation.AUTO:
                merged.implementation = options.implementation
        return merged


class CollectiveHints(CommunicationOptions):
    """`tf.distribute.experimental.CollectiveHints`: the older spelling of CommunicationOptions."""

    def __init__(self, bytes_per_pack=0, timeout_seconds=None):
        super().__init__(bytes_per_pack, timeout_seconds)


def on_arrays(function, tensors: list) -> list:
    """`function(list of ndarrays) -> list of ndarrays` applied to `tensors` (see the module docstring);
    the results keep the inputs' dtypes and static shapes."""
    tensors = [convert_to_tensor(t) for t in tensors]
    if not tensors:
        return []
    if _core_state.graph is None and not any(getattr(t, "is_symbolic", False) for t in tensors):
        # The tensors' own arrays, read without a copy (`function` must not write to them), and its
        # results wrapped as they are: a 100 MB all-reduce is not slowed by two extra copies.
        results = function([np.asarray(t) for t in tensors])
        return [make_eager(np.asarray(r), t.dtype) for r, t in zip(results, tensors)]
    outs = numpy_function(lambda *arrays: function(list(arrays)), tensors, Tout=[t.dtype for t in tensors])
    return [ensure_shape(o, t.shape) for o, t in zip(outs, tensors)]


class LocalCommunicator:
    """One process: nothing to exchange."""
    num_workers = 1
    rank = 0

    def sum_arrays(self, arrays, options=None):
        return arrays

    def gather_arrays(self, array, axis):
        return array

    def broadcast_array(self, array, root=0):
        return array

    def check_alive(self):
        """Nothing to check with one process."""
