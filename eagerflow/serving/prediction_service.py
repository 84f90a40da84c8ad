"""TensorFlow Serving's PredictionService and ModelService methods on its protobuf messages, without gRPC:
grpc_service.py puts them on a grpcio server, and warmup.py replays a SavedModel's logged requests through
them while the version loads. Errors are ServingErrors with TensorFlow Serving's codes and messages; the
methods share the REST API's model manager, runner (batching) and metrics.
"""
from __future__ import annotations

import time

import numpy as np

from .._src.formats.dtypes import datatype_number
from .._src.formats.protos import serving_apis_pb2 as apis
from . import rest_examples
from .errors import ServingError, invalid_argument
from .reload_config import reload_config
from .servable import DEFAULT_SIGNATURE
from .tensor_protos import to_array, to_proto

CLASSIFY_METHOD, REGRESS_METHOD = "tensorflow/serving/classify", "tensorflow/serving/regress"
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

    def _record(self, model_name, api, code, started):
        if self.metrics is not None:
            self.metrics.record_request(model_name, api, code, time.perf_counter() - started, entrypoint="GRPC")

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
        _fill_classifications(response.result, outputs, count)
        return response

    def regress(self, request):
        servable, signature, outputs, count = self._run_examples(request, rest_examples.check_regress_signature)
        response = apis.RegressionResponse()
        self._reply_spec(response.model_spec, request.model_spec, servable, signature.key)
        _fill_regressions(response.result, outputs, count)
        return response

    def multi_inference(self, request):
        """Several classify/regress signatures of one model version on the same examples: each task's
        result in order, under TensorFlow Serving's rules (one model name, no signature twice)."""
        first = request.tasks[0].model_spec if request.tasks else apis.ModelSpec()
        servable = self._servable(first)
        plan, seen = [], set()
        for task in request.tasks:
            spec = task.model_spec
            if not spec.name:
                raise invalid_argument("Found ModelSpec with an empty model name.")
            if spec.name != first.name:
                raise invalid_argument("All ModelSpecs in a MultiInferenceRequest must access the same model name.")
            key = spec.signature_name or DEFAULT_SIGNATURE
            if key in seen:
                raise invalid_argument(f"Duplicate evaluation of signature: {key}")
            seen.add(key)
            if key not in servable.signatures:
                raise invalid_argument(f"Requested signature not found in model graph: {key}")
            signature = servable.signatures[key]
            if task.method_name == CLASSIFY_METHOD:
                rest_examples.check_classify_signature(signature)
            elif task.method_name == REGRESS_METHOD:
                rest_examples.check_regress_signature(signature)
            else:
                raise ServingError("UNIMPLEMENTED", f"Unsupported signature method_name: {task.method_name}")
            plan.append((task, signature))
        examples = self._examples(request)
        response = apis.MultiInferenceResponse()
        for task, signature in plan:
            outputs = self.runner.run(first.name, servable, signature, {rest_examples.CLASSIFY_INPUTS: examples})
            result = response.results.add()
            if task.method_name == CLASSIFY_METHOD:
                _fill_classifications(result.classification_result, outputs, len(examples))
            else:
                _fill_regressions(result.regression_result, outputs, len(examples))
            result.model_spec.name = task.model_spec.name
            result.model_spec.signature_name = signature.key
            result.model_spec.version.value = servable.version
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

    def handle_reload_config_request(self, request):
        return reload_config(self.manager, request)

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


def _fill_classifications(result, outputs, count):
    for row in rest_examples.classification_results(outputs, count):
        classes = result.classifications.add()
        for label, score in row:
            classes.classes.add(label=label, score=score)


def _fill_regressions(result, outputs, count):
    for value in rest_examples.regression_values(outputs, count):
        result.regressions.add(value=value)


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
