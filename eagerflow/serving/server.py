"""One server process: the model manager, the REST API on uvicorn and the gRPC API on grpcio, started
together and stopped together. SIGTERM or Ctrl-C: the REST server finishes its requests in flight,
the gRPC server gets the same grace period, then the poller stops and the command returns 0."""
from __future__ import annotations

import logging
import signal
import threading

from . import profiling
from .batching import BatchingRunner
from .config import ConfigError, read_model_config_file
from .manager import ModelManager, collect_young_objects_less_often, settle_heap
from .metrics import Metrics
from .rest_app import RestApi, build_app
from .runners import DirectRunner

log = logging.getLogger("eagerflow.serving")
GRACE_SECONDS = 30


def serve(args, settings) -> int:
    collect_young_objects_less_often()
    if args.tensorflow_intra_op_parallelism > 0:
        from .._src.core.threads import set_intra_op_parallelism_threads
        set_intra_op_parallelism_threads(args.tensorflow_intra_op_parallelism)
    metrics = Metrics()
    runner = BatchingRunner(settings.batching, metrics) if settings.batching is not None else DirectRunner(metrics)
    on_change = runner.version_changed if settings.batching is not None else None
    manager = ModelManager(settings.models, poll_wait_seconds=args.file_system_poll_wait_seconds, on_change=on_change)
    manager.start()
    profiles = profiling.from_environment()  # EAGERFLOW_SERVE_PROFILE: developers' CPU profile of the threads
    stop_config_polling = _poll_model_config_file(args, manager)
    grpc_server = None
    try:
        if args.port:
            grpc_server = _start_grpc(args, manager, runner, metrics)
        if args.rest_api_port:
            _run_rest(args, settings, manager, runner, metrics)
        else:
            _wait_for_signal()
    finally:
        stop_config_polling.set()
        if grpc_server is not None:
            grpc_server.stop(GRACE_SECONDS).wait()
        manager.stop()
        if profiles is not None:
            profiles.write()
    return 0


def _poll_model_config_file(args, manager) -> threading.Event:
    """--model_config_file_poll_wait_seconds: re-read the file and apply it; a file that cannot be used is
    logged and the models keep their last good configuration."""
    stop = threading.Event()
    if not args.model_config_file or args.model_config_file_poll_wait_seconds <= 0:
        return stop

    def poll():
        last = None
        while not stop.wait(args.model_config_file_poll_wait_seconds):
            try:
                configs = read_model_config_file(args.model_config_file)
            except ConfigError as err:
                log.error("keeping the last model configuration: %s", err)
                continue
            if configs != last:
                last = configs
                manager.reconfigure(configs)

    threading.Thread(target=poll, name="eagerflow-serve-config", daemon=True).start()
    return stop


def _start_grpc(args, manager, runner, metrics):
    from .grpc_service import PredictionServicer, build_server
    server = build_server(PredictionServicer(manager, runner, metrics), args.host, args.port,
                          max_workers=max(args.rest_api_num_threads, 16), max_message_bytes=args.max_request_bytes)
    server.start()
    log.info("running gRPC ModelServer at %s:%d", args.host, args.port)
    return server


def _run_rest(args, settings, manager, runner, metrics):
    import uvicorn
    api = RestApi(manager, runner, metrics, max_body_bytes=args.max_request_bytes,
                  timeout_seconds=args.rest_api_timeout_in_ms / 1000 if args.rest_api_timeout_in_ms > 0 else None,
                  enable_cors=args.rest_api_enable_cors_support)
    monitoring = settings.monitoring
    app = build_app(api, monitoring.prometheus_path if monitoring.prometheus_enabled else None, metrics,
                    num_threads=args.rest_api_num_threads)
    config = uvicorn.Config(app, host=args.host, port=args.rest_api_port, lifespan="on",
                            limit_concurrency=args.rest_api_max_connections or None,
                            log_level="warning", access_log=False, proxy_headers=False,
                            timeout_graceful_shutdown=GRACE_SECONDS)
    server = uvicorn.Server(config)
    log.info("exporting HTTP/REST API at %s:%d", args.host, args.rest_api_port)
    _exit_quietly_after_shutdown()
    settle_heap()  # the server's own modules too, now imported
    server.run()


def _wait_for_signal():
    stop = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda received, frame: stop.set())
    while not stop.wait(1):
        pass


def _exit_quietly_after_shutdown():
    """uvicorn finishes the requests in flight on SIGTERM/SIGINT, then raises the signal again for the
    handler that was there before it: with this one, the command returns 0 instead of dying by it."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda received, frame: log.info("stopped by signal %d", received))
