"""--enable_batching: concurrent requests to one signature of one version merged into one call of the
model, with TensorFlow Serving's batching parameters.

A request (a task) joins the open batch of its queue; the batch closes when it holds max_batch_size
rows, when batch_timeout_micros have passed since its first task, or when a task would not fit (too
many rows, or rows of another shape). num_batch_threads workers take closed batches in order,
concatenate the inputs along the batch dimension, pad the rows up to the next allowed_batch_sizes
entry (copies of the first row), run the signature once and hand each task its slice of the outputs.
A task that would need a new batch while max_enqueued_batches are already waiting is refused at once
with RESOURCE_EXHAUSTED: the queue never grows without bound.
"""
from __future__ import annotations

import bisect
import collections
import threading
import time

import numpy as np

from .errors import ServingError, invalid_argument
from .runners import bounded, run_in_thread

IDLE_SECONDS = 30.0  # a worker with nothing to do for this long ends (a queue left behind costs no threads)


class _Task:
    """One request's rows. `finish` is called once, from a batch worker, after `outputs` or `error` is set:
    it sets an Event a waiting thread blocks on (submit) or hands the result to an event loop (submit_async)."""
    __slots__ = ("arrays", "rows", "shape_key", "finish", "outputs", "error")

    def __init__(self, arrays, rows, shape_key, finish):
        self.arrays, self.rows, self.shape_key, self.finish = arrays, rows, shape_key, finish
        self.outputs = self.error = None


def _finish_all(tasks):
    """Finish a batch's tasks, handing those an event loop waits for to their loop in one call each
    (one wake-up of the loop per batch, not one per request)."""
    by_loop = {}
    for task in tasks:
        if isinstance(task.finish, _LoopFuture):
            by_loop.setdefault(task.finish.loop, []).append(task)
        else:
            task.finish()
    for loop, waiting in by_loop.items():
        try:
            loop.call_soon_threadsafe(_resolve, waiting)
        except RuntimeError:  # the loop has closed: nobody waits for these answers any more
            pass


class _LoopFuture:
    """The asyncio future a request awaits on `loop`, set there (futures are not thread-safe)."""
    __slots__ = ("loop", "future")

    def __init__(self, loop):
        self.loop = loop
        self.future = loop.create_future()


def _resolve(tasks):
    for task in tasks:
        future = task.finish.future
        if future.done():  # the request gave up (its timeout): the answer is dropped
            continue
        if task.error is not None:
            future.set_exception(task.error)
        else:
            future.set_result(task.outputs)


class _Batch:
    def __init__(self, first, deadline):
        self.tasks = [first]
        self.rows = first.rows
        self.shape_key = first.shape_key
        self.deadline = deadline


def _rows(arrays):
    """The batch size the task adds (every input's first dimension), or None where it cannot be batched."""
    sizes = {a.shape[0] if a.ndim else None for a in arrays.values()}
    return sizes.pop() if len(sizes) == 1 else None


