"""Summary writers and the per-thread summary state: the default writer, the step, `record_if`.

`create_file_writer(logdir)` opens `events.out.tfevents.<time>.<host>.<pid>.<n>.v2` in `logdir`
and writes the `brain.Event:2` header record at once, as TensorFlow does. Records are queued and
written when `max_queue` (10) are waiting, when `flush_millis` (2 min) have passed since the last
write, on `flush()`/`close()`, and when the writer is collected or the program exits.

As in TensorFlow, the default writer, the default step and the `record_if` condition belong to
the thread that sets them (`writer.as_default()` in one thread does not make other threads write).
A summary op traced inside tf.function keeps the writer that was the default while tracing.
"""
from __future__ import annotations

import contextlib
import itertools
import os
import threading
import time
import weakref

from . import messages, records

_file_numbers = itertools.count()


class _State(threading.local):
    def __init__(self):
        self.writer = None
        self.step = None
        self.conditions = []  # record_if stack, innermost last


state = _State()


class _EventFile:
    """The open file and the queue of framed records waiting for it; what a writer's finalizer
    flushes, so it must not refer to the writer."""

    def __init__(self, path, max_queue, flush_secs):
        self.path = path
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.pending = []
        self.lock = threading.Lock()
        self.last_write = time.monotonic()
        self.file = open(path, "ab")

    def add(self, data: bytes):
        with self.lock:
            if self.file is None:
                return False
            self.pending.append(records.frame(data))
            if len(self.pending) >= self.max_queue or time.monotonic() - self.last_write >= self.flush_secs:
                self._write()
            return True

    def _write(self):
        if self.pending:
            self.file.write(b"".join(self.pending))
            self.pending.clear()
        self.file.flush()
        self.last_write = time.monotonic()

    def flush(self):
        with self.lock:
            if self.file is not None:
                self._write()

    def close(self):
        with self.lock:
            if self.file is not None:
                self._write()
                self.file.close()
                self.file = None


class SummaryWriter:
    """Writes summaries to one event file. Make it the default with `as_default()` (a context
    manager) or `set_as_default()`; summary ops write to the default writer."""

    def __init__(self, logdir, max_queue=None, flush_millis=None, filename_suffix=None):
        import socket  # here, not at the top: `import eagerflow` need not load the network stack
        logdir = os.fspath(logdir)
        os.makedirs(logdir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_file_numbers)}.v2{filename_suffix or ''}")
        self.logdir = logdir
        self._file = _EventFile(os.path.join(logdir, name), 10 if max_queue is None else max(1, max_queue),
                                120.0 if flush_millis is None else flush_millis / 1000.0)
        self._finalizer = weakref.finalize(self, self._file.close)
        self._file.add(messages.event(time.time(), file_version="brain.Event:2"))
        self._file.flush()

    @property
    def path(self) -> str:
        """The event file this writer writes."""
        return self._file.path

    def write_event(self, step, *, summary_values=(), graph_def=None) -> bool:
        """Queues one Event; False once the writer is closed."""
        return self._file.add(messages.event(time.time(), int(step), summary_values=summary_values,
                                             graph_def=graph_def))

    def set_as_default(self, step=None):
        """Makes this the default writer of the calling thread (and `step` its default step)."""
        state.writer = self
        if step is not None:
            state.step = step

    @contextlib.contextmanager
    def as_default(self, step=None):
        """Within the block this is the default writer (and `step` the default step); the previous
        default comes back after it, and the writer is flushed."""
        previous = state.writer, state.step
        self.set_as_default(step)
        try:
            yield self
        finally:
            state.writer = previous[0]
            if step is not None:
                state.step = previous[1]
            self.flush()

    def init(self):
        """Nothing to do: the file was opened when the writer was made (TensorFlow's API)."""

    def flush(self):
        self._file.flush()

    def close(self):
        """Flushes and closes the file; later summaries to this writer are not written."""
        self._file.close()

    def __repr__(self):
        return f"<SummaryWriter {self.path!r}>"


class NoopSummaryWriter(SummaryWriter):
    """A writer that writes nothing (tf.summary.create_noop_writer)."""

    def __init__(self):
        self.logdir = None

    path = None

    def write_event(self, step, *, summary_values=(), graph_def=None) -> bool:
        return False

    def flush(self):
        pass

    def close(self):
        pass

    def __repr__(self):
        return "<NoopSummaryWriter>"


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None) -> SummaryWriter:
    """A SummaryWriter writing an event file in `logdir` (created if missing)."""
    if logdir is None:
        raise ValueError("Expected logdir to be a string, got None")
    return SummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer() -> SummaryWriter:
    return NoopSummaryWriter()


def flush(writer=None, name=None):
    """Flushes `writer`, or the default writer."""
    writer = writer if writer is not None else state.writer
    if writer is not None:
        writer.flush()


# --- the default step (tf.summary.experimental.set_step / get_step) ---

def set_step(step):
    """The step summaries use when called without one (a Python int, a tensor or a tf.Variable,
    read when the summary is written)."""
    state.step = step


def get_step():
    return state.step


# --- record_if / should_record_summaries ---

@contextlib.contextmanager
def record_if(condition):
    """Summaries inside the block are written only when `condition` holds: a Python bool, an eager
    boolean tensor, or a callable returning one (called each time a summary would be written, so
    inside tf.function it is checked when the function runs, not when it is traced)."""
    state.conditions.append(condition)
    try:
        yield
    finally:
        state.conditions.pop()


def current_condition():
    """The innermost record_if condition (True outside any)."""
    return state.conditions[-1] if state.conditions else True


def evaluate_condition(condition) -> bool:
    if callable(condition):
        condition = condition()
    if hasattr(condition, "numpy"):
        condition = condition.numpy()
    return bool(condition)
