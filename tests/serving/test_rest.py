"""The REST API end to end: a real `eagerflow serve` process on a free loopback port, every endpoint
in TensorFlow Serving's URLs and JSON shapes, answers checked against NumPy, and each error with
TensorFlow Serving's HTTP status and message."""
import base64
import math

import numpy as np
import pytest

pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")
pytest.importorskip("starlette", reason="eagerflow[serve] is not installed")

from .models import affine_expected, save_affine, save_multi
from .server import Server

CONFIG = """model_config_list {
  config { name: "affine" base_path: "%s" model_version_policy { all {} }
           version_labels { key: "stable" value: 1 } version_labels { key: "canary" value: 2 } }
  config { name: "multi" base_path: "%s" }
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("rest")
    save_affine(root / "affine" / "1", 1.0)
    save_affine(root / "affine" / "2", 2.0)
    save_multi(root / "multi" / "7")
    (root / "models.config").write_text(CONFIG % (root / "affine", root / "multi"))
    server = Server(f"--model_config_file={root / 'models.config'}", "--max_request_bytes=100000",
                    cwd=root)
    yield server
    assert server.stop() == 0, server.output()


def test_model_status_of_all_versions_one_version_and_a_label(server):
    status, body = server.request("/v1/models/affine")
    ok = {"error_code": "OK", "error_message": ""}
    assert status == 200 and body == {"model_version_status": [
        {"version": "2", "state": "AVAILABLE", "status": ok}, {"version": "1", "state": "AVAILABLE", "status": ok}]}
    assert server.request("/v1/models/affine/versions/1")[1] == {
        "model_version_status": [{"version": "1", "state": "AVAILABLE", "status": ok}]}
    assert server.request("/v1/models/affine/labels/canary")[1]["model_version_status"][0]["version"] == "2"


def test_metadata_lists_signature_defs(server):
    status, body = server.request("/v1/models/multi/metadata")
    assert status == 200
    assert body["model_spec"] == {"name": "multi", "signature_name": "", "version": "7"}
    signatures = body["metadata"]["signature_def"]["signature_def"]
    assert sorted(signatures) == ["classify_x", "regress_x", "serving_default"]
    default = signatures["serving_default"]
    assert default["method_name"] == "tensorflow/serving/predict"
    assert sorted(default["inputs"]) == ["n", "tag", "x"]
    assert default["inputs"]["x"]["dtype"] == "DT_FLOAT"
    assert default["inputs"]["x"]["tensor_shape"] == {
        "dim": [{"size": "-1", "name": ""}, {"size": "2", "name": ""}], "unknown_rank": False}
    assert default["inputs"]["n"]["dtype"] == "DT_INT32" and default["inputs"]["tag"]["dtype"] == "DT_STRING"
    assert default["outputs"]["length"]["dtype"] == "DT_INT32"
    assert server.request("/v1/models/affine/versions/1/metadata")[1]["model_spec"]["version"] == "1"


def test_predict_row_format_one_input_one_output(server):
    x = [[1.0, 2.0], [-3.0, 0.5]]
    status, body = server.request("/v1/models/affine:predict", {"instances": x})
    assert status == 200 and list(body) == ["predictions"]
    np.testing.assert_allclose(body["predictions"], affine_expected(x, 2.0), rtol=1e-6)
    for path, scale in (("/v1/models/affine/versions/1:predict", 1.0), ("/v1/models/affine/labels/canary:predict", 2.0)):
        np.testing.assert_allclose(server.request(path, {"instances": x})[1]["predictions"],
                                   affine_expected(x, scale), rtol=1e-6)


def test_predict_columnar_format_and_integers_for_a_float_input(server):
    status, body = server.request("/v1/models/affine/versions/1:predict", {"inputs": [[1, 2], [3, 4]]})
    assert status == 200 and list(body) == ["outputs"]
    np.testing.assert_allclose(body["outputs"], affine_expected([[1, 2], [3, 4]]), rtol=1e-6)
    status, body = server.request("/v1/models/affine/versions/1:predict", {"inputs": {"x": [[1, 2]]}})
    np.testing.assert_allclose(body["outputs"], affine_expected([[1, 2]]), rtol=1e-6)


def test_predict_several_named_inputs_and_outputs_with_b64(server):
    instances = [{"x": [1.0, 2.0], "n": 2, "tag": "héllo"},
                 {"x": [0.5, 0.5], "n": 3, "tag": {"b64": base64.b64encode(b"\x00\xffab").decode()}}]
    status, body = server.request("/v1/models/multi:predict", {"instances": instances})
    assert status == 200
    assert body["predictions"] == [
        {"echo_bytes": {"b64": base64.b64encode("héllo".encode()).decode()}, "length": 6, "total": 6.0},
        {"echo_bytes": {"b64": base64.b64encode(b"\x00\xffab").decode()}, "length": 4, "total": 3.0}]
    columnar = {"inputs": {"x": [[1.0, 2.0]], "n": [4], "tag": ["abc"]}, "signature_name": "serving_default"}
    assert server.request("/v1/models/multi:predict", columnar)[1] == {
        "outputs": {"echo_bytes": [{"b64": "YWJj"}], "length": [3], "total": [12.0]}}


def test_predict_nan_and_infinity_travel_as_tensorflow_serving_writes_them(server):
    status, body = server.request("/v1/models/affine/versions/1:predict",
                                  raw=b'{"instances": [[NaN, 1.0], [Infinity, 0.0]]}')
    assert status == 200
    assert math.isnan(body["predictions"][0][0]) and body["predictions"][1][0] == math.inf


def test_classify_and_regress(server):
    examples = [{"x": [1.0, 2.0], "k": 3}, {"x": [0.0, 0.0], "k": 2}]
    status, body = server.request("/v1/models/multi:regress", {"signature_name": "regress_x", "examples": examples})
    assert status == 200 and body == {"results": [9.0, 0.0]}
    status, body = server.request("/v1/models/multi:regress", {"signature_name": "regress_x", "context": {"k": 2},
                                                                "examples": [{"x": [1.0, 1.5]}]})
    assert body == {"results": [5.0]}
    status, body = server.request("/v1/models/multi:classify", {"signature_name": "classify_x",
                                                                 "examples": [{"x": [0.0, 1.0]}]})
    softmax = np.exp([0.0, 1.0]) / np.exp([0.0, 1.0]).sum()
    assert status == 200 and [label for label, _ in body["results"][0]] == ["neg", "pos"]
    np.testing.assert_allclose([score for _, score in body["results"][0]], softmax, rtol=1e-6)


@pytest.mark.parametrize("path, body, status, message", [
    ("/v1/models/nope:predict", {"instances": [1]}, 404, "Servable not found for request: Latest(nope)"),
    ("/v1/models/affine/versions/9:predict", {"instances": [[1, 2]]}, 404,
     "Servable not found for request: Specific(affine, 9)"),
    ("/v1/models/affine/labels/beta:predict", {"instances": [[1, 2]]}, 400,
     "Unrecognized servable version label: beta"),
    ("/v1/models/affine:predict", {"signature_name": "other", "instances": [[1, 2]]}, 400,
     'Serving signature name: "other" not found in signature def'),
    ("/v1/models/affine:predict", {"instances": [[1, 2, 3]]}, 400,
     "input 'x' has shape [1,3] but the signature accepts [-1,2] (-1: any size)"),
    ("/v1/models/affine:predict", {"instances": [[1, "a"]]}, 400,
     'JSON Value: "a" Type: String is not of expected type: float'),
    ("/v1/models/affine:predict", {"instances": [[1, True]]}, 400,
     "JSON Value: true Type: True is not of expected type: float"),
    ("/v1/models/affine:predict", {"instances": [[1, None]]}, 400,
     "JSON Value: null Type: Null is not of expected type: float"),
    ("/v1/models/affine:predict", {"instances": [[1, 2], [3]]}, 400,
     "Failed to process element: 1 of 'instances' list. Error: INVALID_ARGUMENT: Expecting shape [2] but got: [1]"),
    ("/v1/models/affine:predict", {"inputs": [[1, 2], [3]]}, 400,
     "Encountered list at unexpected size: 1 at level: 1 expected size: 2"),
    ("/v1/models/affine:predict", {"inputs": {"y": [[1, 2]]}}, 400, "Missing named input: x in 'inputs' object."),
    ("/v1/models/affine:predict", {"instances": [{"y": [1, 2]}]}, 400,
     "Failed to process element: 0 key: y of 'instances' list. Error: INVALID_ARGUMENT: JSON object: does not "
     "have named input: y"),
    ("/v1/models/affine:predict", {"instances": []}, 400, "JSON Value: {\"instances\":[]} No values in 'instances' array"),
    ("/v1/models/affine:predict", {"instances": [[1, 2]], "inputs": [[1, 2]]}, 400,
     "Not formatted correctly expecting only one of 'inputs' or 'instances' keys to exist"),
    ("/v1/models/affine:predict", {"x": 1}, 400, "Missing 'inputs' or 'instances' key"),
    ("/v1/models/affine:predict", {"signature_name": 5, "instances": [1]}, 400,
     "'signature_name' key must be a string value."),
    ("/v1/models/multi:predict", {"instances": [{"x": [1, 2], "n": 1.5, "tag": "a"}]}, 400,
     "JSON Value: 1.5 Type: Number is not of expected type: int32"),
    ("/v1/models/multi:predict", {"instances": [{"x": [1, 2], "n": 2 ** 40, "tag": "a"}]}, 400,
     "JSON Value: 1099511627776 Type: Number is out of range for type: int32"),
    ("/v1/models/multi:predict", {"instances": [[1, 2]]}, 400,
     "instances is a plain list, but expecting list of objects as multiple input tensors required"),
    ("/v1/models/multi:predict", {"instances": [{"x": [1, 2], "n": 1, "tag": {"b64": "***"}}]}, 400,
     "Unable to base64 decode"),
    ("/v1/models/multi:classify", {"examples": [{"x": [1.0, 2.0]}]}, 400, "Expected one input Tensor."),
    ("/v1/models/multi:classify", {"signature_name": "nope", "examples": [{"x": [1.0]}]}, 400,
     "No signature was found with the name: nope"),
    ("/v1/models/multi:regress", {"signature_name": "regress_x"}, 400,
     "When method is regress, key 'examples' is expected and was not found"),
    ("/v1/models/multi:regress", {"signature_name": "regress_x", "examples": [{"x": [1.0, "a"]}]}, 400,
     "Unexpected element type in feature: x expecting type: float"),
])
def test_errors_have_tensorflow_servings_status_and_message(server, path, body, status, message):
    got_status, got = server.request(path, body)
    assert got_status == status and message in got["error"], got


@pytest.mark.parametrize("raw, message", [
    (b"", "JSON Parse error: The document is empty"),
    (b'{"instances": [1, 2', "JSON Parse error: "),
    (b"[1, 2]", "JSON Value: [1,2] Is not object"),
    (b'{"instances": ' + b"[" * 100 + b"1" + b"]" * 100 + b"}", "nested more than 32 lists deep"),
    (b'{"instances": ' + b"[" * 5000 + b"]" * 5000 + b"}", "JSON Parse error: the document is nested too deeply"),
])
def test_malformed_bodies(server, raw, message):
    status, body = server.request("/v1/models/affine:predict", raw=raw, method="POST")
    assert status == 400 and message in body["error"]


def test_non_finite_numbers_are_refused_where_integers_belong(server):
    raw = b'{"instances": [{"x": [1, 2], "n": NaN, "tag": "a"}]}'
    status, body = server.request("/v1/models/multi:predict", raw=raw)
    assert status == 400 and "JSON Value: NaN Type: Number is not of expected type: int32" in body["error"]
    raw = b'{"inputs": {"x": [[1, 2]], "n": [-Infinity], "tag": ["a"]}}'
    status, body = server.request("/v1/models/multi:predict", raw=raw)
    assert status == 400 and "JSON Value: -Infinity Type: Number is not of expected type: int32" in body["error"]


def test_unknown_paths_and_methods(server):
    status, body = server.request("/v1/models/affine:explain", {"instances": [1]})
    assert status == 400 and body["error"] == "Malformed request: POST /v1/models/affine:explain"
    status, body = server.request("/v1/models/affine/versions/abc")
    assert status == 400 and body["error"] == "Malformed request: GET /v1/models/affine/versions/abc"
    status, body = server.request("/v1/models/")
    assert status == 400


def test_a_body_above_the_limit_gets_413_and_the_server_keeps_serving(server):
    big = b'{"instances": [' + b"[1.0, 2.0]," * 20000 + b"[1.0, 2.0]]}"
    status, body = server.request("/v1/models/affine:predict", raw=big)
    assert status == 413 and "larger than the server's limit of 100000 bytes" in body["error"]
    assert server.request("/v1/models/affine:predict", {"instances": [[1, 2]]})[0] == 200


def test_without_the_cors_flag_answers_have_no_cors_headers_and_preflights_are_answered(server):
    import urllib.request
    request = urllib.request.Request(server.url("/v1/models/affine"), method="OPTIONS",
                                     headers={"Origin": "http://example.test"})
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.status == 200 and response.read() == b""
        assert "Access-Control-Allow-Origin" not in response.headers
    with urllib.request.urlopen(server.url("/v1/models/affine"), timeout=60) as response:
        assert "Access-Control-Allow-Origin" not in response.headers


def test_a_body_above_the_inline_size_is_decoded_in_a_worker_thread_with_the_same_answer(server):
    from eagerflow.serving.rest_app import INLINE_BODY_BYTES
    rows = [[float(i % 7), -1.5] for i in range(6500)]
    body = ('{"instances": [' + ",".join(f"[{a}, {b}]" for a, b in rows) + "]}").encode()
    assert INLINE_BODY_BYTES < len(body) < 100000  # past the event loop's share, within the server's limit
    status, answer = server.request("/v1/models/affine/versions/1:predict", raw=body)
    assert status == 200
    np.testing.assert_allclose(answer["predictions"], affine_expected(rows), rtol=1e-6)
