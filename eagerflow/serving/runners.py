"""How a request's signature call is run: DirectRunner calls it for each request on its own (BatchingRunner,
in batching.py, merges concurrent requests). Both offer `run` for threads (the gRPC API) and `run_async`
for the event loop (the REST API).

DirectRunner runs a call inline on the event loop only when it is known to be short: the signature's recent
calls all took under INLINE_CALL_SECONDS and the request is small. A thread hop costs more than such a call
(a wake-up of a pool thread and of the loop, each a chance to wait for a busy CPU), while a call that is
slow, or not yet measured, still runs in a worker thread so it never holds up the other connections.

A call's cost is its own CPU time unless it waited (a sleep, I/O, a lock, BLAS helper threads: a voluntary
context switch of its thread, Linux's per-thread rusage), then its wall time. On a machine whose CPUs are
shared, a short call that another process preempted would otherwise look slow, and send the next dozen calls
through thread hops, each one more wake-up to wait for.
"""
from __future__ import annotations

import time

try:
    import resource
    _THREAD = resource.RUSAGE_THREAD  # Linux
except (ImportError, AttributeError):
    _THREAD = None

INLINE_CALL_SECONDS = 0.001
_DECAY = 0.9  # how fast a slow call is forgotten: the recent cost drops 10% with each later call


async def run_in_thread(function, *args):
    """`function(*args)` in one of the worker threads (Starlette's pool, sized by --rest_api_num_threads)."""
    import anyio.to_thread
    return await anyio.to_thread.run_sync(function, *args)


async def bounded(awaitable, timeout):
    """`await awaitable`, raising asyncio.TimeoutError after `timeout` seconds (None: no limit). Only for
    awaits that wait: asyncio.wait_for wraps a coroutine in a task of its own and sets a timer."""
    if timeout is None:
        return await awaitable
    import asyncio
    return await asyncio.wait_for(awaitable, timeout)


def _waits() -> int:
    """Voluntary context switches of this thread so far (0 where the platform does not count them)."""
    return resource.getrusage(_THREAD).ru_nvcsw if _THREAD is not None else 0


def timed_call(function, *args):
    """(function(*args), wall seconds, the seconds its cost counts: CPU time if it never waited, else wall)."""
    waits, cpu, started = _waits(), time.thread_time(), time.perf_counter()
    result = function(*args)
    seconds = time.perf_counter() - started
    cpu = time.thread_time() - cpu
    waited = _THREAD is None or _waits() != waits
    return result, seconds, seconds if waited else cpu


class CallCost:
    """The recent cost of one signature's calls: the slowest one, forgotten gradually."""
    __slots__ = ("seconds",)

    def __init__(self):
        self.seconds = None  # not measured yet: treated as slow

    def note(self, seconds):
        self.seconds = seconds if self.seconds is None else max(seconds, self.seconds * _DECAY)

    def is_short(self) -> bool:
        return self.seconds is not None and self.seconds < INLINE_CALL_SECONDS


class DirectRunner:
    """Runs each request's signature call on its own."""

    def __init__(self, metrics=None):
        self.metrics = metrics

    def run(self, model_name, servable, signature, arrays):
        outputs, seconds, cost = timed_call(signature.run, arrays)
        signature.cost.note(cost)
        if self.metrics is not None:
            self.metrics.record_run(model_name, "predict", seconds)
        return outputs

    async def run_async(self, model_name, servable, signature, arrays, small=True, timeout=None):
        """On the event loop when the call is short and the request `small`, else in a worker thread,
        waited for at most `timeout` seconds (asyncio.TimeoutError; the thread finishes on its own)."""
        if small and signature.cost.is_short():
            return self.run(model_name, servable, signature, arrays)
        return await bounded(run_in_thread(self.run, model_name, servable, signature, arrays), timeout)
