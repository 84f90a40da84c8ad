"""The load generators of bench/serving_load.py: batch-1 :predict requests from N client threads, over REST
(keep-alive HTTP/1.1, JSON rows) or gRPC (PredictionService/Predict, a TensorProto with tensor_content), each
run bounded in request count and in seconds, loopback only.

Each run also returns the CPU time this (client) process spent on it: on a machine with two cores the load
generator competes with the server for them, so its share has to be known before the server's throughput
can be judged.
"""
from __future__ import annotations

import http.client
import json
import threading
import time

import numpy as np


def rest_sender(port, model, shape):
    """A factory of per-client senders: each opens one keep-alive connection and sends the same body."""
    body = json.dumps({"instances": np.random.rand(1, *shape).round(4).tolist()}).encode()
    path = f"/v1/models/{model}:predict"
    headers = {"Content-Type": "application/json"}

    def open_client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

        def send():
            connection.request("POST", path, body, headers)
            response = connection.getresponse()
            response.read()
            return response.status == 200
        return send, connection.close
    return open_client


def grpc_sender(port, model, shape, channels=4):
    """A factory of per-client senders over `channels` shared gRPC channels (HTTP/2 multiplexes the clients'
    calls; a channel per client would measure grpcio's connection handling, not a request's cost)."""
    import grpc

    from eagerflow._src.formats.protos import serving_apis_pb2 as apis
    from eagerflow.serving.tensor_protos import to_proto

    request = apis.PredictRequest()
    request.model_spec.name = model
    to_proto(np.random.rand(1, *shape).astype(np.float32), request.inputs["inputs"])
    opened = [grpc.insecure_channel(f"127.0.0.1:{port}") for _ in range(channels)]
    calls = [channel.unary_unary("/tensorflow.serving.PredictionService/Predict",
                                 request_serializer=apis.PredictRequest.SerializeToString,
                                 response_deserializer=apis.PredictResponse.FromString) for channel in opened]
    counter = iter(range(1 << 30))

    def open_client():
        predict = calls[next(counter) % len(calls)]

        def send():
            try:
                predict(request, timeout=60)
                return True
            except grpc.RpcError:
                return False
        return send, lambda: None

    open_client.close = lambda: [channel.close() for channel in opened]
    return open_client


def drive(open_client, clients, requests, seconds):
    """Send `requests` requests in all from `clients` threads, stopping after `seconds`: a dict of
    latencies (seconds), failed, elapsed (seconds, first request to last answer) and client_cpu (this
    process's CPU seconds over the run, every thread's)."""
    latencies, failed = [], []
    per_client = max(requests // clients, 1)
    deadline = time.monotonic() + seconds
    start_line = threading.Barrier(clients + 1)

    def client():
        send, close = open_client()
        start_line.wait()
        for _ in range(per_client):
            if time.monotonic() > deadline:
                break
            started = time.perf_counter()
            ok = send()
            latencies.append(time.perf_counter() - started)
            if not ok:
                failed.append(1)
        close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    start_line.wait()
    cpu_before, began = time.process_time(), time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu_before
    return {"latencies": latencies, "failed": len(failed), "elapsed": elapsed, "client_cpu": cpu}
