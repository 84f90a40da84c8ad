"""SavedModel warmup, as TensorFlow Serving does it: a version folder's `assets.extra/tf_serving_warmup_requests`
(a TFRecord file of PredictionLog messages) is replayed against the version while it loads, before it takes
requests, so the first client does not pay for first-call costs. Each record's predict, classify, regress or
multi-inference request runs once through the same methods the gRPC API uses (its model_spec's name and
version are not looked up: the version being loaded answers). A record that fails, that cannot be parsed, a
damaged file or more than MAX_RECORDS records fail the load, and the version is reported END with that error.
"""
from __future__ import annotations

import logging
import os
import time

from .._src.formats.protos import serving_apis_pb2 as apis
from .._src.io.records import records_in
from .errors import ServingError, invalid_argument
from .prediction_service import PredictionServicer
from .runners import DirectRunner

log = logging.getLogger("eagerflow.serving")
WARMUP_FILE = os.path.join("assets.extra", "tf_serving_warmup_requests")
MAX_RECORDS = 1000
_LOG_TYPE_NUMBERS = {"session_run_log": 5, "predict_streamed_log": 7}


class _VersionBeingLoaded(PredictionServicer):
    """The service methods, answered by one servable whatever the request's model_spec names."""

    def __init__(self, servable):
        super().__init__(manager=None, runner=DirectRunner())
        self.loaded = servable

    def _servable(self, spec):
        return self.loaded


def warmup_path(folder) -> str:
    return os.path.join(os.fspath(folder), WARMUP_FILE)


def replay(servable, folder) -> int:
    """Run the warmup requests of `folder` (if it has them) against `servable`: the number of records."""
    path = warmup_path(folder)
    if not os.path.exists(path):
        return 0
    started = time.perf_counter()
    service = _VersionBeingLoaded(servable)
    count = 0
    try:
        with open(path, "rb") as stream:
            for record in records_in(stream, (path, os.path.getsize(path))):
                _run(service, _parse(record, path))
                count += 1
                if count > MAX_RECORDS:
                    raise invalid_argument(f"Number of warmup records exceeds the maximum ({MAX_RECORDS}) at {path}")
    except ServingError:
        raise
    except Exception as err:  # the file itself: DataLossError for a damaged record
        if "DataLoss" in type(err).__name__:
            raise ServingError("DATA_LOSS", f"{getattr(err, 'message', err)}. Please verify your warmup data "
                                            f"is in TFRecord format.") from None
        raise
    log.info("finished reading warmup data for model at %s: %d warmup records read in %d microseconds",
             path, count, (time.perf_counter() - started) * 1e6)
    return count


def _parse(record: bytes, path):
    try:
        return apis.PredictionLog.FromString(record)
    except Exception:  # protobuf's DecodeError
        raise invalid_argument(f"Failed to parse warmup record: {record.decode('utf-8', 'replace')} "
                               f"from {path}") from None


def _run(service, entry):
    kind = entry.WhichOneof("log_type")
    if kind == "predict_log":
        service.predict(entry.predict_log.request)
    elif kind == "classify_log":
        service.classify(entry.classify_log.request)
    elif kind == "regress_log":
        service.regress(entry.regress_log.request)
    elif kind == "multi_inference_log":
        service.multi_inference(entry.multi_inference_log.request)
    elif kind is not None:
        raise ServingError("UNIMPLEMENTED", f"Unsupported log_type for warmup: {_LOG_TYPE_NUMBERS[kind]}")
