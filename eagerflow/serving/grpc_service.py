"""TensorFlow Serving's gRPC API on grpcio: `tensorflow.serving.PredictionService` (Predict, Classify,
Regress, GetModelMetadata) and `tensorflow.serving.ModelService` (GetModelStatus), with the messages of
eagerflow/_src/formats/protos/serving_apis.proto (TensorFlow Serving's field numbers), so its clients'
stubs (`prediction_service_pb2_grpc.PredictionServiceStub`) talk to this server unchanged. Errors are
gRPC statuses with TensorFlow Serving's codes and messages; the handlers share the REST API's model
manager, runner (batching) and metrics.
"""
from __future__ import annotations

import time
from concurrent import futures

import grpc
import numpy as np

from .._src.formats.dtypes import datatype_number
from .._src.formats.protos import serving_apis_pb2 as apis
from . import rest_examples
from .errors import ServingError, invalid_argument
from .tensor_protos import to_array, to_proto

SIGNATURE_DEF_FIELD = "signature_def"
_STATES = {"START": 10, "LOADING": 20, "AVAILABLE": 30, "UNLOADING": 40, "END": 50}


def _version_of(spec):
    if spec.WhichOneof("version_choice") == "version":
        return spec.version.value, None
    if spec.WhichOneof("version_choice") == "version_label":
        return None, spec.version_label
    return None, None


class PredictionServicer:
    def __init__(self, manager, runner, metrics=None):
        self.manager = manager
        self.runner = runner
        self.metrics = metrics

    def _servable(self, spec):
        if not spec.name:
            raise invalid_argument("ModelSpec has no name specified.")
        version, label = _version_of(spec)
        return self.manager.servable(spec.name, version, label)

    def _reply_spec(self, reply_spec, request_spec, servable, signature_key):
        reply_spec.name = request_spec.name
        reply_spec.version.value = servable.version
        if signature_key is not None:
            reply_spec.signature_name = signature_key

    def _record(self, spec, api, code, started):
        if self.metrics is not None:
            self.metrics.record_request(spec.name, api, code, time.perf_counter() - started, entrypoint="GRPC")

    # --- methods ---
    def predict(self, request):
        servable = self._servable(request.model_spec)
        signature = servable.signature(request.model_spec.signature_name, "predict_grpc")
        arrays = {name: to_array(proto) for name, proto in request.inputs.items()}
        wanted = list(request.output_filter) or list(signature.outputs)
        for alias in wanted:
            if alias not in signature.outputs:
                raise invalid_argument(f"output tensor alias not found in signature: {alias} Outputs expected to be "
                                       f"in the set {{{','.join(signature.outputs)}}}.")
        outputs = self.runner.run(request.model_spec.name, servable, signature, arrays)
        response = apis.PredictResponse()
        self._reply_spec(response.model_spec, request.model_spec, servable, signature.key)
        for alias in wanted:
            to_proto(outputs[alias], response.outputs[alias])
        return response

    def _examples(self, request) -> np.ndarray:
        kind = request.input.WhichOneof("kind")
        if kind == "example_list":
            examples = [e.SerializeToString() for e in request.input.example_list.examples]
        elif kind == "example_list_with_context":
            listed = request.input.example_list_with_context
            context = listed.context.SerializeToString()
            examples = [context + e.SerializeToString() for e in listed.examples]  # protobuf merges concatenations
        else:
            raise invalid_argument("Input is empty")
        if not examples:
            raise invalid_argument("Input is empty")
        out = np.empty(len(examples), dtype=object)
        out[:] = examples
        return out

    def _run_examples(self, request, check):
        servable = self._servable(request.model_spec)
        signature = servable.signature(request.model_spec.signature_name, "examples")
        check(signature)
        examples = self._examples(request)
        outputs = self.runner.run(request.model_spec.name, servable, signature,
                                  {rest_examples.CLASSIFY_INPUTS: examples})
        return servable, signature, outputs, len(examples)

    def classify(self, request):
        servable, signature, outputs, count = self._run_examples(request, rest_examples.check_classify_signature)
        response = apis.ClassificationResponse()
        self._reply_spec(response.model_spec, request.model_spec, servable, signature.key)
        for row in rest_examples.classification_results(outputs, count):
            classes = response.result.classifications.add()
            for label, score in row:
                classes.classes.add(label=label, score=score)
        return response

    def regress(self, request):
        servable, signature, outputs, count = self._run_examples(request, rest_examples.check_regress_signature)
        response = apis.RegressionResponse()
        self._reply_spec(response.model_spec, request.model_spec, servable, signature.key)
        for value in rest_examples.regression_values(outputs, count):
            response.result.regressions.add(value=value)
        return response

    def get_model_metadata(self, request):
        if not request.metadata_field:
            raise invalid_argument("GetModelMetadataRequest must specify at least one metadata_field")
        for field in request.metadata_field:
            if field != SIGNATURE_DEF_FIELD:
                raise invalid_argument(f"Metadata field {field} is not supported")
        servable = self._servable(request.model_spec)
        response = apis.GetModelMetadataResponse()
        self._reply_spec(response.model_spec, request.model_spec, servable, None)
        signature_map = apis.SignatureDefMap()
        for key, signature in sorted(servable.signatures.items()):
            _fill_signature_def(signature_map.signature_def[key], signature)
        entry = response.metadata[SIGNATURE_DEF_FIELD]
        entry.type_url = "type.googleapis.com/tensorflow.serving.SignatureDefMap"
        entry.value = signature_map.SerializeToString()
        return response

    def get_model_status(self, request):
        spec = request.model_spec
        version, label = _version_of(spec)
        if not spec.name:
            raise invalid_argument("Missing model name in request.")
        response = apis.GetModelStatusResponse()
        for state in self.manager.status(spec.name, version, label):
            status = response.model_version_status.add(version=state.version, state=_STATES[state.state])
            status.status.error_code = ServingError(state.error_code, "").grpc_code
            status.status.error_message = state.error_message
        return response


def _fill_signature_def(proto, signature):
    for target, infos in ((proto.inputs, signature.inputs), (proto.outputs, signature.outputs)):
        for alias, info in infos.items():
            entry = target[alias]
            entry.name = info.tensor_name
            entry.dtype = datatype_number(info.dtype)
            if info.shape is None:
                entry.tensor_shape.unknown_rank = True
            else:
                for size in info.shape:
                    entry.tensor_shape.dim.add().size = -1 if size is None else size
    proto.method_name = signature.method_name


def _handler(method, request_class, response_class, api, servicer):
    def handle(request, context):
        started = time.perf_counter()
        try:
            response = method(request)
        except ServingError as err:
            servicer._record(request.model_spec, api, err.code, started)
            context.abort(grpc.StatusCode[err.code], err.message)
        servicer._record(request.model_spec, api, "OK", started)
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
            "GetModelMetadata": _handler(s.get_model_metadata, apis.GetModelMetadataRequest,
                                         apis.GetModelMetadataResponse, "metadata", s)}),
        grpc.method_handlers_generic_handler("tensorflow.serving.ModelService", {
            "GetModelStatus": _handler(s.get_model_status, apis.GetModelStatusRequest,
                                       apis.GetModelStatusResponse, "status", s)}),
    ))
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if server.add_insecure_port(address) == 0:
        raise OSError(f"cannot bind the gRPC port {address}")
    return server
