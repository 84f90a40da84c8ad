"""The gRPC API end to end: a real `eagerflow serve` process and a grpcio channel calling
tensorflow.serving.PredictionService and ModelService by their method paths with TensorFlow Serving's
messages; answers checked against NumPy, errors with TensorFlow Serving's status codes and messages."""
import numpy as np
import pytest

grpc = pytest.importorskip("grpc", reason="eagerflow[serve] is not installed")
pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")

from eagerflow._src.formats.protos import example_pb2, meta_graph_pb2  # noqa: E402
from eagerflow._src.formats.protos import serving_apis_pb2 as apis  # noqa: E402
from eagerflow.serving.tensor_protos import to_array, to_proto  # noqa: E402

from .models import affine_expected, save_affine, save_multi  # noqa: E402
from .server import Server  # noqa: E402

CONFIG = """model_config_list {
  config { name: "affine" base_path: "%s" model_version_policy { all {} } version_labels { key: "stable" value: 1 } }
  config { name: "multi" base_path: "%s" }
}"""
METHODS = {"Predict": (apis.PredictRequest, apis.PredictResponse),
           "Classify": (apis.ClassificationRequest, apis.ClassificationResponse),
           "Regress": (apis.RegressionRequest, apis.RegressionResponse),
           "GetModelMetadata": (apis.GetModelMetadataRequest, apis.GetModelMetadataResponse)}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("grpc")
    save_affine(root / "affine" / "1", 1.0)
    save_affine(root / "affine" / "2", 2.0)
    save_multi(root / "multi" / "7")
    (root / "models.config").write_text(CONFIG % (root / "affine", root / "multi"))
    server = Server(f"--model_config_file={root / 'models.config'}", cwd=root, grpc=True)
    yield server
    assert server.stop() == 0, server.output()


@pytest.fixture(scope="module")
def call(server):
    channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}")

    def call(method, request, service="PredictionService"):
        response_class = apis.GetModelStatusResponse if method == "GetModelStatus" else METHODS[method][1]
        stub = channel.unary_unary(f"/tensorflow.serving.{service}/{method}",
                                   request_serializer=type(request).SerializeToString,
                                   response_deserializer=response_class.FromString)
        return stub(request, timeout=60)

    yield call
    channel.close()


def _predict_request(name, **inputs):
    request = apis.PredictRequest()
    request.model_spec.name = name
    for key, value in inputs.items():
        to_proto(value, request.inputs[key])
    return request


def test_predict_latest_specific_version_and_label(call):
    x = np.array([[1.0, 2.0], [-3.0, 0.5]], np.float32)
    response = call("Predict", _predict_request("affine", x=x))
    assert response.model_spec.name == "affine" and response.model_spec.version.value == 2
    assert response.model_spec.signature_name == "serving_default"
    np.testing.assert_allclose(to_array(response.outputs["y"]), affine_expected(x, 2.0), rtol=1e-6)
    request = _predict_request("affine", x=x)
    request.model_spec.version.value = 1
    np.testing.assert_allclose(to_array(call("Predict", request).outputs["y"]), affine_expected(x), rtol=1e-6)
    request = _predict_request("affine", x=x)
    request.model_spec.version_label = "stable"
    assert call("Predict", request).model_spec.version.value == 1


def test_predict_accepts_tensor_content_and_filters_outputs(call):
    request = apis.PredictRequest()
    request.model_spec.name = "multi"
    x = request.inputs["x"]
    x.dtype, x.tensor_content = 1, np.array([[1, 2]], np.float32).tobytes()
    x.tensor_shape.dim.add().size, x.tensor_shape.dim.add().size = 1, 2
    to_proto(np.array([3], np.int32), request.inputs["n"])
    to_proto(np.array([b"\x00abc"], object), request.inputs["tag"])
    request.output_filter.append("length")
    response = call("Predict", request)
    assert list(response.outputs) == ["length"] and to_array(response.outputs["length"]).tolist() == [4]


def test_classify_and_regress_with_examples(call):
    def example(**features):
        e = example_pb2.Example()
        for name, values in features.items():
            feature = e.features.feature[name]
            if isinstance(values[0], float):
                feature.float_list.value.extend(values)
            else:
                feature.int64_list.value.extend(values)
        return e

    request = apis.RegressionRequest()
    request.model_spec.name, request.model_spec.signature_name = "multi", "regress_x"
    request.input.example_list.examples.extend([example(x=[1.0, 2.0], k=[3]), example(x=[0.5, 0.5], k=[2])])
    assert [r.value for r in call("Regress", request).result.regressions] == [9.0, 2.0]
    request = apis.RegressionRequest()
    request.model_spec.name, request.model_spec.signature_name = "multi", "regress_x"
    request.input.example_list_with_context.context.CopyFrom(example(k=[2]))
    request.input.example_list_with_context.examples.append(example(x=[1.0, 1.5]))
    assert [r.value for r in call("Regress", request).result.regressions] == [5.0]
    request = apis.ClassificationRequest()
    request.model_spec.name, request.model_spec.signature_name = "multi", "classify_x"
    request.input.example_list.examples.append(example(x=[0.0, 1.0]))
    classes = call("Classify", request).result.classifications[0].classes
    assert [c.label for c in classes] == ["neg", "pos"]
    np.testing.assert_allclose([c.score for c in classes], np.exp([0.0, 1.0]) / np.exp([0.0, 1.0]).sum(), rtol=1e-6)


