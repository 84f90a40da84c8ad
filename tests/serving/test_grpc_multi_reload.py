"""PredictionService.MultiInference and ModelService.HandleReloadConfigRequest end to end on a real
`eagerflow serve` process, with TensorFlow Serving's messages, codes and error texts (restated from its
multi_inference.cc, server_core.cc and model_service_impl.cc)."""
import numpy as np
import pytest

grpc = pytest.importorskip("grpc", reason="eagerflow[serve] is not installed")
pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")

from eagerflow._src.formats.protos import example_pb2  # noqa: E402
from eagerflow._src.formats.protos import serving_apis_pb2 as apis  # noqa: E402
from eagerflow._src.formats.protos import serving_config_pb2  # noqa: E402
from eagerflow.serving.tensor_protos import to_array, to_proto  # noqa: E402

from .models import affine_expected, save_affine, save_multi  # noqa: E402
from .server import Server  # noqa: E402

CLASSIFY, REGRESS = "tensorflow/serving/classify", "tensorflow/serving/regress"
RESPONSES = {"MultiInference": apis.MultiInferenceResponse, "Predict": apis.PredictResponse,
             "HandleReloadConfigRequest": apis.ReloadConfigResponse, "GetModelStatus": apis.GetModelStatusResponse}


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    root = tmp_path_factory.mktemp("multi_reload")
    save_affine(root / "affine" / "1", 1.0)
    save_affine(root / "affine" / "2", 2.0)
    save_multi(root / "multi" / "7")
    return root


@pytest.fixture(scope="module")
def call(root):
    (root / "models.config").write_text(
        f'model_config_list {{ config {{ name: "multi" base_path: "{root / "multi"}" }} }}')
    server = Server(f"--model_config_file={root / 'models.config'}", "--file_system_poll_wait_seconds=0",
                    cwd=root, grpc=True)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}")

    def call(method, request):
        service = "ModelService" if method in ("HandleReloadConfigRequest", "GetModelStatus") else "PredictionService"
        stub = channel.unary_unary(f"/tensorflow.serving.{service}/{method}",
                                   request_serializer=type(request).SerializeToString,
                                   response_deserializer=RESPONSES[method].FromString)
        return stub(request, timeout=60)

    yield call
    channel.close()
    assert server.stop() == 0, server.output()


def _example(**features):
    e = example_pb2.Example()
    for name, values in features.items():
        feature = e.features.feature[name]
        if isinstance(values[0], float):
            feature.float_list.value.extend(values)
        else:
            feature.int64_list.value.extend(values)
    return e


def _multi_request(*tasks):
    request = apis.MultiInferenceRequest()
    for name, signature, method in tasks:
        task = request.tasks.add(method_name=method)
        task.model_spec.name = name
        task.model_spec.signature_name = signature
    request.input.example_list.examples.extend([_example(x=[1.0, 2.0], k=[3]), _example(x=[0.0, 1.0], k=[2])])
    return request


def _error(call, method, request):
    with pytest.raises(grpc.RpcError) as info:
        call(method, request)
    return info.value.code().name, info.value.details()


def test_multi_inference_runs_each_task_on_the_same_examples(call):
    response = call("MultiInference", _multi_request(("multi", "regress_x", REGRESS), ("multi", "classify_x", CLASSIFY)))
    first, second = response.results
    assert [r.value for r in first.regression_result.regressions] == [9.0, 2.0]
    assert (first.model_spec.name, first.model_spec.signature_name, first.model_spec.version.value) == \
        ("multi", "regress_x", 7)
    rows = second.classification_result.classifications
    assert [[c.label for c in row.classes] for row in rows] == [["neg", "pos"], ["neg", "pos"]]
    for row, x in zip(rows, ([1.0, 2.0], [0.0, 1.0])):
        np.testing.assert_allclose([c.score for c in row.classes], np.exp(x) / np.exp(x).sum(), rtol=1e-6)
    assert second.model_spec.signature_name == "classify_x" and second.WhichOneof("result") == "classification_result"


def test_multi_inference_errors_are_tensorflow_servings(call):
    cases = [
        ([("multi", "regress_x", REGRESS), ("other", "classify_x", CLASSIFY)],
         ("INVALID_ARGUMENT", "All ModelSpecs in a MultiInferenceRequest must access the same model name.")),
        ([("multi", "regress_x", REGRESS), ("", "classify_x", CLASSIFY)],
         ("INVALID_ARGUMENT", "Found ModelSpec with an empty model name.")),
        ([("multi", "regress_x", REGRESS), ("multi", "regress_x", REGRESS)],
         ("INVALID_ARGUMENT", "Duplicate evaluation of signature: regress_x")),
        ([("multi", "nope", REGRESS)], ("INVALID_ARGUMENT", "Requested signature not found in model graph: nope")),
        ([("multi", "regress_x", "tensorflow/serving/predict")],
         ("UNIMPLEMENTED", "Unsupported signature method_name: tensorflow/serving/predict")),
        ([("multi", "", CLASSIFY)], ("INVALID_ARGUMENT", "Expected one input Tensor.")),  # serving_default: 3 inputs
        ([], ("INVALID_ARGUMENT", "ModelSpec has no name specified.")),
        ([("absent", "regress_x", REGRESS)], ("NOT_FOUND", "Servable not found for request: Latest(absent)")),
    ]
    for tasks, expected in cases:
        assert _error(call, "MultiInference", _multi_request(*tasks)) == expected, tasks


