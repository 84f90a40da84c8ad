"""Where a server's CPU time goes, for its developers: with EAGERFLOW_SERVE_PROFILE=FILE in the environment,
`eagerflow serve` runs Python's deterministic profiler (cProfile) on each thread that starts once it serves
(the event loop, Starlette's and gRPC's worker threads, the batch threads) and writes their merged
statistics to FILE when it stops (pstats' format: `python -m pstats FILE`). Each thread's CPU time is
counted, not wall time, so a thread waiting for work costs nothing. The profiler roughly doubles the cost
of Python-heavy code, so its numbers say where the time goes relative to the rest, never how fast the
server is (bench/serving_load.py measures that, without it).

Not a TensorFlow Serving flag: an environment variable, so the command's flags stay TensorFlow Serving's.
"""
from __future__ import annotations

import os
import threading
import time

ENVIRONMENT_VARIABLE = "EAGERFLOW_SERVE_PROFILE"


class ThreadProfiles:
    """One cProfile.Profile per thread, each enabled by the first Python event of its thread (threading's
    setprofile hook) and merged when written."""

    def __init__(self, path: str):
        import cProfile
        self.path = path
        self._new = lambda: cProfile.Profile(time.thread_time)  # CPU time: a thread waiting costs nothing
        self._profiles = []
        self._lock = threading.Lock()

    def start(self):
        threading.setprofile(self._start_in_thread)
        self._start_in_thread()

    def _start_in_thread(self, *unused):
        profile = self._new()
        with self._lock:
            self._profiles.append(profile)
        profile.enable()  # replaces this hook for the thread: it runs once per thread

    def write(self):
        """Stops profiling the calling thread and writes every thread's statistics so far to `path`
        (through a temporary name, renamed when complete)."""
        import pstats
        threading.setprofile(None)
        with self._lock:
            profiles = list(self._profiles)
        stats = None
        for profile in profiles:
            profile.create_stats()  # another thread's profile keeps running there: its statistics so far
            if not profile.stats:
                continue
            stats = pstats.Stats(profile) if stats is None else stats.add(profile)
        if stats is None:
            return
        partial = f"{self.path}.partial"
        stats.dump_stats(partial)
        os.replace(partial, self.path)


def from_environment():
    """The started profiler EAGERFLOW_SERVE_PROFILE asks for, or None."""
    path = os.environ.get(ENVIRONMENT_VARIABLE)
    if not path:
        return None
    profiles = ThreadProfiles(os.path.abspath(path))
    profiles.start()
    return profiles
