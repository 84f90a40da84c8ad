"""Tracing from many threads: no deadlock, one trace per key, different keys in parallel.

Every wait has a timeout, so a deadlock fails the test instead of hanging the suite (the threads
are daemons: a stuck one does not keep the interpreter alive)."""
import threading

import numpy as np

from tests.threads import fast_thread_switches  # noqa: F401  (a fixture)

import eagerflow as tf

TIMEOUT = 20


class _SignalsItsWaiters(threading.Event):
    """An in-flight trace's `done` event that tells the test when a thread starts waiting on it
    (`_wait_for` registers the waiter first, then waits): ordering by this event, not by sleeping,
    keeps the race a test claims to exercise from passing untested on a loaded machine."""

    def __init__(self):
        super().__init__()
        self.waited = threading.Event()

    def wait(self, timeout=None):
        self.waited.set()
        return super().wait(timeout)


def _run_threads(targets):
    errors = []

    def guarded(target):
        try:
            target()
        except BaseException as exc:  # noqa: BLE001 - reported by the test below
            errors.append(exc)
    threads = [threading.Thread(target=guarded, args=(t,), daemon=True) for t in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    assert not any(t.is_alive() for t in threads), "deadlock: a thread is still tracing"
    assert not errors, errors


def test_two_functions_tracing_each_other_from_two_threads_do_not_deadlock():
    both_tracing = threading.Barrier(2, timeout=TIMEOUT)

    @tf.function
    def f(x, n):
        if n > 0:
            both_tracing.wait()  # f and g are being traced at the same time, in two threads
            return g(x, n - 1) + 1.0
        return x

    @tf.function
    def g(x, n):
        if n > 0:
            both_tracing.wait()
            return f(x, n - 1) * 2.0
        return x

    results = {}
    x = tf.constant(1.0)
    _run_threads([lambda: results.setdefault("f", f(x, 1).numpy()),
                  lambda: results.setdefault("g", g(x, 1).numpy())])
    assert results == {"f": 2.0, "g": 2.0}


def test_concurrent_first_calls_with_one_key_trace_once(monkeypatch):
    """Eight first calls with one key: one thread traces, the seven others wait for its trace. The
    trace holds until all seven are waiting on it (a barrier), so the test cannot pass by the others
    simply arriving after the trace is done, however loaded the machine."""
    from eagerflow._src.trace import cache

    callers = 8
    all_arrived = threading.Barrier(callers, timeout=TIMEOUT)  # the tracing thread + the seven waiters

    class CountedWait(threading.Event):
        def wait(self, timeout=None):
            all_arrived.wait()  # a waiter, registered as waiting on the trace in flight
            return super().wait(timeout)

    class CountedFlight(cache._InFlight):
        def __init__(self):
            super().__init__()
            self.done = CountedWait()

    monkeypatch.setattr(cache, "_InFlight", CountedFlight)
    traced = []

    @tf.function
    def slow(x):
        traced.append(threading.get_ident())
        all_arrived.wait()  # at trace time: until every other thread waits for this trace
        return x * 2.0

    x = tf.constant([1.0, 2.0])
    out = []
    _run_threads([lambda: out.append(slow(x).numpy()) for _ in range(callers)])
    assert len(traced) == 1
    assert slow.experimental_get_tracing_count() == 1
    assert len(out) == callers
    for o in out:
        np.testing.assert_array_equal(o, [2.0, 4.0])


def test_different_keys_trace_in_parallel():
    both_tracing = threading.Barrier(2, timeout=TIMEOUT)  # broken (an error) if the traces ran one by one

    @tf.function
    def f(x):
        both_tracing.wait()
        return x + 1.0

    out = {}
    _run_threads([lambda: out.setdefault(1, f(tf.ones([1])).numpy()),
                  lambda: out.setdefault(2, f(tf.ones([2])).numpy())])
    assert out[1].tolist() == [2.0] and out[2].tolist() == [2.0, 2.0]
    assert f.cache_info().currsize == 2


def test_many_threads_calling_a_traced_function():
    @tf.function
    def f(x, k):
        return x * k

    def worker(k):
        def run():
            for i in range(50):
                x = tf.ones([1 + i % 3])
                np.testing.assert_array_equal(f(x, k).numpy(), np.full(1 + i % 3, k))
        return run
    _run_threads([worker(k) for k in range(4)])
    assert f.experimental_get_tracing_count() == 12  # 3 shapes x 4 values of k, each once


def test_a_wait_that_would_close_a_cycle_is_refused():
    from eagerflow._src.trace import cache

    mine = cache._InFlight()  # a key this thread is tracing
    mine.done = _SignalsItsWaiters()
    theirs = {}
    other_waiting = threading.Event()
    outcome = {}

    def other():
        theirs["flight"] = cache._InFlight()  # the other thread traces another key ...
        other_waiting.set()
        outcome["other"] = cache._wait_for(mine)  # ... and waits for this thread's key

    t = threading.Thread(target=other, daemon=True)
    t.start()
    assert other_waiting.wait(TIMEOUT)
    assert mine.done.waited.wait(TIMEOUT)  # the other thread is registered as waiting on `mine`
    assert cache._wait_for(theirs["flight"]) is False  # waiting now would deadlock: refused at once
    mine.done.set()
    t.join(TIMEOUT)
    assert outcome == {"other": True}


def test_a_waiter_released_by_the_tracing_thread_finds_its_trace(monkeypatch):
    """The tracing thread stalls right after it releases the threads waiting for its key. They must
    find its trace then; they used to find nothing, trace again and, for a function creating a
    variable from its argument, keep a second graph that reads the variable without initializing it
    (InvalidArgumentError "unsupported operand type(s) for +: 'NoneType' and 'float'" at `self.v + x`,
    the intermittent failure of tests/state/test_variable_threads.py under load)."""
    from eagerflow._src.trace import cache

    a_call_returned = threading.Event()
    stalled = []

    class StallAfterRelease(_SignalsItsWaiters):
        def set(self):
            super().set()
            if not stalled:  # the first trace's release only: the releasing thread waits for a waiter's call
                stalled.append(True)
                a_call_returned.wait(TIMEOUT)

    flights = []

    class StalledFlight(cache._InFlight):
        def __init__(self):
            super().__init__()
            self.done = StallAfterRelease()
            flights.append(self)

    monkeypatch.setattr(cache, "_InFlight", StalledFlight)
    created = []

    class Lazy(tf.Module):
        def __init__(self):
            self.v = None

        def __call__(self, x):
            if self.v is None:
                assert flights[0].done.waited.wait(TIMEOUT)  # at the first trace: the other thread waits for it
                self.v = tf.Variable(x * 2.0)
                created.append(self.v)
            return self.v + x

    f = tf.function(Lazy().__call__)
    x = tf.constant([1.0, 2.0])
    out = []

    def call():
        try:
            out.append(f(x).numpy())
        finally:
            a_call_returned.set()
    _run_threads([call, call])
    assert len(created) == 1 and f.experimental_get_tracing_count() == 2  # the first trace and its retrace
    for o in out:
        np.testing.assert_array_equal(o, [3.0, 6.0])


def test_lru_touches_on_the_hot_path_never_break_a_lookup_walking_the_traces(fast_thread_switches):
    """Cached calls alternating between traces move them in the LRU order without the lock; a
    miss in another thread walks the same order under the lock (get_concrete_function keys are
    found by that walk). With every bytecode of the walk yielding, an unguarded move raised
    "OrderedDict mutated during iteration" in the walking thread."""
    from eagerflow._src.trace.cache import TraceCache
    from tests.threads import in_threads, yield_between_opcodes_of

    @tf.function
    def f(x):
        return x + 1

    shapes = [tf.constant(np.zeros(n, np.float32)) for n in range(1, 9)]
    for s in shapes:
        f(s)

    def work(i):
        if i == 0:  # misses: new shapes, each walking the traces under the lock
            for n in range(20, 60):
                f.get_concrete_function(tf.TensorSpec([n], tf.float32))
                f(tf.constant(np.zeros(n, np.float32)))
        else:  # hits alternating between traces: each one an LRU touch
            for _ in range(300):
                for s in shapes[i % 2::2]:
                    f(s)
        return True

    trace = yield_between_opcodes_of(TraceCache.find.__code__, TraceCache._trace_of.__code__)
    assert in_threads(work, 4, trace=trace) == [True] * 4
