"""Load test of `eagerflow serve` on loopback: `python -m bench.serving_load [--quick] [--json out.json]`.

For the MNIST MLP (784-128-10) and a small CNN (28x28x1 -> conv 8 -> pool -> dense 10), saved as SavedModels,
it starts the real server (with and without --enable_batching), sends batch-1 :predict requests over REST
(JSON rows) and gRPC (TensorProtos with tensor_content) from 1, 8 and 64 client threads (keep-alive
connections, loopback only; every run bounded in request count and in seconds) and prints requests per
second and p50/p99 latency beside the model's own median call time and the rows per second of a plain
Python loop calling it at the batcher's batch size, and the issue's two targets: p99 minus the model's call
(at most 2 ms at one client) and requests per second over the loop's rows per second (at least 70% at 64
clients with batching).

Where the time goes: the server's CPU time per request (its process's user + system time, from /proc), the
cores it kept busy, and the load generator's own CPU time per request (this process, every thread). On a
machine whose cores the load generator and the server share, the measured requests per second are bounded
by both; "per server core" is the throughput one server core reaches at the measured CPU cost per request
(1 / server CPU per request), which is what a server with a core of its own to spare would answer. The
server runs with --tensorflow_intra_op_parallelism=1: one BLAS thread per model call (OpenBLAS' helper
threads spin while they wait, which costs more than they save when small requests share two cores).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

from bench import serving_clients

ROOT = Path(__file__).resolve().parent.parent
BATCH_SIZE = 32
BATCHING = f"max_batch_size {{ value: {BATCH_SIZE} }} batch_timeout_micros {{ value: 1000 }} " \
           f"max_enqueued_batches {{ value: 100 }} num_batch_threads {{ value: 1 }}"


SHAPES = {"mlp": (784,), "cnn": (28, 28, 1), "wide": (784,)}


def build_models(folder: Path, names):
    """The models `names` names, saved under folder/NAME/1. "wide" (784-4096-4096-10, ~20M multiply-adds a
    row) is not one of the issue's: it shows where batching reaches the loop, for a model whose rows cost
    more than a request's fixed cost."""
    import eagerflow as tf
    from eagerflow import keras
    keras.utils.set_random_seed(0)
    mlp = keras.Sequential([keras.Input((784,)), keras.layers.Dense(128, activation="relu"),
                            keras.layers.Dense(10, activation="softmax")])
    cnn = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(8, 3, activation="relu"),
                            keras.layers.MaxPooling2D(), keras.layers.Flatten(),
                            keras.layers.Dense(10, activation="softmax")])
    wide = keras.Sequential([keras.Input((784,)), keras.layers.Dense(4096, activation="relu"),
                             keras.layers.Dense(4096, activation="relu"), keras.layers.Dense(10, activation="softmax")])
    for name, model in (("mlp", mlp), ("cnn", cnn), ("wide", wide)):
        if name in names:
            tf.saved_model.save(model, str(folder / name / "1"))
    return {name: SHAPES[name] for name in names}


