"""A live server under concurrent clients: batching merges their requests (counted by the Prometheus
metrics), and a new version swaps in while 8 clients keep asking, with no failed request and every
answer from one whole version."""
import threading
import time

import numpy as np
import pytest

pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")
pytest.importorskip("starlette", reason="eagerflow[serve] is not installed")

from .models import affine_expected, save_affine  # noqa: E402
from .server import Server  # noqa: E402

CLIENTS = 8




def test_batching_merges_concurrent_requests_and_metrics_count_them(tmp_path):
    save_affine(tmp_path / "m" / "1", 1.0)
    (tmp_path / "batching.config").write_text(
        "max_batch_size { value: 8 } batch_timeout_micros { value: 20000 } num_batch_threads { value: 1 }")
    (tmp_path / "monitoring.config").write_text("prometheus_config { enable: true }")
    server = Server("--model_name=m", f"--model_base_path={tmp_path / 'm'}", "--enable_batching",
                    f"--batching_parameters_file={tmp_path / 'batching.config'}",
                    f"--monitoring_config_file={tmp_path / 'monitoring.config'}", cwd=tmp_path)
    try:
        answers, failures = [], []

        def client(i):
            for _ in range(6):
                status, body = server.request("/v1/models/m:predict", {"instances": [[float(i), 1.0]]})
                if status == 200:
                    answers.append((i, body["predictions"][0]))
                else:
                    failures.append((status, body))

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert not failures and len(answers) == CLIENTS * 6
        for i, prediction in answers:
            np.testing.assert_allclose(prediction, affine_expected([[i, 1.0]])[0], rtol=1e-6)
        status, text = server.request("/monitoring/prometheus/metrics")
        assert status == 200
        lines = dict(line.rsplit(" ", 1) for line in text.splitlines() if not line.startswith("#"))
        assert lines[':tensorflow:serving:request_count{model_name="m",status="OK"}'] == str(CLIENTS * 6)
        assert lines[':tensorflow:serving:request_latency_count{model_name="m",API="predict",entrypoint="REST"}'] \
            == str(CLIENTS * 6)
        assert lines[':eagerflow:serving:batch_size_sum{model_name="m"}'] == str(CLIENTS * 6)
        batches = int(lines[':eagerflow:serving:batches_total{model_name="m"}'])
        assert batches < CLIENTS * 6, "no two requests were merged"
        assert server.request("/v1/models/m:predict", {"instances": [[1, "x"]]})[0] == 400
        text = server.request("/monitoring/prometheus/metrics")[1]
        assert ':tensorflow:serving:request_count{model_name="m",status="INVALID_ARGUMENT"} 1' in text
    finally:
        assert server.stop() == 0, server.output()


@pytest.mark.parametrize("batching", [False, True], ids=["direct", "batching"])
def test_a_new_version_takes_over_under_load_without_a_failed_request(tmp_path, batching):
    base = tmp_path / "m"
    save_affine(base / "1", 1.0)
    flags = ["--enable_batching"] if batching else []
    server = Server("--model_name=m", f"--model_base_path={base}", "--file_system_poll_wait_seconds=0.2", *flags,
                    cwd=tmp_path)
    seen_v2 = threading.Event()
    try:
        def swap():
            time.sleep(0.5)
            save_affine(tmp_path / "staging", 2.0)
            (tmp_path / "staging").rename(base / "2")  # a version folder appears whole, as TF Serving asks

        swapper = threading.Thread(target=swap)
        swapper.start()
        answers, failures = [], []
        # clients run until every one of them has seen version 2 answer a few times
        v2_counts = {}

        def done():
            return len(v2_counts) == CLIENTS and min(v2_counts.values()) >= 3

        def client(i):
            x = [[float(i), 1.0]]
            deadline = time.monotonic() + 90
            while not done() and time.monotonic() < deadline:
                status, body = server.request("/v1/models/m:predict", {"instances": x})
                if status != 200:
                    failures.append((status, body))
                    continue
                prediction = np.array(body["predictions"][0])
                answers.append(prediction)
                if np.allclose(prediction, affine_expected(x, 2.0)[0], rtol=1e-6):
                    v2_counts[i] = v2_counts.get(i, 0) + 1
                    seen_v2.set()
                else:
                    np.testing.assert_allclose(prediction, affine_expected(x, 1.0)[0], rtol=1e-6)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        swapper.join()
        assert not failures, failures[:3]
        assert seen_v2.is_set() and done()
        status, body = server.request("/v1/models/m")
        assert [(s["version"], s["state"]) for s in body["model_version_status"]] == [("2", "AVAILABLE"), ("1", "END")]
    finally:
        assert server.stop() == 0, server.output()


