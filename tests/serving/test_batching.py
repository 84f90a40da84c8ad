"""The batcher on its own (a recording signature stands in for a model): concurrent tasks merged
into one call and split back, padding to an allowed batch size, TensorFlow Serving's errors for a
task above max_batch_size and for a full queue."""
import threading
import time

import numpy as np
import pytest

from eagerflow.serving.batching import BatchQueue
from eagerflow.serving.config import BatchingParameters
from eagerflow.serving.errors import ServingError
from eagerflow.serving.metrics import Metrics


class RecordingSignature:
    """y = 2 * x + row index within the call (so a wrong split shows); records each call's rows."""
    key = "serving_default"

    def __init__(self, gate=None):
        self.calls = []
        self.gate = gate
        self.entered = threading.Event()

    def check_inputs(self, arrays):
        pass

    def run(self, arrays):
        self.entered.set()
        if self.gate is not None:
            self.gate.wait(30)
        x = arrays["x"]
        self.calls.append(x.shape[0])
        return {"y": 2 * x, "index": np.arange(x.shape[0])}


def _submit_concurrently(queue, values):
    results, errors = [None] * len(values), []
    start = threading.Barrier(len(values))

    def client(i):
        start.wait()
        try:
            results[i] = queue.submit({"x": np.array([[values[i]]], np.float32)})
        except ServingError as err:
            errors.append(err)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(values))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results, errors


def test_concurrent_tasks_are_merged_into_one_call_and_split_back():
    signature = RecordingSignature()
    metrics = Metrics()
    queue = BatchQueue("m", signature, BatchingParameters(max_batch_size=4, batch_timeout_micros=2_000_000),
                       metrics)
    results, errors = _submit_concurrently(queue, [1.0, 2.0, 3.0, 4.0])
    assert not errors and signature.calls == [4]  # full at 4 rows: closed before the 2 s timeout
    assert sorted(float(r["y"][0, 0]) for r in results) == [2.0, 4.0, 6.0, 8.0]
    for value, result in zip([1.0, 2.0, 3.0, 4.0], results):
        assert result["y"].tolist() == [[2 * value]]
    assert sorted(int(r["index"][0]) for r in results) == [0, 1, 2, 3]
    text = metrics.prometheus_text()
    assert ':eagerflow:serving:batches_total{model_name="m"} 1' in text
    assert ':eagerflow:serving:batch_size_sum{model_name="m"} 4' in text
    queue.stop()


def test_rows_are_padded_to_the_next_allowed_batch_size():
    signature = RecordingSignature()
    params = BatchingParameters(max_batch_size=4, batch_timeout_micros=300_000, allowed_batch_sizes=(2, 4))
    queue = BatchQueue("m", signature, params)
    results, errors = _submit_concurrently(queue, [1.0, 2.0, 3.0])
    assert not errors and signature.calls == [4]
    assert sorted(float(r["y"][0, 0]) for r in results) == [2.0, 4.0, 6.0]
    queue.stop()


def test_a_task_above_max_batch_size_is_invalid():
    queue = BatchQueue("m", RecordingSignature(), BatchingParameters(max_batch_size=4))
    with pytest.raises(ServingError, match="^Task size 5 is larger than maximum input batch size 4$") as info:
        queue.submit({"x": np.zeros((5, 1), np.float32)})
    assert info.value.code == "INVALID_ARGUMENT"
    queue.stop()


def test_a_full_queue_answers_resource_exhausted():
    gate = threading.Event()
    signature = RecordingSignature(gate)
    queue = BatchQueue("m", signature, BatchingParameters(max_batch_size=1, max_enqueued_batches=1))
    first = threading.Thread(target=queue.submit, args=({"x": np.zeros((1, 1), np.float32)},))
    first.start()
    assert signature.entered.wait(30)  # the worker holds the first batch (blocked in the model)
    second = threading.Thread(target=queue.submit, args=({"x": np.zeros((1, 1), np.float32)},))
    second.start()
    deadline = time.monotonic() + 30
    while len(queue._closed) < 1 and time.monotonic() < deadline:  # the second batch waits in the queue
        time.sleep(0.01)
    with pytest.raises(ServingError, match="queue to which this task was submitted is full") as info:
        queue.submit({"x": np.zeros((1, 1), np.float32)})
    assert info.value.code == "RESOURCE_EXHAUSTED" and info.value.http_status == 429
    gate.set()
    first.join(30)
    second.join(30)
    assert signature.calls == [1, 1]
    queue.stop()


def test_idle_workers_end_and_come_back_and_a_stopped_queue_still_answers(monkeypatch):
    from eagerflow.serving import batching
    monkeypatch.setattr(batching, "IDLE_SECONDS", 0.05)
    queue = BatchQueue("m", RecordingSignature(), BatchingParameters(max_batch_size=4, num_batch_threads=2))
    assert queue.submit({"x": np.ones((1, 1), np.float32)})["y"].tolist() == [[2.0]]
    deadline = time.monotonic() + 30
    while queue._workers and time.monotonic() < deadline:
        time.sleep(0.01)
    assert queue._workers == 0
    queue.stop()  # its version was unloaded while a request still held it: the request is answered
    assert queue.submit({"x": np.full((2, 1), 3, np.float32)})["y"].tolist() == [[6.0], [6.0]]


def test_with_no_batch_timeout_a_lone_task_runs_at_once_and_later_arrivals_still_merge():
    """batch_timeout_micros 0 (TensorFlow Serving: a batch is formed once its first task has waited that long
    and a batch thread is free): the first task's batch runs alone at once; the tasks that arrive while it
    runs wait for the thread and are merged into the next call."""
    gate = threading.Event()
    signature = RecordingSignature(gate)
    queue = BatchQueue("m", signature, BatchingParameters(max_batch_size=8, batch_timeout_micros=0, num_batch_threads=1))
    first = {}
    lone = threading.Thread(target=lambda: first.update(queue.submit({"x": np.array([[1.0]], np.float32)})))
    lone.start()
    assert signature.entered.wait(10)  # the lone task's call started without waiting for company
    later = threading.Thread(target=lambda: _submit_concurrently(queue, [2.0, 3.0, 4.0]))
    later.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (queue._open is None or len(queue._open.tasks) < 3):
        time.sleep(0.01)  # the three join one open batch while the thread is busy
    gate.set()
    lone.join(30)
    later.join(30)
    assert signature.calls == [1, 3] and first["y"].tolist() == [[2.0]]
    queue.stop()