def model_times(folder: Path, shape, rounds):
    """(median seconds of one batch-1 call, rows per second of a loop at BATCH_SIZE from its median call, the
    same from the median call's CPU time), in this process, with one BLAS thread as the server has; medians,
    so another process's burst on a shared machine does not decide the number. The CPU-time rate is the
    one to hold the server's requests/s per server core against (CPU time against CPU time)."""
    import eagerflow as tf
    from eagerflow._src.core.threads import set_intra_op_parallelism_threads
    set_intra_op_parallelism_threads(1)
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
    batch_times, batch_cpu = [], []
    for _ in range(max(rounds // 4, 10)):
        start, cpu = time.perf_counter(), time.thread_time()
        signature(**{name: batch})
        batch_times.append(time.perf_counter() - start)
        batch_cpu.append(time.thread_time() - cpu)
    return (float(np.median(times)), BATCH_SIZE / float(np.median(batch_times)),
            BATCH_SIZE / max(float(np.median(batch_cpu)), 1e-9))


def _free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class _Server:
    def __init__(self, folder: Path, batching: bool):
        self.port, self.grpc_port = _free_port(), _free_port()
        flags = ["--model_config_file", str(folder / "models.config"), f"--rest_api_port={self.port}",
                 f"--port={self.grpc_port}",
                 "--file_system_poll_wait_seconds=0", "--rest_api_num_threads=80",
                 "--tensorflow_intra_op_parallelism=1", f"--monitoring_config_file={folder / 'monitoring.config'}"]
        if batching:
            flags += ["--enable_batching", f"--batching_parameters_file={folder / 'batching.config'}"]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        self.process = subprocess.Popen([sys.executable, "-m", "eagerflow", "serve", *flags], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode} (flags: {' '.join(flags)})")
            try:
                for port in (self.grpc_port, self.port):  # REST opens last
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not start")

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(60)

    def metrics(self) -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/monitoring/prometheus/metrics", timeout=30) as page:
            return page.read().decode()

    def cpu_seconds(self):
        """User + system CPU time of the server process so far (Linux /proc; None elsewhere)."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_BUCKET = re.compile(r':tensorflow:serving:request_latency_bucket\{model_name="([^"]*)",API="predict",'
                     r'entrypoint="([A-Z]+)",le="([^"]+)"\} (\d+)')


def server_p99_bound(before: str, after: str, model, entrypoint):
    """The server's own p99 of the requests between two scrapes of its metrics (TensorFlow Serving's
    request_latency histogram: from the request's arrival at the handler to its answer, microseconds), as
    the upper bound of the bucket it falls in (the buckets grow by 1.8x), in ms."""
    def counts(text):
        return {float(le): int(n) for m, e, le, n in _BUCKET.findall(text) if m == model and e == entrypoint}
    old, new = counts(before), counts(after)
    bounds = sorted(new)
    total = new[bounds[-1]] - old.get(bounds[-1], 0) if bounds else 0
    for bound in bounds:
        if new[bound] - old.get(bound, 0) >= 0.99 * total > 0:
            return bound / 1e3
    return None


def http_stack() -> str:
    """The HTTP parser and event loop uvicorn picks by itself in the server (the same Python and path)."""
    fast = [name for name in ("httptools", "uvloop") if importlib.util.find_spec(name) is not None]
    return "+".join(fast) if fast else "h11+asyncio"


def measure(server, protocol, model, shape, clients, requests, seconds):
    """One bounded run: a table row's measured numbers."""
    if protocol == "rest":
        open_client = serving_clients.rest_sender(server.port, model, shape)
    else:
        open_client = serving_clients.grpc_sender(server.grpc_port, model, shape)
    serving_clients.drive(open_client, min(clients, 4), 40, 5)  # warm up (connections, the model's first calls)
    metrics_before, cpu_before = server.metrics(), server.cpu_seconds()
    run = serving_clients.drive(open_client, clients, requests, seconds)
    cpu_after, metrics_after = server.cpu_seconds(), server.metrics()
    getattr(open_client, "close", lambda: None)()
    sent = len(run["latencies"])
    p50, p99 = np.percentile(run["latencies"], [50, 99])
    server_cpu = None if cpu_before is None else cpu_after - cpu_before
    return {"rps": sent / run["elapsed"], "p50_ms": p50 * 1e3, "p99_ms": p99 * 1e3, "failed": run["failed"],
            "requests": sent,
            "server_cpu_ms": None if server_cpu is None else server_cpu / sent * 1e3,
            "server_cores": None if server_cpu is None else server_cpu / run["elapsed"],
            "client_cpu_ms": run["client_cpu"] / sent * 1e3,
            "server_p99_ms": server_p99_bound(metrics_before, metrics_after, model, protocol.upper())}


def _per_core(row):
    return None if not row["server_cpu_ms"] else 1e3 / row["server_cpu_ms"]


def print_table(rows):
    """The rows as a Markdown table: the measured numbers, where the server's CPU went, and the targets."""
    print("| model | protocol | batching | clients | requests/s | p50 ms | p99 ms | server p99 ms (at most) | failed | "
          "server CPU ms/request | server cores busy | requests/s per server core | client CPU ms/request | "
          "p99 - model call ms | requests/s / loop rows/s | per server core / loop rows/s per core |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        per_core = _per_core(r)
        text = lambda value, form: "-" if value is None else format(value, form)  # noqa: E731
        print(f"| {r['model']} | {r['protocol']} | {'yes' if r['batching'] else 'no'} | {r['clients']} | "
              f"{r['rps']:.0f} | {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {text(r['server_p99_ms'], '.2f')} | "
              f"{r['failed']} | {text(r['server_cpu_ms'], '.3f')} | {text(r['server_cores'], '.2f')} | "
              f"{text(per_core, '.0f')} | {r['client_cpu_ms']:.3f} | {r['p99_ms'] - r['model_call_ms']:.2f} | "
              f"{100 * r['rps'] / r['loop_rows_per_s']:.1f}% | "
              f"{text(None if per_core is None else 100 * per_core / r['loop_cpu_rows_per_s'], '.1f')}% |")


def _choices(text, allowed, kind=str):
    values = [kind(v) for v in text.split(",") if v]
    bad = [v for v in values if allowed is not None and v not in allowed]
    if bad or not values:
        raise argparse.ArgumentTypeError(f"choose from {allowed}")
    return values


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests (a smoke run)")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--models", type=lambda t: _choices(t, tuple(SHAPES)), default=["mlp", "cnn"],
                        help="mlp, cnn (the issue's), wide (a model whose rows cost more than a request)")
    parser.add_argument("--protocols", type=lambda t: _choices(t, ("rest", "grpc")), default=["rest", "grpc"])
    parser.add_argument("--batching", type=lambda t: _choices(t, ("no", "yes")), default=["no", "yes"])
    parser.add_argument("--clients", type=lambda t: _choices(t, None, int), default=[1, 8, 64])
    parser.add_argument("--requests", type=int, help="requests per run (default 1280; --quick 64)")
    args = parser.parse_args(argv)
    requests = args.requests or (64 if args.quick else 1280)
    seconds = 5 if args.quick else 20
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shapes = build_models(folder, args.models)
        (folder / "models.config").write_text("model_config_list {" + "".join(
            f' config {{ name: "{m}" base_path: "{folder / m}" }}' for m in shapes) + " }")
        (folder / "batching.config").write_text(BATCHING)
        (folder / "monitoring.config").write_text("prometheus_config { enable: true }")
        own = {m: model_times(folder / m / "1", shape, 50 if args.quick else 300) for m, shape in shapes.items()}
        for batching in args.batching:
            server = _Server(folder, batching == "yes")
            try:
                for model, shape in shapes.items():
                    for protocol in args.protocols:
                        for clients in args.clients:
                            row = measure(server, protocol, model, shape, clients, requests, seconds)
                            rows.append({"model": model, "protocol": protocol, "batching": batching == "yes",
                                         "clients": clients, **row, "model_call_ms": own[model][0] * 1e3,
                                         "loop_rows_per_s": own[model][1], "loop_cpu_rows_per_s": own[model][2],
                                         "http": http_stack()})
            finally:
                server.stop()
    print(f"HTTP stack of the server: {http_stack()}; model call ms, loop rows/s at batch {BATCH_SIZE} (wall, "
          f"CPU): " + ", ".join(f"{m} {own[m][0] * 1e3:.3f}, {own[m][1]:.0f}, {own[m][2]:.0f}" for m in own))
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