class BatchQueue:
    """The queue and workers of one signature of one loaded version."""

    def __init__(self, model_name, signature, params, metrics=None):
        self.model_name = model_name
        self.signature = signature
        self.params = params
        self.metrics = metrics
        self._cond = threading.Condition()
        self._open = None
        self._closed = collections.deque()
        self._stopping = False
        self._workers = 0  # running worker threads; they end after IDLE_SECONDS without work

    def _start_workers(self):
        """Called with the lock held: bring the workers up to num_batch_threads."""
        while self._workers < self.params.num_batch_threads:
            self._workers += 1
            threading.Thread(target=self._work, daemon=True, name=f"eagerflow-batch-{self.model_name}").start()

    def _task(self, arrays, finish):
        """A task for `arrays`, or None where they cannot be batched (scalars, mixed first dimensions)."""
        rows = _rows(arrays)
        if rows is None or rows == 0:
            return None
        if rows > self.params.max_batch_size:
            raise invalid_argument(f"Task size {rows} is larger than maximum input batch size "
                                   f"{self.params.max_batch_size}")
        self.signature.check_inputs(arrays)  # a bad request fails alone, never its batch
        return _Task(arrays, rows, tuple((k, a.shape[1:], a.dtype) for k, a in sorted(arrays.items())), finish)

    def submit(self, arrays) -> dict:
        """The task's outputs, waiting in this thread (the gRPC API's worker threads)."""
        done = threading.Event()
        task = self._task(arrays, done.set)
        if task is None:
            return self.signature.run(arrays)
        self._enqueue(task)
        done.wait()
        if task.error is not None:
            raise task.error
        return task.outputs

    def submit_async(self, arrays, loop):
        """An asyncio future of `loop` that the task's outputs are set on (the REST API awaits it, so a
        waiting request holds no thread); None where the arrays cannot be batched (the caller runs them
        on their own)."""
        waiter = _LoopFuture(loop)
        task = self._task(arrays, waiter)
        if task is None:
            return None
        self._enqueue(task)
        return waiter.future

    def _enqueue(self, task):
        rows = task.rows
        with self._cond:
            batch = self._open
            wake = False
            if batch is not None and (batch.rows + rows > self.params.max_batch_size
                                      or batch.shape_key != task.shape_key):
                self._close_open()
                batch, wake = None, True
            if batch is None:
                if len(self._closed) + 1 > self.params.max_enqueued_batches:
                    if wake:
                        self._cond.notify_all()
                    raise ServingError("RESOURCE_EXHAUSTED",
                                       "The batch scheduling queue to which this task was submitted is full")
                self._open = _Batch(task, time.monotonic() + self.params.batch_timeout_micros / 1e6)
                wake = True  # a worker waits for the new batch's deadline
            else:
                batch.tasks.append(task)
                batch.rows += rows
            if self._open.rows == self.params.max_batch_size:
                self._close_open()
                wake = True
            self._start_workers()
            self._record_depth()
            if wake:  # a task joining an open batch changes nothing a worker waits for
                self._cond.notify_all()  # every worker: one may take a closed batch, another wait for the open one

    def _close_open(self):
        self._closed.append(self._open)
        self._open = None

    def _record_depth(self):
        if self.metrics is not None:
            tasks = sum(len(b.tasks) for b in self._closed) + (len(self._open.tasks) if self._open else 0)
            self.metrics.record_queue_depth(self.model_name, tasks)

    def _next_batch(self):
        with self._cond:
            while True:
                if self._closed:
                    batch = self._closed.popleft()
                    self._record_depth()
                    return batch
                if self._open is not None:
                    wait = self._open.deadline - time.monotonic()
                    if wait <= 0:
                        self._close_open()
                        continue
                    self._cond.wait(wait)
                elif self._stopping or not self._cond.wait(IDLE_SECONDS) and self._open is None and not self._closed:
                    self._workers -= 1  # nothing to do: end (a later task starts a worker again)
                    return None

    def _work(self):
        while (batch := self._next_batch()) is not None:
            self._run(batch)

    def _run(self, batch):
        try:
            outputs = self._call(batch)
        except Exception as err:
            error = err if isinstance(err, ServingError) else ServingError("INTERNAL", f"{type(err).__name__}: {err}")
            for task in batch.tasks:
                task.error = error
            _finish_all(batch.tasks)
            return
        start = 0
        for task in batch.tasks:
            task.outputs = {name: array[start:start + task.rows] for name, array in outputs.items()}
            start += task.rows
        _finish_all(batch.tasks)

    def _call(self, batch):
        if len(batch.tasks) == 1 and not self.params.allowed_batch_sizes:
            arrays = batch.tasks[0].arrays
        else:
            arrays = {name: np.concatenate([t.arrays[name] for t in batch.tasks]) for name in batch.tasks[0].arrays}
        padded = self._padded_size(batch.rows)
        if padded > batch.rows:
            arrays = {name: np.concatenate([a, np.repeat(a[:1], padded - batch.rows, axis=0)])
                      for name, a in arrays.items()}
        if self.metrics is not None:
            self.metrics.record_batch(self.model_name, batch.rows, padded)
        outputs = self.signature.run(arrays)
        for name, array in outputs.items():
            if array.ndim == 0 or array.shape[0] != padded:
                raise invalid_argument(f"Batched output tensor '{name}' has {array.shape[0] if array.ndim else 0} "
                                       f"rows; expected {padded}: this signature cannot be batched")
        return outputs

    def _padded_size(self, rows):
        sizes = self.params.allowed_batch_sizes
        if not sizes:
            return rows
        return sizes[bisect.bisect_left(sizes, rows)]

    def stop(self):
        """Its version is gone: finish the batches queued, and end each worker as soon as it has nothing to do
        (a request that took the version just before still gets its answer)."""
        with self._cond:
            self._stopping = True
            if self._open is not None:
                self._close_open()
            self._cond.notify_all()


class BatchingRunner:
    """The runner of --enable_batching: one BatchQueue per (model, version, signature), made on first use
    and stopped when its version is unloaded."""

    def __init__(self, params, metrics=None):
        self.params = params
        self.metrics = metrics
        self._queues: dict = {}
        self._lock = threading.Lock()

    def run(self, model_name, servable, signature, arrays):
        return self._queue(model_name, servable, signature).submit(arrays)

    def _queue(self, model_name, servable, signature):
        key = (model_name, servable.version, signature.key)
        queue = self._queues.get(key)
        if queue is None or queue.signature is not signature:
            with self._lock:
                queue = self._queues.get(key)
                if queue is None or queue.signature is not signature:
                    if queue is not None:
                        queue.stop()
                    queue = self._queues[key] = BatchQueue(model_name, signature, self.params, self.metrics)
        return queue

    async def run_async(self, model_name, servable, signature, arrays, small=True, timeout=None):
        """run() for the event loop: the request waits in the queue without holding a thread, at most
        `timeout` seconds (asyncio.TimeoutError; its answer is then dropped)."""
        import asyncio
        queue = self._queue(model_name, servable, signature)
        future = queue.submit_async(arrays, asyncio.get_running_loop())
        if future is None:
            return await bounded(run_in_thread(signature.run, arrays), timeout)
        return await bounded(future, timeout)

    def version_changed(self, model_name, state):
        """The manager's on_change: a version no longer AVAILABLE stops its queues."""
        if state.state == "AVAILABLE":
            return
        with self._lock:
            for key in [k for k in self._queues if k[0] == model_name and k[1] == state.version]:
                self._queues.pop(key).stop()
