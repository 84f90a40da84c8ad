"""The server's metrics in Prometheus' text format, under TensorFlow Serving's metric names where it
has them (`:tensorflow:serving:request_count`, `:tensorflow:serving:request_latency` and
`:tensorflow:serving:runtime_latency` in microseconds, with its exponential buckets) and eagerflow's
own for the batcher (`:eagerflow:serving:batch_size`, `:eagerflow:serving:batch_queue_depth`)."""
from __future__ import annotations

import bisect
import threading

# TensorFlow Serving's latency buckets: 10 us times 1.8**i, 33 of them (the last one open)
LATENCY_BUCKETS = tuple(10 * 1.8 ** i for i in range(32))
BATCH_SIZE_BUCKETS = tuple(2 ** i for i in range(15))


class _Histogram:
    def __init__(self, limits):
        self.limits = limits
        self.counts = [0] * (len(limits) + 1)
        self.sum = 0.0

    def add(self, value):
        self.counts[bisect.bisect_left(self.limits, value)] += 1
        self.sum += value


def _labels(pairs) -> str:
    def escape(value):
        return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return ",".join(f'{name}="{escape(value)}"' for name, value in pairs)


class Metrics:
    """Counters, gauges and histograms keyed by their label values; safe to update from any thread."""

    def __init__(self):
        self._lock = threading.Lock()
        self._counters: dict = {}    # (name, labels) -> int
        self._gauges: dict = {}      # (name, labels) -> number
        self._histograms: dict = {}  # (name, labels) -> _Histogram

    def count(self, name, labels, amount=1):
        with self._lock:
            self._counters[name, labels] = self._counters.get((name, labels), 0) + amount

    def set_gauge(self, name, labels, value):
        with self._lock:
            self._gauges[name, labels] = value

    def observe(self, name, labels, value, limits=LATENCY_BUCKETS):
        with self._lock:
            histogram = self._histograms.get((name, labels))
            if histogram is None:
                histogram = self._histograms[name, labels] = _Histogram(limits)
            histogram.add(value)

    # --- what the server records ---
    def record_request(self, model_name, api, code, seconds, entrypoint="REST"):
        if api not in ("predict", "classify", "regress"):
            return
        self.count(":tensorflow:serving:request_count", (("model_name", model_name), ("status", code)))
        self.observe(":tensorflow:serving:request_latency",
                     (("model_name", model_name), ("API", api), ("entrypoint", entrypoint)), seconds * 1e6)

    def record_run(self, model_name, api, seconds):
        self.observe(":tensorflow:serving:runtime_latency",
                     (("model_name", model_name), ("API", api), ("runtime", "eagerflow")), seconds * 1e6)

    def record_batch(self, model_name, size, padded_size):
        labels = (("model_name", model_name),)
        self.observe(":eagerflow:serving:batch_size", labels, size, BATCH_SIZE_BUCKETS)
        self.count(":eagerflow:serving:batches_total", labels)
        self.count(":eagerflow:serving:batch_padding_total", labels, padded_size - size)

    def record_queue_depth(self, model_name, tasks):
        self.set_gauge(":eagerflow:serving:batch_queue_depth", (("model_name", model_name),), tasks)

    # --- export ---
    def prometheus_text(self) -> str:
        with self._lock:
            counters, gauges = dict(self._counters), dict(self._gauges)
            histograms = {key: (list(h.counts), h.sum, h.limits) for key, h in self._histograms.items()}
        lines = []
        for kind, values in (("counter", counters), ("gauge", gauges)):
            for name in sorted({name for name, _ in values}):
                lines.append(f"# TYPE {name} {kind}")
                lines += [f"{name}{{{_labels(labels)}}} {_number(value)}"
                          for (n, labels), value in sorted(values.items()) if n == name]
        for name in sorted({name for name, _ in histograms}):
            lines.append(f"# TYPE {name} histogram")
            for (n, labels), (counts, total, limits) in sorted(histograms.items()):
                if n != name:
                    continue
                prefix = _labels(labels) + ("," if labels else "")
                running = 0
                for index, count in enumerate(counts):
                    running += count
                    bound = _number(limits[index]) if index < len(limits) else "+Inf"
                    lines.append(f'{name}_bucket{{{prefix}le="{bound}"}} {running}')
                lines.append(f"{name}_sum{{{_labels(labels)}}} {_number(total)}")
                lines.append(f"{name}_count{{{_labels(labels)}}} {running}")
        return "\n".join(lines) + "\n"


def _number(value) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))
