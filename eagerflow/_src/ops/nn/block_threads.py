"""Independent blocks of one kernel call shared between the calling thread and helper threads.

A convolution's row blocks (ops/nn/window_matmul.py) are independent: each copies its windows and
runs a BLAS product small enough to stay on the thread that calls it. NumPy releases the GIL in both,
so the blocks of one call can run on several cores at once; TensorFlow's kernels use the cores the
same way (its intra-op thread pool).

The calling thread hands the blocks to the helpers and sleeps, as TensorFlow's caller does while its
pool runs an op: on a machine whose cores are busy a thread woken from sleep is scheduled ahead of
threads that have been running (Linux credits sleepers), so the blocks start at once, where a calling
thread that computes without pause waits behind every other busy process (measured on 2 cores at
load 17: a small CNN's call 4-6 ms this way, 15 ms computing on the calling thread, 45 ms with no
helpers). The caller never depends on a helper being scheduled, though: after HANDOFF_SECONDS it takes
blocks itself, one at a time, from the shared counter, and once none is left it waits only for the
blocks a helper has already started; so where no helper runs, a call costs what one thread costs plus
HANDOFF_SECONDS. (The BLAS's own thread pool instead splits every product over all its workers and
waits for each of them.)

Sharing is not always faster. Each block is a dozen NumPy calls, and between them a thread needs
the GIL: on an idle machine the two threads' hand-offs of the GIL can cost more than the second core
gains (measured on 2 idle cores: a small CNN's batch of 64 took 5.9-7.7 ms shared, 3.9-4.0 ms on
the calling thread alone), while on a busy one sharing wins by far (above). So each call site (the
block function's code, the block count and the caller's shapes) times its calls both ways and runs
the faster: the first call runs on the calling thread, the second shared, then the way whose recent
wall times (a moving average) are lower, trying the other once every EXPLORE_EVERY calls so a change
in the machine's load is noticed. The blocks and their results are the same either way.

The number of threads is `tf.config.threading`'s intra-op count when one is set (1: no helpers),
otherwise the cores this process may run on, capped by the first of ENVIRONMENT_LIMITS that is set
(a process told to keep its BLAS or TensorFlow to one thread keeps these blocks to one as well).
Helpers are daemon threads started on first use and started anew in a forked child.
"""
from __future__ import annotations

import itertools
import os
import threading
import time

from ...core.threads import get_intra_op_parallelism_threads

MAX_THREADS = 8  # beyond this, memory bandwidth rather than cores limits these blocks
HANDOFF_SECONDS = 0.001  # how long the caller sleeps before it takes blocks itself (see above)
ENVIRONMENT_LIMITS = ("TF_NUM_INTRAOP_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
EXPLORE_EVERY = 32  # calls of a site between two tries of the way it is not using
SMOOTHING = 0.3  # weight of the newest wall time in a site's moving averages
MAX_SITES = 512  # call sites remembered; more (a program of ever new shapes) starts the record afresh
_lock = threading.Lock()
_helpers = {"pid": None, "started": 0, "jobs": None}
_sites = {}
_clock = time.perf_counter  # tests drive the choice with their own clock


def thread_count() -> int:
    """Threads one call may use: the intra-op count if set, else the cores available to this process."""
    set_count = get_intra_op_parallelism_threads()
    if set_count:
        return min(set_count, MAX_THREADS)
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    for name in ENVIRONMENT_LIMITS:
        value = os.environ.get(name, "").strip()
        if value.isdigit() and int(value) > 0:
            cores = min(cores, int(value))
            break
    return max(1, min(cores, MAX_THREADS))


class _Job:
    """`count` calls of `fn(i)`; whoever runs takes the next index until none is left."""

    __slots__ = ("fn", "count", "_next", "_left", "_lock", "_done", "error")

    def __init__(self, fn, count):
        self.fn, self.count = fn, count
        self._next = itertools.count()  # next() on it is atomic under the GIL
        self._left = count
        self._lock = threading.Lock()
        self._done = threading.Event()
        self.error = None

    def drain(self):
        while True:
            i = next(self._next)
            if i >= self.count:
                return
            try:
                self.fn(i)
            except BaseException as error:  # re-raised on the calling thread
                if self.error is None:
                    self.error = error
            with self._lock:
                self._left -= 1
                if self._left == 0:
                    self._done.set()

    def wait_for_helpers(self, seconds) -> bool:
        """Sleeps until every block is done or `seconds` passed; whether all are done."""
        return self._done.wait(seconds)

    def wait(self):
        self._done.wait()
        self.fn = None  # a helper that takes this job from the queue later finds no block left; the arrays go now
        if self.error is not None:
            raise self.error


def _forget_helpers_in_child():
    """A forked child has none of its parent's threads, and a lock a parent thread held stays held."""
    global _lock
    _lock = threading.Lock()
    _helpers.update(pid=None, started=0, jobs=None)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_helpers_in_child)


def _helper_loop(jobs):
    while True:
        jobs.get().drain()


def _job_queue(helpers):
    """The queue helper threads read from, with at least `helpers` of them running in this process."""
    with _lock:
        if _helpers["pid"] != os.getpid():  # first use, or a forked child: its parent's threads are gone
            import queue  # here, not at import: `import eagerflow` loads this module, and most programs never block
            _helpers.update(pid=os.getpid(), started=0, jobs=queue.SimpleQueue())
        while _helpers["started"] < helpers:
            threading.Thread(target=_helper_loop, args=(_helpers["jobs"],), daemon=True,
                             name=f"eagerflow-blocks-{_helpers['started']}").start()
            _helpers["started"] += 1
        return _helpers["jobs"]


class CallSite:
    """Which way a call site runs its blocks: the moving averages of its wall times on the calling
    thread alone and shared with helpers (None until tried), and its calls so far."""

    __slots__ = ("calls", "alone", "shared")

    def __init__(self):
        self.calls, self.alone, self.shared = 0, None, None

    def share_next(self) -> bool:
        self.calls += 1
        if self.alone is None:
            return False
        if self.shared is None:
            return True
        faster = self.shared < self.alone
        return faster != (self.calls % EXPLORE_EVERY == 0)  # the other way, now and then

    def record(self, shared: bool, seconds: float):
        before = self.shared if shared else self.alone
        after = seconds if before is None else before + SMOOTHING * (seconds - before)
        if shared:
            self.shared = after
        else:
            self.alone = after


def _site(fn, count, key) -> CallSite:
    name = (getattr(fn, "__code__", None), count, key)
    site = _sites.get(name)
    if site is None:
        if len(_sites) >= MAX_SITES:
            _sites.clear()
        site = _sites[name] = CallSite()
    return site


def run_blocks(fn, count: int, key=None) -> None:
    """Calls `fn(i)` for every i in range(count), on this thread alone or shared with helper threads
    (whichever this call site found faster, see above); returns when all are done (re-raising the
    first error). `fn` must only write what block i owns. `key`: what else tells the caller's call
    sites apart (shapes; plain values only, it is kept)."""
    threads = min(thread_count(), count) if count > 1 else count  # one block: nothing to share
    if threads <= 1:
        for i in range(count):
            fn(i)
        return
    site = _site(fn, count, key)
    shared = site.share_next()
    start = _clock()
    if shared:
        _run_shared(fn, count, threads)
    else:
        for i in range(count):
            fn(i)
    site.record(shared, _clock() - start)


def _run_shared(fn, count, threads):
    job = _Job(fn, count)
    jobs = _job_queue(threads)
    for _ in range(threads):
        jobs.put(job)
    if not job.wait_for_helpers(HANDOFF_SECONDS):
        job.drain()
    job.wait()