def test_model_metadata_and_status(call):
    request = apis.GetModelMetadataRequest()
    request.model_spec.name = "multi"
    request.metadata_field.append("signature_def")
    response = call("GetModelMetadata", request)
    assert response.model_spec.version.value == 7
    entry = response.metadata["signature_def"]
    assert entry.type_url == "type.googleapis.com/tensorflow.serving.SignatureDefMap"
    signatures = apis.SignatureDefMap.FromString(entry.value).signature_def
    assert sorted(signatures) == ["classify_x", "regress_x", "serving_default"]
    x = signatures["serving_default"].inputs["x"]
    assert x.dtype == 1 and [d.size for d in x.tensor_shape.dim] == [-1, 2]
    assert isinstance(signatures["serving_default"], meta_graph_pb2.SignatureDef)
    status_request = apis.GetModelStatusRequest()
    status_request.model_spec.name = "affine"
    status = call("GetModelStatus", status_request, service="ModelService")
    assert [(s.version, s.state, s.status.error_code) for s in status.model_version_status] == [(2, 30, 0), (1, 30, 0)]


def _code_and_message(call, method, request, service="PredictionService"):
    with pytest.raises(grpc.RpcError) as info:
        call(method, request, service)
    return info.value.code(), info.value.details()


def test_errors_have_tensorflow_servings_codes_and_messages(call):
    x = np.ones((1, 2), np.float32)
    assert _code_and_message(call, "Predict", _predict_request("nope", x=x)) == (
        grpc.StatusCode.NOT_FOUND, "Servable not found for request: Latest(nope)")
    request = _predict_request("affine", x=x)
    request.model_spec.signature_name = "other"
    assert _code_and_message(call, "Predict", request) == (
        grpc.StatusCode.FAILED_PRECONDITION, 'Serving signature key "other" not found.')
    assert _code_and_message(call, "Predict", _predict_request("affine", z=x)) == (
        grpc.StatusCode.INVALID_ARGUMENT, "input size does not match signature: 1!=1 len({z}) != len({x}). "
                                          "Sent extra: {z}. Missing but required: {x}.")
    code, message = _code_and_message(call, "Predict", _predict_request("affine", x=np.ones((1, 2), np.int32)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "to be float but int32 is provided" in message
    code, message = _code_and_message(call, "Predict", _predict_request("affine", x=np.ones((1, 3), np.float32)))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "has shape [1,3]" in message
    request = _predict_request("affine", x=x)
    request.output_filter.append("w")
    assert _code_and_message(call, "Predict", request) == (
        grpc.StatusCode.INVALID_ARGUMENT, "output tensor alias not found in signature: w Outputs expected to be in "
                                          "the set {y}.")
    status_request = apis.GetModelStatusRequest()
    status_request.model_spec.name = "affine"
    status_request.model_spec.version.value = 5
    assert _code_and_message(call, "GetModelStatus", status_request, "ModelService") == (
        grpc.StatusCode.NOT_FOUND, "Could not find version 5 of model affine")
    huge = apis.PredictRequest()
    huge.model_spec.name = "affine"
    huge.inputs["x"].dtype = 1
    huge.inputs["x"].tensor_shape.dim.add().size = 10 ** 9
    huge.inputs["x"].tensor_shape.dim.add().size = 2
    huge.inputs["x"].float_val.append(1.0)  # a short list repeats its last value: 8 GB asked for in a few bytes
    code, message = _code_and_message(call, "Predict", huge)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "larger than the server's limit" in message
    metadata = apis.GetModelMetadataRequest()
    metadata.model_spec.name = "affine"
    assert _code_and_message(call, "GetModelMetadata", metadata) == (
        grpc.StatusCode.INVALID_ARGUMENT, "GetModelMetadataRequest must specify at least one metadata_field")


def test_a_malformed_message_is_refused_and_the_server_keeps_serving(server, call):
    channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}")
    raw = channel.unary_unary("/tensorflow.serving.PredictionService/Predict",
                              request_serializer=lambda data: data, response_deserializer=lambda data: data)
    with pytest.raises(grpc.RpcError) as info:
        raw(b"\x0a\xff\xff\xff\xff\x0f", timeout=30)  # a length that runs past the end of the message
    assert info.value.code() == grpc.StatusCode.INTERNAL  # grpcio's answer to a request it cannot parse
    channel.close()
    x = np.ones((1, 2), np.float32)
    np.testing.assert_allclose(to_array(call("Predict", _predict_request("affine", x=x)).outputs["y"]),
                               affine_expected(x, 2.0), rtol=1e-6)
