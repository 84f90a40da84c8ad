"""TensorFlow Serving's gRPC API on grpcio: `tensorflow.serving.PredictionService` (Predict, Classify,
Regress, MultiInference, GetModelMetadata) and `tensorflow.serving.ModelService` (GetModelStatus,
HandleReloadConfigRequest), with the messages of eagerflow/_src/formats/protos/serving_apis.proto
(TensorFlow Serving's field numbers), so its clients' stubs (`prediction_service_pb2_grpc.
PredictionServiceStub`) talk to this server unchanged. The methods are prediction_service.py's; here
each ServingError becomes a gRPC status with TensorFlow Serving's code and message.
"""
from __future__ import annotations

import time
from concurrent import futures

import grpc

from .._src.formats.protos import serving_apis_pb2 as apis
from .errors import ServingError
from .prediction_service import PredictionServicer  # noqa: F401  (the servicer grpc_service serves)


def _model_name(request) -> str:
    """The model a request is for, for the metrics ("" for ReloadConfigRequest)."""
    if isinstance(request, apis.MultiInferenceRequest):
        return request.tasks[0].model_spec.name if request.tasks else ""
    return request.model_spec.name if hasattr(request, "model_spec") else ""


def _handler(method, request_class, response_class, api, servicer):
    def handle(request, context):
        started = time.perf_counter()
        try:
            response = method(request)
        except ServingError as err:
            servicer._record(_model_name(request), api, err.code, started)
            context.abort(grpc.StatusCode[err.code], err.message)
        servicer._record(_model_name(request), api, "OK", started)
        return response
    return grpc.unary_unary_rpc_method_handler(handle, request_deserializer=request_class.FromString,
                                               response_serializer=response_class.SerializeToString)


def build_server(servicer, host, port, max_workers=16, max_message_bytes=64 << 20):
    """A started-on-demand grpc.Server with both services, bound to host:port (raises OSError if it cannot)."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="eagerflow-grpc"),
                         options=[("grpc.max_receive_message_length", max_message_bytes),
                                  ("grpc.max_send_message_length", -1), ("grpc.so_reuseport", 0)])
    s = servicer
    server.add_generic_rpc_handlers((
        grpc.method_handlers_generic_handler("tensorflow.serving.PredictionService", {
            "Predict": _handler(s.predict, apis.PredictRequest, apis.PredictResponse, "predict", s),
            "Classify": _handler(s.classify, apis.ClassificationRequest, apis.ClassificationResponse, "classify", s),
            "Regress": _handler(s.regress, apis.RegressionRequest, apis.RegressionResponse, "regress", s),
            "MultiInference": _handler(s.multi_inference, apis.MultiInferenceRequest, apis.MultiInferenceResponse,
                                       "multi_inference", s),
            "GetModelMetadata": _handler(s.get_model_metadata, apis.GetModelMetadataRequest,
                                         apis.GetModelMetadataResponse, "metadata", s)}),
        grpc.method_handlers_generic_handler("tensorflow.serving.ModelService", {
            "GetModelStatus": _handler(s.get_model_status, apis.GetModelStatusRequest,
                                       apis.GetModelStatusResponse, "status", s),
            "HandleReloadConfigRequest": _handler(s.handle_reload_config_request, apis.ReloadConfigRequest,
                                                  apis.ReloadConfigResponse, "reload_config", s)}),
    ))
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if server.add_insecure_port(address) == 0:
        raise OSError(f"cannot bind the gRPC port {address}")
    return server