def test_a_waiting_request_blocks_nothing_and_sigterm_lets_it_finish(tmp_path):
    """A request held 3 s in the batch queue: other requests are answered meanwhile (the event loop is free),
    and SIGTERM during the wait lets it finish with its answer before the server exits with status 0."""
    save_affine(tmp_path / "m" / "1", 1.0)
    (tmp_path / "batching.config").write_text("max_batch_size { value: 64 } batch_timeout_micros { value: 3000000 }")
    server = Server("--model_name=m", f"--model_base_path={tmp_path / 'm'}", "--enable_batching",
                    f"--batching_parameters_file={tmp_path / 'batching.config'}", cwd=tmp_path)
    result = {}

    def slow_client():
        result["answer"] = server.request("/v1/models/m:predict", {"instances": [[1.0, 2.0]]})
        result["finished"] = time.monotonic()

    client = threading.Thread(target=slow_client)
    sent = time.monotonic()
    client.start()
    time.sleep(0.5)
    status, body = server.request("/v1/models/m")
    assert status == 200 and body["model_version_status"][0]["state"] == "AVAILABLE"
    assert time.monotonic() - sent < 2.5 and "answer" not in result  # answered while the other one waits
    returncode = server.stop()
    client.join(60)
    assert returncode == 0, server.output()
    status, body = result["answer"]
    assert status == 200
    np.testing.assert_allclose(body["predictions"], affine_expected([[1.0, 2.0]]), rtol=1e-6)
    assert result["finished"] - sent >= 2.5  # it did wait for its batch, and was not cut off


def test_a_rewritten_model_config_file_is_applied(tmp_path):
    save_affine(tmp_path / "a" / "1", 1.0)
    save_affine(tmp_path / "b" / "4", 3.0)
    config = tmp_path / "models.config"
    config.write_text(f'model_config_list {{ config {{ name: "a" base_path: "{tmp_path / "a"}" }} }}')
    server = Server(f"--model_config_file={config}", "--model_config_file_poll_wait_seconds=0.2", cwd=tmp_path)
    try:
        assert server.request("/v1/models/b")[0] == 404
        config.write_text("model_config_list { " + " ".join(
            f'config {{ name: "{n}" base_path: "{tmp_path / n}" }}' for n in "ab") + " }")
        deadline = time.monotonic() + 60

        def b_serves():  # its status answers while version 4 is still LOADING: wait for AVAILABLE
            status, body = server.request("/v1/models/b")
            return status == 200 and body["model_version_status"][0]["state"] == "AVAILABLE"

        while not b_serves() and time.monotonic() < deadline:
            time.sleep(0.1)
        status, body = server.request("/v1/models/b:predict", {"instances": [[1.0, 2.0]]})
        assert status == 200
        np.testing.assert_allclose(body["predictions"], affine_expected([[1.0, 2.0]], 3.0), rtol=1e-6)
        config.write_text("model_config_list { config { name: ")  # broken: the last good configuration stays
        time.sleep(0.6)
        assert server.request("/v1/models/b")[0] == 200
        assert "keeping the last model configuration" in server.output()
    finally:
        assert server.stop() == 0, server.output()


def test_a_request_past_rest_api_timeout_in_ms_gets_deadline_exceeded(tmp_path):
    save_affine(tmp_path / "m" / "1", 1.0)
    (tmp_path / "batching.config").write_text("max_batch_size { value: 64 } batch_timeout_micros { value: 3000000 }")
    server = Server("--model_name=m", f"--model_base_path={tmp_path / 'm'}", "--enable_batching",
                    f"--batching_parameters_file={tmp_path / 'batching.config'}", "--rest_api_timeout_in_ms=500",
                    cwd=tmp_path)
    try:
        started = time.monotonic()
        status, body = server.request("/v1/models/m:predict", {"instances": [[1.0, 2.0]]})
        assert (status, body) == (504, {"error": "Deadline Exceeded"})
        assert time.monotonic() - started < 2.5  # answered at the deadline, not when the batch ran
        assert server.request("/v1/models/m")[0] == 200
    finally:
        assert server.stop() == 0, server.output()
