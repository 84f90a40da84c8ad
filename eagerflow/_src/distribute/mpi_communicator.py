"""Collectives between processes with MPI (mpi4py): the multi-worker strategy's communicator.

Gradients go as a few large contiguous buffers: the arrays of one dtype are copied into packs of
about `bytes_per_pack` bytes (one pack per dtype when it is 0) and each pack is summed with MPI's
in-place all-reduce on NumPy memory: no pickling, one call per pack. Every worker packs the same
arrays in the same order, so the results are bitwise the same everywhere.

An all-reduce runs non-blocking (Iallreduce) and is polled, yielding the CPU between polls: with
more workers than free cores (other work on the machine, or -n 4 on 2 cores) a worker that waits
then does not take time from the one it waits for, as MPI's spinning blocking call would. With a
timeout (CommunicationOptions(timeout_seconds=...)) a peer that has died or hangs makes it raise
DeadlineExceededError after the timeout, and the job is aborted (MPI cannot recover a communicator
a member left).
"""
from __future__ import annotations

import os
import sys
import time

import numpy as np

from ..core.errors import DeadlineExceededError
from .worker_files import remove_folders_in_use


SLICE_BYTES = 16 * 1024 * 1024  # see MPICommunicator._fill_and_sum


def load_mpi():
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise ImportError("MultiWorkerMirroredStrategy across processes needs mpi4py and an MPI library: "
                          "pip install 'eagerflow[distribute]' (mpi4py and the mpich wheel), then launch with "
                          f"`mpiexec -n N python train.py`. ({error})") from None
    return MPI


def _packs(arrays, bytes_per_pack):
    """Indices of `arrays` grouped into packs: same dtype, about `bytes_per_pack` bytes each (0: no limit)."""
    by_dtype = {}
    for i, a in enumerate(arrays):
        by_dtype.setdefault(a.dtype.str, []).append(i)
    packs = []
    for indices in by_dtype.values():
        current, size = [], 0
        for i in indices:
            if current and bytes_per_pack and size + arrays[i].nbytes > bytes_per_pack:
                packs.append(current)
                current, size = [], 0
            current.append(i)
            size += arrays[i].nbytes
        packs.append(current)
    return packs


class MPICommunicator:
    def __init__(self, timeout_seconds=None):
        self._MPI = load_mpi()
        self._comm = self._MPI.COMM_WORLD
        self.rank = self._comm.Get_rank()
        self.num_workers = self._comm.Get_size()
        self.timeout_seconds = timeout_seconds
        self._buffers = {}  # (dtype, size) -> a pack buffer to reuse (see _pack_buffer)

    def _wait(self, request, what):
        """Polls `request` until it completes, giving the CPU to any other runnable process between
        polls (MPI's blocking calls spin instead: with more workers than free cores, a spinning
        worker takes time from the one it waits for). With a timeout, a peer that has not joined
        within it aborts the job."""
        if self.timeout_seconds is None:
            while not request.Test():
                os.sched_yield()
            return
        deadline = time.monotonic() + self.timeout_seconds
        while not request.Test():
            if time.monotonic() > deadline:
                message = (f"{what} did not complete within {self.timeout_seconds} s on worker {self.rank} of "
                           f"{self.num_workers}: another worker has died or stopped; aborting the job.")
                print(message, file=sys.stderr, flush=True)
                remove_folders_in_use()  # Abort ends this process at once
                self._comm.Abort(1)
                raise DeadlineExceededError(None, None, message)
            os.sched_yield()

    def allreduce_in_place(self, buffer):
        """`buffer` (a contiguous ndarray) summed over the workers, in place."""
        self._wait(self._comm.Iallreduce(self._MPI.IN_PLACE, buffer, op=self._MPI.SUM), "An all-reduce")
        return buffer

    def _pack_buffer(self, dtype, size):
        """A buffer for one pack: the one kept from an earlier call when nothing else holds it (every
        result of that call, a view of it, has been dropped), else a new one kept for next time. Memory
        the process has written before is much faster to fill than fresh pages."""
        key = (dtype.str, size)
        buffer = self._buffers.get(key)
        # References: the cache's, getrefcount's argument and this name: no live view of it elsewhere.
        if buffer is None or sys.getrefcount(buffer) > 3:
            buffer = np.empty(size, dtype)
            self._buffers[key] = buffer
        return buffer

    def sum_arrays(self, arrays, options=None):
        """The arrays summed over the workers, as new arrays (views of the packs); the inputs are read only."""
        bytes_per_pack = getattr(options, "bytes_per_pack", 0) or 0
        arrays = [np.asarray(a) for a in arrays]
        out = [None] * len(arrays)
        for pack in _packs(arrays, bytes_per_pack):
            buffer = self._pack_buffer(arrays[pack[0]].dtype, sum(arrays[i].size for i in pack))
            self._fill_and_sum(buffer, [arrays[i].reshape(-1) for i in pack])
            start = 0
            for i in pack:
                n = arrays[i].size
                out[i] = buffer[start:start + n].reshape(arrays[i].shape)
                start += n
        return out

    def _fill_and_sum(self, buffer, flat_arrays):
        """Copies the arrays into `buffer` one slice of SLICE_BYTES at a time, each slice all-reduced
        right after its copy, while it is still in the CPU's cache (a 100 MB copy followed by a 100 MB
        all-reduce reads everything from memory twice)."""
        step = max(1, SLICE_BYTES // buffer.itemsize)
        bounds, start = [], 0
        for a in flat_arrays:
            bounds.append((start, start + a.size, a))
            start += a.size
        for low in range(0, buffer.size, step):
            high = min(low + step, buffer.size)
            for begin, end, a in bounds:
                if begin < high and end > low:
                    lo, hi = max(begin, low), min(end, high)
                    buffer[lo:hi] = a[lo - begin:hi - begin]
            self.allreduce_in_place(buffer[low:high])

    def gather_arrays(self, array, axis):
        """Every worker's `array` concatenated along `axis` in rank order (sizes along it may differ)."""
        array = np.moveaxis(np.ascontiguousarray(array), axis, 0)
        rest = array.shape[1:]
        counts = self._comm.allgather(int(array.shape[0]))
        row = int(np.prod(rest, dtype=np.int64))
        out = np.empty((sum(counts),) + rest, array.dtype)
        sizes = [c * row for c in counts]
        self._comm.Allgatherv(np.ascontiguousarray(array).reshape(-1), [out.reshape(-1), sizes])
        return np.moveaxis(out, 0, axis)

    def broadcast_array(self, array, root=0):
        buffer = np.array(array, copy=True, order="C")
        if buffer.dtype == object:
            return self._comm.bcast(buffer, root=root)
        if self.timeout_seconds is None:
            self._comm.Bcast(buffer, root=root)
        else:
            self._wait(self._comm.Ibcast(buffer, root=root), "A broadcast")
        return buffer

    def barrier(self):
        self._comm.Barrier()
