"""One server process: the model manager, the REST API on uvicorn and (with grpcio) the gRPC API,
started together and stopped together."""
from __future__ import annotations

import logging
import signal

import uvicorn

from .batching import BatchingRunner
from .manager import ModelManager
from .metrics import Metrics
from .rest_app import DirectRunner, RestApi, build_app

log = logging.getLogger("eagerflow.serving")


def serve(args, settings) -> int:
    metrics = Metrics()
    runner = BatchingRunner(settings.batching, metrics) if settings.batching is not None else DirectRunner(metrics)
    on_change = runner.version_changed if settings.batching is not None else None
    manager = ModelManager(settings.models, poll_wait_seconds=args.file_system_poll_wait_seconds, on_change=on_change)
    manager.start()
    try:
        api = RestApi(manager, runner, metrics, max_body_bytes=args.rest_api_max_body_bytes)
        monitoring = settings.monitoring
        app = build_app(api, monitoring.prometheus_path if monitoring.prometheus_enabled else None, metrics,
                        num_threads=args.rest_api_num_threads)
        if args.rest_api_port == 0:
            log.error("the gRPC API is not available yet; give --rest_api_port")
            return 1
        config = uvicorn.Config(app, host=args.host, port=args.rest_api_port, lifespan="on",
                                limit_concurrency=args.rest_api_max_connections or None,
                                log_level="warning", timeout_graceful_shutdown=30)
        server = uvicorn.Server(config)
        log.info("exporting HTTP/REST API at %s:%d", args.host, args.rest_api_port)
        _exit_quietly_after_shutdown()
        server.run()
    finally:
        manager.stop()
    return 0


def _exit_quietly_after_shutdown():
    """uvicorn finishes the requests in flight on SIGTERM/SIGINT, then raises the signal again for the
    handler that was there before it: with this one, the command returns 0 instead of dying by it."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda received, frame: log.info("stopped by signal %d", received))
