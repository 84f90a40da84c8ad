"""SavedModel warmup: `assets.extra/tf_serving_warmup_requests` (TFRecords of PredictionLog) replayed while a
version loads, as TensorFlow Serving does (saved_model_warmup_util.cc): every kind of logged request runs,
a failing or unreadable record fails the load with TensorFlow Serving's message, and on a real server the
version with bad warmup data is reported END while the good one serves."""
import numpy as np
import pytest

pytest.importorskip("google.protobuf", reason="protobuf is not installed")

from eagerflow._src.formats.protos import example_pb2  # noqa: E402
from eagerflow._src.formats.protos import serving_apis_pb2 as apis  # noqa: E402
from eagerflow._src.io.records import frames  # noqa: E402
from eagerflow.serving.errors import ServingError  # noqa: E402
from eagerflow.serving.servable import load_servable  # noqa: E402
from eagerflow.serving.tensor_protos import to_proto  # noqa: E402
from eagerflow.serving.warmup import replay  # noqa: E402

from .models import affine_expected, save_affine, save_multi  # noqa: E402


def _write_warmup(folder, logs):
    (folder / "assets.extra").mkdir(exist_ok=True)
    data = frames([log if isinstance(log, bytes) else log.SerializeToString() for log in logs])
    (folder / "assets.extra" / "tf_serving_warmup_requests").write_bytes(data)


def _predict_log(name="affine", x=np.array([[1.0, 2.0]], np.float32)):
    log = apis.PredictionLog()
    log.predict_log.request.model_spec.name = name
    to_proto(x, log.predict_log.request.inputs["x"])
    return log


def _examples_input(target):
    example = example_pb2.Example()
    example.features.feature["x"].float_list.value.extend([1.0, 2.0])
    example.features.feature["k"].int64_list.value.append(3)
    target.example_list.examples.append(example)


def test_every_kind_of_logged_request_is_replayed(tmp_path):
    folder = tmp_path / "multi" / "1"
    save_multi(folder)
    predict = apis.PredictionLog()
    request = predict.predict_log.request
    for key, value in {"x": np.ones((1, 2), np.float32), "n": np.array([2], np.int32),
                       "tag": np.array([b"a"], object)}.items():
        to_proto(value, request.inputs[key])
    classify, regress, multi = apis.PredictionLog(), apis.PredictionLog(), apis.PredictionLog()
    classify.classify_log.request.model_spec.signature_name = "classify_x"
    _examples_input(classify.classify_log.request.input)
    regress.regress_log.request.model_spec.signature_name = "regress_x"
    _examples_input(regress.regress_log.request.input)
    task = multi.multi_inference_log.request.tasks.add(method_name="tensorflow/serving/regress")
    task.model_spec.name, task.model_spec.signature_name = "anything", "regress_x"
    _examples_input(multi.multi_inference_log.request.input)
    _write_warmup(folder, [predict, classify, regress, multi])
    servable = load_servable(folder, 1)  # replays them
    assert replay(servable, folder) == 4


@pytest.mark.parametrize("logs, code, message", [
    ([_predict_log(), _predict_log(x=np.ones((1, 2), np.float64))], "INVALID_ARGUMENT",
     "Expects arg[0] (x) to be float but double is provided"),  # TensorFlow's name of float64
    ([b"\xff\xff\xff"], "INVALID_ARGUMENT", "Failed to parse warmup record: "),
    ([apis.PredictionLog(session_run_log=apis.SessionRunLog())], "UNIMPLEMENTED", "Unsupported log_type for warmup: 5"),
    ([_predict_log()] * 1001, "INVALID_ARGUMENT", "Number of warmup records exceeds the maximum (1000) at "),
])
def test_a_bad_warmup_record_fails_the_load(tmp_path, logs, code, message):
    folder = tmp_path / "affine" / "1"
    save_affine(folder, 1.0)
    _write_warmup(folder, logs)
    with pytest.raises(ServingError) as info:
        load_servable(folder, 1)
    assert info.value.code == code and info.value.message.startswith(message)


def test_a_damaged_warmup_file_is_data_loss(tmp_path):
    folder = tmp_path / "affine" / "1"
    save_affine(folder, 1.0)
    _write_warmup(folder, [_predict_log()])
    path = folder / "assets.extra" / "tf_serving_warmup_requests"
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(ServingError) as info:
        load_servable(folder, 1)
    assert info.value.code == "DATA_LOSS"
    assert info.value.message.endswith(". Please verify your warmup data is in TFRecord format.")
    assert replay(None, tmp_path) == 0  # no warmup file: nothing to replay


def test_on_a_real_server_bad_warmup_data_keeps_the_previous_version_serving(tmp_path):
    pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")
    from .server import Server
    import time
    save_affine(tmp_path / "affine" / "1", 1.0)
    _write_warmup(tmp_path / "affine" / "1", [_predict_log(), _predict_log()])
    server = Server(f"--model_base_path={tmp_path / 'affine'}", "--model_name=affine",
                    "--file_system_poll_wait_seconds=0.2", cwd=tmp_path)
    try:
        save_affine(tmp_path / "staging", 2.0)
        _write_warmup(tmp_path / "staging", [_predict_log(x=np.ones((1, 3), np.float32))])
        (tmp_path / "staging").rename(tmp_path / "affine" / "2")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            body = server.request("/v1/models/affine")[1]
            states = {s["version"]: (s["state"], s["status"]["error_code"]) for s in body["model_version_status"]}
            if states.get("2", ("",))[0] == "END":
                break
            time.sleep(0.1)
        assert states == {"2": ("END", "INVALID_ARGUMENT"), "1": ("AVAILABLE", "OK")}
        assert "has shape [1,3]" in body["model_version_status"][0]["status"]["error_message"]
        assert server.request("/v1/models/affine:predict", {"instances": [[1.0, 2.0]]})[1] == {
            "predictions": affine_expected([[1.0, 2.0]], 1.0).tolist()}  # version 1 still serves
    finally:
        assert server.stop() == 0, server.output()
    assert "2 warmup records read" in server.output()
