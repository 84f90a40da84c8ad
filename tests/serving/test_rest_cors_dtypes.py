"""--rest_api_enable_cors_support and the dtypes JSON carries, on a real `eagerflow serve` process:
TensorFlow Serving's three CORS headers on every REST answer (errors too), its preflight rule (an
OPTIONS request needs an http(s) Origin), and its refusal to convert bfloat16 (or half) to and from JSON
while gRPC carries them (restated from its http_server.cc, http_rest_api_util.cc and json_tensor.cc)."""
import json
import urllib.error
import urllib.request

import numpy as np
import pytest

pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")
grpc = pytest.importorskip("grpc", reason="eagerflow[serve] is not installed")
ml_dtypes = pytest.importorskip("ml_dtypes", reason="eagerflow[bfloat16] is not installed")

from eagerflow._src.formats.protos import serving_apis_pb2 as apis  # noqa: E402
from eagerflow.serving.tensor_protos import to_array, to_proto  # noqa: E402

from .models import affine_expected, save_affine, save_bfloat16  # noqa: E402
from .server import Server  # noqa: E402

CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Allow-Methods": "POST, GET",
        "Access-Control-Allow-Headers": "Content-Type"}
CONFIG = """model_config_list {
  config { name: "affine" base_path: "%s" }
  config { name: "bf16" base_path: "%s" }
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("cors")
    save_affine(root / "affine" / "1", 1.0)
    save_bfloat16(root / "bf16" / "1")
    (root / "models.config").write_text(CONFIG % (root / "affine", root / "bf16"))
    server = Server(f"--model_config_file={root / 'models.config'}", "--rest_api_enable_cors_support=true",
                    "--tensorflow_intra_op_parallelism=1",
                    cwd=root, grpc=True)
    yield server
    assert server.stop() == 0, server.output()


def exchange(server, path, body=None, method=None, headers=None):
    """(status, headers, body text) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url(path), data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read().decode()


def test_every_answer_carries_the_cors_headers(server):
    status, headers, text = exchange(server, "/v1/models/affine:predict", {"instances": [[1.0, 2.0]]})
    assert status == 200 and json.loads(text)["predictions"] == affine_expected([[1.0, 2.0]]).tolist()
    assert {k: headers[k] for k in CORS} == CORS
    status, headers, text = exchange(server, "/v1/models/absent")
    assert status == 404 and {k: headers[k] for k in CORS} == CORS


def test_a_preflight_needs_an_http_origin(server):
    status, headers, text = exchange(server, "/v1/models/affine:predict", method="OPTIONS",
                                     headers={"Origin": "https://example.test",
                                              "Access-Control-Request-Method": "POST"})
    assert (status, text) == (200, "") and {k: headers[k] for k in CORS} == CORS
    status, headers, text = exchange(server, "/v1/models/affine:predict", method="OPTIONS")
    assert (status, text) == (400, "") and headers["Access-Control-Allow-Origin"] == "*"


def test_bfloat16_is_refused_by_json_both_ways_and_carried_by_grpc(server):
    status, _, text = exchange(server, "/v1/models/bf16:predict", {"instances": [1.5, 2.0]})
    assert status == 501 and json.loads(text) == {"error": "Conversion of JSON Value: 1.5 to type: bfloat16"}
    status, _, text = exchange(server, "/v1/models/bf16:predict",
                               {"signature_name": "to_bfloat16", "instances": [1.5]})
    assert status == 400 and json.loads(text) == {"error": "Failed to write JSON value for tensor type: bfloat16"}
    request = apis.PredictRequest()
    request.model_spec.name = "bf16"
    to_proto(np.array([1.5, -3.0], ml_dtypes.bfloat16), request.inputs["x"])
    with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
        predict = channel.unary_unary("/tensorflow.serving.PredictionService/Predict",
                                      request_serializer=apis.PredictRequest.SerializeToString,
                                      response_deserializer=apis.PredictResponse.FromString)
        y = to_array(predict(request, timeout=60).outputs["y"])
    assert y.dtype == ml_dtypes.bfloat16 and y.astype(np.float32).tolist() == [3.0, -6.0]
