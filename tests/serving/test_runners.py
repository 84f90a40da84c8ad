"""How requests' model calls are run: the direct runner runs a call on the event loop only once its calls
are measured short (a slow or unmeasured one goes to a worker thread), and the batcher hands results to an
awaiting event loop without a thread per waiting request."""
import asyncio
import sys
import threading
import time

import numpy as np
import pytest

from eagerflow.serving.batching import BatchQueue
from eagerflow.serving.config import BatchingParameters
from eagerflow.serving import runners
from eagerflow.serving.errors import ServingError
from eagerflow.serving.runners import INLINE_CALL_SECONDS, CallCost, DirectRunner, timed_call


class ThreadRecordingSignature:
    """y = x + 1, recording the thread of each call; `sleep` seconds per call."""
    key = "serving_default"

    def __init__(self, sleep=0.0):
        self.sleep = sleep
        self.threads = []
        self.calls = []
        self.cost = CallCost()

    def check_inputs(self, arrays):
        if arrays["x"].dtype != np.float32:
            raise ServingError("INVALID_ARGUMENT", "x must be float32")

    def run(self, arrays):
        self.threads.append(threading.current_thread())
        self.calls.append(arrays["x"].shape[0])
        if self.sleep:
            time.sleep(self.sleep)
        return {"y": arrays["x"] + 1}


def test_call_cost_is_slow_until_measured_and_forgets_a_slow_call_gradually():
    cost = CallCost()
    assert not cost.is_short()
    cost.note(INLINE_CALL_SECONDS / 10)
    assert cost.is_short()
    cost.note(INLINE_CALL_SECONDS * 2)  # one slow call: slow at once
    assert not cost.is_short()
    calls = 0
    while not cost.is_short():
        cost.note(0.0)
        calls += 1
    assert calls == 7  # 2 * 0.9**7 = 0.96 < 1 <= 2 * 0.9**6


def test_direct_runner_runs_unmeasured_and_slow_calls_in_threads_and_short_ones_inline():
    async def main(signature, small=True):
        return await DirectRunner().run_async("m", None, signature, {"x": np.ones((1, 2), np.float32)}, small)

    quick = ThreadRecordingSignature()
    for _ in range(3):
        assert asyncio.run(main(quick))["y"].tolist() == [[2.0, 2.0]]
    loop_thread = threading.current_thread()
    assert quick.threads[0] is not loop_thread  # not measured yet: a worker thread
    assert quick.threads[1:] == [loop_thread, loop_thread]
    asyncio.run(main(quick, small=False))  # a large request: a worker thread whatever the cost
    assert quick.threads[-1] is not loop_thread
    slow = ThreadRecordingSignature(sleep=INLINE_CALL_SECONDS * 5)
    for _ in range(3):
        asyncio.run(main(slow))
    assert loop_thread not in slow.threads


def test_async_submissions_are_merged_into_one_call_and_answered_on_the_loop():
    signature = ThreadRecordingSignature()
    queue = BatchQueue("m", signature, BatchingParameters(max_batch_size=4, batch_timeout_micros=2_000_000))

    async def main():
        loop = asyncio.get_running_loop()
        futures = [queue.submit_async({"x": np.full((1, 1), i, np.float32)}, loop) for i in range(4)]
        return await asyncio.gather(*futures)

    results = asyncio.run(main())
    assert signature.calls == [4]  # full at 4 rows, long before the 2 s timeout
    assert [r["y"].tolist() for r in results] == [[[1.0]], [[2.0]], [[3.0]], [[4.0]]]
    assert threading.current_thread() not in signature.threads  # the model ran in the batch worker
    queue.stop()


def test_async_submission_errors_reach_the_awaiting_request():
    signature = ThreadRecordingSignature()
    queue = BatchQueue("m", signature, BatchingParameters(max_batch_size=4, batch_timeout_micros=1000))

    async def main(x):
        return await queue.submit_async({"x": x}, asyncio.get_running_loop())

    with pytest.raises(ServingError, match="x must be float32"):  # checked before it joins a batch
        asyncio.run(main(np.ones((1, 1), np.float64)))
    with pytest.raises(ServingError, match="^Task size 5 is larger than maximum input batch size 4$"):
        asyncio.run(main(np.ones((5, 1), np.float32)))
    assert asyncio.run(main(np.ones((2, 1), np.float32)))["y"].tolist() == [[2.0], [2.0]]
    assert signature.calls == [2]
    queue.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread context switch counts: Linux")
def test_a_call_costs_its_cpu_time_unless_it_waited():
    _, seconds, cost = timed_call(time.sleep, INLINE_CALL_SECONDS * 3)  # a wait: its wall time
    assert cost == seconds >= INLINE_CALL_SECONDS * 3
    _, seconds, cost = timed_call(sum, range(100_000))  # computing only: its CPU time, at most the wall time
    assert 0 < cost <= seconds + 1e-3  # the two clocks differ by their resolutions


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread context switch counts: Linux")
def test_a_short_call_kept_off_the_cpu_by_other_work_still_runs_inline(monkeypatch):
    """A call that takes 3 ms of wall time but almost no CPU time and never waits (what a preempted call looks
    like: the waits are counted as none here, the sleep stands for the time another process held the CPU)."""
    monkeypatch.setattr(runners, "_waits", lambda: 0)

    async def main(signature):
        return await DirectRunner().run_async("m", None, signature, {"x": np.ones((1, 2), np.float32)})

    preempted = ThreadRecordingSignature(sleep=INLINE_CALL_SECONDS * 3)
    for _ in range(3):
        asyncio.run(main(preempted))
    loop_thread = threading.current_thread()
    assert preempted.threads[1:] == [loop_thread, loop_thread]
    assert preempted.cost.seconds < INLINE_CALL_SECONDS