def _reload_request(root, *models, platform="tensorflow"):
    request = apis.ReloadConfigRequest()
    for name, policy, labels in models:
        config = request.config.model_config_list.config.add(name=name, base_path=str(root / name),
                                                             model_platform=platform)
        if policy == "all":
            config.model_version_policy.all.SetInParent()
        elif policy:
            config.model_version_policy.specific.versions.extend(policy)
        config.version_labels.update(labels)
    return request


def _status(call, name):
    request = apis.GetModelStatusRequest()
    request.model_spec.name = name
    return {s.version: apis.ModelVersionStatus.State.Name(s.state)
            for s in call("GetModelStatus", request).model_version_status}


def _predict(call, name, version=None, label=None):
    request = apis.PredictRequest()
    request.model_spec.name = name
    if version is not None:
        request.model_spec.version.value = version
    if label is not None:
        request.model_spec.version_label = label
    to_proto(np.array([[1.0, 2.0]], np.float32), request.inputs["x"])
    return to_array(call("Predict", request).outputs["y"])


def test_reload_config_adds_models_changes_policies_and_removes_models(root, call):
    response = call("HandleReloadConfigRequest",
                    _reload_request(root, ("multi", None, {}), ("affine", "all", {"stable": 1})))
    assert response.HasField("status") and response.status.error_code == 0 and response.status.error_message == ""
    assert _status(call, "affine") == {2: "AVAILABLE", 1: "AVAILABLE"}  # loaded before the answer
    np.testing.assert_allclose(_predict(call, "affine", label="stable"), affine_expected([[1.0, 2.0]], 1.0))
    np.testing.assert_allclose(_predict(call, "affine"), affine_expected([[1.0, 2.0]], 2.0))
    call("HandleReloadConfigRequest", _reload_request(root, ("affine", [1], {})))  # multi removed, affine 1 only
    assert _status(call, "affine") == {2: "END", 1: "AVAILABLE"}
    np.testing.assert_allclose(_predict(call, "affine"), affine_expected([[1.0, 2.0]], 1.0))
    with pytest.raises(grpc.RpcError) as info:
        _predict(call, "multi")
    assert info.value.code().name == "NOT_FOUND"
    # a label for a version that is not available: refused, and the labels stay as they were
    call("HandleReloadConfigRequest", _reload_request(root, ("affine", [1], {"stable": 1})))
    assert _error(call, "HandleReloadConfigRequest", _reload_request(root, ("affine", [1], {"stable": 2}))) == (
        "FAILED_PRECONDITION", "Request to assign label to version 2 of model affine, which is not currently "
                               "available for inference")
    np.testing.assert_allclose(_predict(call, "affine", label="stable"), affine_expected([[1.0, 2.0]], 1.0))


def test_reload_config_errors_are_tensorflow_servings(root, call):
    duplicate = _reload_request(root, ("affine", None, {}), ("affine", None, {}))
    relative = _reload_request(root, ("affine", None, {}))
    relative.config.model_config_list.config[0].base_path = "models/affine"
    cases = [
        (apis.ReloadConfigRequest(), ("INVALID_ARGUMENT", "ServerModelConfig type not supported by "
                                      "HandleReloadConfigRequest. Only ModelConfigList is currently supported")),
        (duplicate, ("INVALID_ARGUMENT", "Illegal to list model affine multiple times in config list")),
        (relative, ("INVALID_ARGUMENT", "Expected model affine to have an absolute path or URI; got "
                                        "base_path()=models/affine")),
        (_reload_request(root, ("affine", None, {}), platform=""),
         ("INVALID_ARGUMENT", "Illegal setting neither ModelServerConfig::model_type (deprecated) nor "
                              "ModelServerConfig::model_platform, model name is affine")),
        (_reload_request(root, ("affine", None, {}), platform="onnx"),
         ("INVALID_ARGUMENT", "Model affine requests unsupported platform onnx")),
    ]
    for request, expected in cases:
        assert _error(call, "HandleReloadConfigRequest", request) == expected
    deprecated = _reload_request(root, ("multi", None, {}), platform="")
    deprecated.config.model_config_list.config[0].model_type = serving_config_pb2.TENSORFLOW  # the deprecated way still works
    assert call("HandleReloadConfigRequest", deprecated).status.error_code == 0
    assert _status(call, "multi") == {7: "AVAILABLE"}
