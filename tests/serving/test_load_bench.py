"""bench/serving_load.py's own arithmetic, without a server: the server's p99 read from two scrapes of its
Prometheus text (TensorFlow Serving's latency buckets), as the bound of the bucket the 99th percentile is in."""
from bench.serving_load import server_p99_bound
from eagerflow.serving.metrics import LATENCY_BUCKETS, Metrics


def test_server_p99_is_the_bound_of_the_bucket_between_two_scrapes():
    metrics = Metrics()
    for _ in range(50):  # before the first scrape: left out
        metrics.record_request("mlp", "predict", "OK", 0.050)
    before = metrics.prometheus_text()
    for _ in range(990):
        metrics.record_request("mlp", "predict", "OK", 0.000300)  # 300 us: the 340.1 us bucket
    for _ in range(10):
        metrics.record_request("mlp", "predict", "OK", 0.004)  # the slowest 1%: 4 ms
    metrics.record_request("cnn", "predict", "OK", 1.0)  # another model: left out
    metrics.record_request("mlp", "predict", "OK", 1.0, entrypoint="GRPC")  # another protocol: left out
    after = metrics.prometheus_text()
    assert LATENCY_BUCKETS[5] < 300 <= LATENCY_BUCKETS[6]
    assert abs(server_p99_bound(before, after, "mlp", "REST") - LATENCY_BUCKETS[6] / 1e3) < 1e-9
    metrics.record_request("mlp", "predict", "OK", 0.004)  # now more than 1% are 4 ms: the 6.4 ms bucket
    later = metrics.prometheus_text()
    assert LATENCY_BUCKETS[10] < 4000 <= LATENCY_BUCKETS[11]
    assert abs(server_p99_bound(before, later, "mlp", "REST") - LATENCY_BUCKETS[11] / 1e3) < 1e-9
    assert server_p99_bound(after, after, "mlp", "REST") is None  # no request between the scrapes
