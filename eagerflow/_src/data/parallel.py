"""`map(num_parallel_calls=...)` and `prefetch(buffer_size)` overlapping work in threads, eagerly.

Why threads help here: a map function's time is mostly spent in kernels that release the GIL (NumPy's
array loops and BLAS, zlib, file reads, image codecs), so several elements can be computed at once on
several cores, and a producer thread can compute the next elements while the training step runs.

- A map with num_parallel_calls > 1 (AUTOTUNE: one per CPU core) computes up to that many elements at
  once in a thread pool and hands them out in input order (what TensorFlow's deterministic parallel map
  gives), both when it is iterated and when a batch above it gathers its rows.
- prefetch(n) runs the input's pass in a producer thread that keeps up to n elements ready
  (AUTOTUNE: as many as there are cores, at least 2); an error is raised where the element would have
  been, and a pass left unfinished stops its producer.
Inside a traced function (state.graph set) both run in order, as before: the graph computes them.
A pool thread that itself asks for a parallel map's elements computes them in order (no pool waits
on itself).
"""
from __future__ import annotations

import collections
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

from ..core.context import state

AUTOTUNE = -1
_pools: dict = {}
_pools_lock = threading.Lock()
_local = threading.local()


def workers(num_parallel_calls) -> int:
    """The number of elements computed at once: AUTOTUNE is the number of CPU cores; None, 0 or 1 is one."""
    if num_parallel_calls is None:
        return 1
    n = int(num_parallel_calls.numpy()) if hasattr(num_parallel_calls, "numpy") else int(num_parallel_calls)
    if n == AUTOTUNE:
        return os.cpu_count() or 1
    if n < 0:
        from ..core.errors import InvalidArgumentError
        raise InvalidArgumentError(None, None, "num_parallel_calls must be greater than zero.")
    return max(n, 1)


def _pool(n: int) -> ThreadPoolExecutor:
    with _pools_lock:
        if n not in _pools:
            _pools[n] = ThreadPoolExecutor(n, thread_name_prefix=f"eagerflow-data-{n}")
        return _pools[n]


def _in_worker(fn):
    def run(*args):
        _local.worker = True
        try:
            return fn(*args)
        finally:
            _local.worker = False
    return run


def sequential_here(n: int) -> bool:
    return n <= 1 or state.graph is not None or getattr(_local, "worker", False)


def ordered_map(fn, items, n: int):
    """fn(item) for each item, up to `n` computed at once (2n submitted ahead), yielded in order."""
    if sequential_here(n):
        for item in items:
            yield fn(item)
        return
    pool, pending = _pool(n), collections.deque()
    task = _in_worker(fn)
    items = iter(items)  # read in this thread; state a reader draws lazily is guarded by its lock (shuffle.py)
    try:
        for item in items:
            pending.append(pool.submit(task, item))
            if len(pending) >= 2 * n:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()


def map_all(fn, items, n: int) -> list:
    """[fn(item) for item in items], computed `n` at once."""
    return list(ordered_map(fn, items, n))


_DONE = object()


class _Failed:
    def __init__(self, error):
        self.error = error


def prefetched(elements, buffer_size: int):
    """The elements of the generator `elements`, produced ahead in a thread into a bounded buffer."""
    if state.graph is not None or buffer_size == 0:
        yield from elements
        return
    size = max(2, os.cpu_count() or 1) if buffer_size < 0 else int(buffer_size)  # AUTOTUNE
    ready, stop = queue.Queue(maxsize=size), threading.Event()

    def offer(item):
        while not stop.is_set():
            try:
                ready.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce():
        try:
            for element in elements:
                if not offer(element):
                    return
            offer(_DONE)
        except BaseException as error:  # handed to the consumer, raised where the element would be
            offer(_Failed(error))
        finally:
            if stop.is_set():
                elements.close()

    producer = threading.Thread(target=produce, name="eagerflow-prefetch", daemon=True)
    producer.start()
    try:
        while True:
            item = ready.get()
            if item is _DONE:
                return
            if isinstance(item, _Failed):
                raise item.error
            yield item
    finally:
        stop.set()
