"""Load test of `eagerflow serve` on loopback: `python -m bench.serving_load [--quick] [--json out.json]`.

For the MNIST MLP (784-128-10) and a small CNN (28x28x1 -> conv 8 -> pool -> dense 10), saved as SavedModels,
it starts the real server (REST, with and without --enable_batching), sends batch-1 :predict requests from
1, 8 and 64 client threads (keep-alive HTTP connections, loopback only; every run bounded in request count
and in seconds) and prints requests per second, p50/p99 latency and the server process's CPU time per
request, beside the model's own call time and the rows per second of a plain Python loop calling it at the
batcher's batch size. The issue's targets are computed in the last two columns: p99 minus the model's call
(at most 2 ms at one client) and requests per second over the loop's rows per second (at least 70% at 64
clients with batching). CPU time per request is the steadiest measure on a shared machine: latency and
throughput also measure whatever else the machine runs. The server runs with
--tensorflow_intra_op_parallelism=1: one BLAS thread per model call (OpenBLAS' helper threads spin while
they wait, which costs more than they save when small requests share two cores).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
BATCH_SIZE = 32
BATCHING = f"max_batch_size {{ value: {BATCH_SIZE} }} batch_timeout_micros {{ value: 1000 }} " \
           f"max_enqueued_batches {{ value: 100 }} num_batch_threads {{ value: 1 }}"


def build_models(folder: Path):
    import eagerflow as tf
    from eagerflow import keras
    keras.utils.set_random_seed(0)
    mlp = keras.Sequential([keras.Input((784,)), keras.layers.Dense(128, activation="relu"),
                            keras.layers.Dense(10, activation="softmax")])
    cnn = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(8, 3, activation="relu"),
                            keras.layers.MaxPooling2D(), keras.layers.Flatten(),
                            keras.layers.Dense(10, activation="softmax")])
    tf.saved_model.save(mlp, str(folder / "mlp" / "1"))
    tf.saved_model.save(cnn, str(folder / "cnn" / "1"))
    return {"mlp": (784,), "cnn": (28, 28, 1)}


def model_times(folder: Path, shape, rounds):
    """(median seconds of one batch-1 call, rows per second of a loop at BATCH_SIZE from its median call), in
    this process; medians, so another process's burst on a shared machine does not decide the number."""
    import eagerflow as tf
    signature = tf.saved_model.load(str(folder)).signatures["serving_default"]
    name = next(iter(signature.structured_input_signature[1]))
    one = np.random.rand(1, *shape).astype(np.float32)
    batch = np.random.rand(BATCH_SIZE, *shape).astype(np.float32)
    for _ in range(10):
        signature(**{name: one})
        signature(**{name: batch})
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        signature(**{name: one})
        times.append(time.perf_counter() - start)
    batch_times = []
    for _ in range(max(rounds // 4, 10)):
        start = time.perf_counter()
        signature(**{name: batch})
        batch_times.append(time.perf_counter() - start)
    return float(np.median(times)), BATCH_SIZE / float(np.median(batch_times))


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Server:
    def __init__(self, folder: Path, batching: bool):
        self.port = _free_port()
        flags = ["--model_config_file", str(folder / "models.config"), f"--rest_api_port={self.port}", "--port=0",
                 "--file_system_poll_wait_seconds=0", "--rest_api_num_threads=80",
                 "--tensorflow_intra_op_parallelism=1"]
        if batching:
            flags += ["--enable_batching", f"--batching_parameters_file={folder / 'batching.config'}"]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen([sys.executable, "-m", "eagerflow", "serve", *flags], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(60)

    def cpu_seconds(self):
        """User + system CPU time of the server process so far (Linux /proc; None elsewhere)."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load(port, model, shape, clients, requests, seconds):
    """Send `requests` batch-1 predictions from `clients` threads (stopping after `seconds`):
    (rps, p50, p99, errors, requests answered)."""
    body = json.dumps({"instances": np.random.rand(1, *shape).round(4).tolist()}).encode()
    latencies, errors = [], []
    per_client = max(requests // clients, 1)
    deadline = time.monotonic() + seconds
    start_line = threading.Barrier(clients + 1)

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        start_line.wait()
        for _ in range(per_client):
            if time.monotonic() > deadline:
                break
            started = time.perf_counter()
            connection.request("POST", f"/v1/models/{model}:predict", body, {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            latencies.append(time.perf_counter() - started)
            if response.status != 200:
                errors.append(response.status)
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start_line.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    p50, p99 = np.percentile(latencies, [50, 99])
    return len(latencies) / elapsed, float(p50), float(p99), len(errors), len(latencies)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (a smoke run)")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args(argv)
    requests, seconds = (64, 5) if args.quick else (640, 20)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shapes = build_models(folder)
        (folder / "models.config").write_text("model_config_list {" + "".join(
            f' config {{ name: "{m}" base_path: "{folder / m}" }}' for m in shapes) + " }")
        (folder / "batching.config").write_text(BATCHING)
        own = {m: model_times(folder / m / "1", shape, 50 if args.quick else 300) for m, shape in shapes.items()}
        for batching in (False, True):
            server = _Server(folder, batching)
            try:
                for model, shape in shapes.items():
                    load(server.port, model, shape, 4, 40, 5)  # warm up
                    for clients in (1, 8, 64):
                        cpu_before = server.cpu_seconds()
                        rps, p50, p99, errors, sent = load(server.port, model, shape, clients, requests, seconds)
                        cpu_after = server.cpu_seconds()
                        cpu_ms = None if cpu_before is None else (cpu_after - cpu_before) / sent * 1e3
                        rows.append({"model": model, "batching": batching, "clients": clients, "rps": rps,
                                     "p50_ms": p50 * 1e3, "p99_ms": p99 * 1e3, "errors": errors,
                                     "server_cpu_ms": cpu_ms, "model_call_ms": own[model][0] * 1e3,
                                     "loop_rows_per_s": own[model][1]})
            finally:
                server.stop()
    print(f"| model | batching | clients | requests/s | p50 ms | p99 ms | failed | server CPU ms/request | "
          f"model call ms | loop rows/s at batch {BATCH_SIZE} | p99 - model call ms | requests/s / loop rows/s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        cpu = "-" if r["server_cpu_ms"] is None else f"{r['server_cpu_ms']:.2f}"
        print(f"| {r['model']} | {'yes' if r['batching'] else 'no'} | {r['clients']} | {r['rps']:.0f} | "
              f"{r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['errors']} | {cpu} | {r['model_call_ms']:.3f} | "
              f"{r['loop_rows_per_s']:.0f} | {r['p99_ms'] - r['model_call_ms']:.2f} | "
              f"{100 * r['rps'] / r['loop_rows_per_s']:.1f}% |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
