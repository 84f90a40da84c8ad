"""`eagerflow serve`: TensorFlow Serving's model server command, with its flag names and meanings.

    eagerflow serve --model_name=mnist --model_base_path=/models/mnist          # REST on 127.0.0.1:8501

The server binds to 127.0.0.1 unless --host names another address (0.0.0.0 for every interface):
a model server is not exposed to the network by accident. Configuration errors print one line on
stderr and exit with status 1 before anything is served; SIGTERM or Ctrl-C finish the requests in
flight and stop.
"""
from __future__ import annotations

import logging
import sys

from .config import (ConfigError, read_batching_parameters, read_model_config_file, read_monitoring_config,
                     single_model)


def add_arguments(parser):
    add = parser.add_argument
    add("--port", type=int, default=8500, help="gRPC port (0: no gRPC API) [8500]")
    add("--rest_api_port", type=int, default=8501, help="REST API port (0: no REST API) [8501]")
    add("--host", default="127.0.0.1",
        help="address to bind; the default 127.0.0.1 accepts local clients only, 0.0.0.0 every interface")
    add("--model_name", default="default", help="name of the model served with --model_base_path [default]")
    add("--model_base_path", help="folder of the model's numbered version folders (DIR/1, DIR/2, ...)")
    add("--model_config_file", help="a ModelServerConfig in text format: several models, version policies, labels")
    add("--model_config_file_poll_wait_seconds", type=float, default=0,
        help="seconds between re-reads of --model_config_file (0: read it once) [0]")
    add("--file_system_poll_wait_seconds", type=float, default=1.0,
        help="seconds between looks for new versions (0: look once, at start) [1]")
    add("--enable_batching", action="store_true", help="merge concurrent requests into one call of the model")
    add("--batching_parameters_file", help="a BatchingParameters message in text format (with --enable_batching)")
    add("--monitoring_config_file",
        help="a MonitoringConfig in text format; prometheus_config { enable: true } serves metrics")
    add("--rest_api_timeout_in_ms", type=int, default=30000,
        help="a REST request not answered in this time gets DEADLINE_EXCEEDED (HTTP 504; 0: no limit) [30000]")
    add("--rest_api_enable_cors_support", type=_bool_value, nargs="?", const=True, default=False,
        help="add CORS headers (any origin, POST and GET, Content-Type) to every REST answer [false]")
    add("--tensorflow_intra_op_parallelism", type=int, default=0,
        help="threads one model call may use (the BLAS thread pools, through threadpoolctl); 1 suits many "
             "concurrent requests on few cores (0: the BLAS's own choice) [0]")
    add("--rest_api_num_threads", type=int, default=0, help="worker threads running models (0: Starlette's default)")
    add("--rest_api_max_connections", type=int, default=0,
        help="connections served at once; more get HTTP 503 (eagerflow's flag; 0: no limit) [0]")
    add("--max_request_bytes", type=int, default=64 << 20,
        help="largest REST body or gRPC message accepted; larger ones get HTTP 413 or RESOURCE_EXHAUSTED "
             "(eagerflow's flag) [64 MiB]")


def _bool_value(text) -> bool:
    """A boolean flag's value as TensorFlow Serving's flags take it: --flag, --flag=true, --flag=false."""
    lowered = text.lower()
    if lowered in ("true", "1"):
        return True
    if lowered in ("false", "0"):
        return False
    raise ValueError(text)


class _Settings:
    """The parsed, checked flags and configuration files."""

    def __init__(self, args):
        if args.model_config_file and args.model_base_path:
            raise ConfigError("give either --model_config_file or --model_base_path, not both")
        if args.model_config_file:
            self.models = read_model_config_file(args.model_config_file)
        elif args.model_base_path:
            self.models = single_model(args.model_name, args.model_base_path)
        else:
            raise ConfigError("no model to serve: give --model_base_path (with --model_name) or --model_config_file")
        if args.batching_parameters_file and not args.enable_batching:
            raise ConfigError("--batching_parameters_file needs --enable_batching")
        self.batching = read_batching_parameters(args.batching_parameters_file) if args.enable_batching else None
        self.monitoring = read_monitoring_config(args.monitoring_config_file)
        for flag in ("port", "rest_api_port"):
            if not 0 <= getattr(args, flag) <= 65535:
                raise ConfigError(f"--{flag} must be a port number (0-65535), got {getattr(args, flag)}")
        if args.port == 0 and args.rest_api_port == 0:
            raise ConfigError("--port and --rest_api_port are both 0: no API to serve")
        if args.max_request_bytes < 1:
            raise ConfigError("--max_request_bytes must be positive")
        if args.tensorflow_intra_op_parallelism > 0:
            try:
                import threadpoolctl  # noqa: F401
            except ImportError:
                raise ConfigError("--tensorflow_intra_op_parallelism needs threadpoolctl: install eagerflow[serve]"
                                  ) from None
        if args.port != 0:
            try:
                import grpc  # noqa: F401
            except ImportError:
                raise ConfigError("the gRPC API (--port) needs grpcio: install eagerflow[serve], "
                                  "or give --port=0 to serve REST only") from None


def run(args) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = _Settings(args)
    except ConfigError as err:
        print(f"eagerflow serve: error: {err}", file=sys.stderr)
        return 1
    try:
        from .server import serve
    except ImportError as err:
        print(f"eagerflow serve: error: {err.name or err} is not installed; "
              f"install eagerflow[serve] (pip install 'eagerflow[serve]')", file=sys.stderr)
        return 1
    return serve(args, settings)
