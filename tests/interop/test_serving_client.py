"""`eagerflow serve` answering TensorFlow Serving's own Python client (the tensorflow-serving-api package's
PredictionServiceStub and ModelServiceStub, with TensorFlow's make_tensor_proto/make_ndarray), unchanged."""
import numpy as np
import pytest

pytest.importorskip("grpc", reason="eagerflow[serve] is not installed")
pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")

from tests.serving.models import affine_expected, save_affine, save_multi  # noqa: E402
from tests.serving.server import Server  # noqa: E402

CONFIG = """model_config_list {
  config { name: "affine" base_path: "%s" }
  config { name: "multi" base_path: "%s" }
}"""


def test_tensorflow_servings_client_talks_to_eagerflow_serve(tmp_path, run_tf):
    save_affine(tmp_path / "affine" / "3", 2.0)
    save_multi(tmp_path / "multi" / "1")
    (tmp_path / "models.config").write_text(CONFIG % (tmp_path / "affine", tmp_path / "multi"))
    server = Server(f"--model_config_file={tmp_path / 'models.config'}", cwd=tmp_path, grpc=True)
    try:
        answer = run_tf(f"""
            import json
            import sys
            import grpc
            import numpy as np
            import tensorflow as tf
            try:
                from tensorflow_serving.apis import (classification_pb2, get_model_metadata_pb2, get_model_status_pb2,
                                                     model_service_pb2_grpc, predict_pb2,
                                                     prediction_service_pb2_grpc, regression_pb2)
            except ImportError:
                print(json.dumps({{"missing": "tensorflow-serving-api"}}))
                sys.exit(0)
            channel = grpc.insecure_channel("127.0.0.1:{server.grpc_port}")
            stub = prediction_service_pb2_grpc.PredictionServiceStub(channel)
            out = {{}}
            request = predict_pb2.PredictRequest()
            request.model_spec.name = "affine"
            request.inputs["x"].CopyFrom(tf.make_tensor_proto(np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)))
            response = stub.Predict(request, 30)
            out["predict"] = tf.make_ndarray(response.outputs["y"]).tolist()
            out["version"] = response.model_spec.version.value
            request = predict_pb2.PredictRequest()
            request.model_spec.name = "multi"
            request.inputs["x"].CopyFrom(tf.make_tensor_proto([[1.0, 2.0]], tf.float32))
            request.inputs["n"].CopyFrom(tf.make_tensor_proto([2], tf.int32))
            request.inputs["tag"].CopyFrom(tf.make_tensor_proto([b"abc"]))
            response = stub.Predict(request, 30)
            out["multi"] = {{k: tf.make_ndarray(v).tolist() for k, v in response.outputs.items()}}
            out["multi"]["echo_bytes"] = [b.decode() for b in out["multi"]["echo_bytes"]]
            request = regression_pb2.RegressionRequest()
            request.model_spec.name, request.model_spec.signature_name = "multi", "regress_x"
            example = request.input.example_list.examples.add()
            example.features.feature["x"].float_list.value.extend([1.0, 2.0])
            example.features.feature["k"].int64_list.value.append(3)
            out["regress"] = [r.value for r in stub.Regress(request, 30).result.regressions]
            request = classification_pb2.ClassificationRequest()
            request.model_spec.name, request.model_spec.signature_name = "multi", "classify_x"
            example = request.input.example_list.examples.add()
            example.features.feature["x"].float_list.value.extend([0.0, 1.0])
            result = stub.Classify(request, 30).result.classifications[0]
            out["classify"] = [[c.label, c.score] for c in result.classes]
            request = get_model_metadata_pb2.GetModelMetadataRequest()
            request.model_spec.name = "multi"
            request.metadata_field.append("signature_def")
            metadata = stub.GetModelMetadata(request, 30)
            signatures = get_model_metadata_pb2.SignatureDefMap()
            metadata.metadata["signature_def"].Unpack(signatures)
            out["signatures"] = sorted(signatures.signature_def)
            out["x_shape"] = [d.size for d in signatures.signature_def["serving_default"].inputs["x"].tensor_shape.dim]
            status = model_service_pb2_grpc.ModelServiceStub(channel).GetModelStatus(
                get_model_status_pb2.GetModelStatusRequest(model_spec={{"name": "affine"}}), 30)
            out["status"] = [[s.version, get_model_status_pb2.ModelVersionStatus.State.Name(s.state)]
                             for s in status.model_version_status]
            request = predict_pb2.PredictRequest()
            request.model_spec.name = "absent"
            try:
                stub.Predict(request, 30)
            except grpc.RpcError as err:
                out["error"] = [err.code().name, err.details()]
            print(json.dumps(out))
        """)
    finally:
        assert server.stop() == 0, server.output()
    if "missing" in answer:
        pytest.skip("TensorFlow's environment has no tensorflow-serving-api (.ci/run installs it with --no-deps)")
    assert answer["version"] == 3
    np.testing.assert_allclose(answer["predict"], affine_expected([[1.0, 2.0], [3.0, -1.0]], 2.0), rtol=1e-6)
    assert answer["multi"] == {"total": [6.0], "length": [3], "echo_bytes": ["abc"]}
    assert answer["regress"] == [9.0]
    assert [label for label, _ in answer["classify"]] == ["neg", "pos"]
    assert answer["signatures"] == ["classify_x", "regress_x", "serving_default"] and answer["x_shape"] == [-1, 2]
    assert answer["status"] == [[3, "AVAILABLE"]]
    assert answer["error"] == ["NOT_FOUND", "Servable not found for request: Latest(absent)"]


def test_tensorflow_servings_client_multi_inference_and_reload_config(tmp_path, run_tf):
    save_affine(tmp_path / "affine" / "1", 1.0)
    save_affine(tmp_path / "affine" / "2", 2.0)
    save_multi(tmp_path / "multi" / "4")
    server = Server(f"--model_base_path={tmp_path / 'multi'}", "--model_name=multi",
                    "--file_system_poll_wait_seconds=0", cwd=tmp_path, grpc=True)
    try:
        answer = run_tf(f"""
            import json
            import sys
            import grpc
            try:
                from tensorflow_serving.apis import (get_model_status_pb2, inference_pb2, model_management_pb2,
                                                     model_service_pb2_grpc, prediction_service_pb2_grpc)
                from tensorflow_serving.config import model_server_config_pb2
            except ImportError:
                print(json.dumps({{"missing": "tensorflow-serving-api"}}))
                sys.exit(0)
            channel = grpc.insecure_channel("127.0.0.1:{server.grpc_port}")
            out = {{}}
            request = inference_pb2.MultiInferenceRequest()
            for signature, method in (("classify_x", "tensorflow/serving/classify"),
                                      ("regress_x", "tensorflow/serving/regress")):
                task = request.tasks.add(method_name=method)
                task.model_spec.name, task.model_spec.signature_name = "multi", signature
            example = request.input.example_list.examples.add()
            example.features.feature["x"].float_list.value.extend([2.0, 0.5])
            example.features.feature["k"].int64_list.value.append(4)
            response = prediction_service_pb2_grpc.PredictionServiceStub(channel).MultiInference(request, 30)
            classes = response.results[0].classification_result.classifications[0].classes
            out["classify"] = [[c.label, c.score] for c in classes]
            out["regress"] = [r.value for r in response.results[1].regression_result.regressions]
            out["specs"] = [[r.model_spec.name, r.model_spec.signature_name, r.model_spec.version.value]
                            for r in response.results]
            models = model_service_pb2_grpc.ModelServiceStub(channel)
            config = model_server_config_pb2.ModelServerConfig()
            entry = config.model_config_list.config.add(name="affine", base_path="{tmp_path / 'affine'}",
                                                        model_platform="tensorflow")
            entry.model_version_policy.specific.versions.extend([1, 2])
            entry.version_labels["stable"] = 1
            reply = models.HandleReloadConfigRequest(model_management_pb2.ReloadConfigRequest(config=config), 60)
            out["reload"] = [reply.status.error_code, reply.status.error_message]
            status = models.GetModelStatus(get_model_status_pb2.GetModelStatusRequest(model_spec={{"name": "affine"}}), 30)
            out["status"] = sorted([s.version, get_model_status_pb2.ModelVersionStatus.State.Name(s.state)]
                                   for s in status.model_version_status)
            try:
                models.GetModelStatus(get_model_status_pb2.GetModelStatusRequest(model_spec={{"name": "multi"}}), 30)
            except grpc.RpcError as err:
                out["removed"] = err.code().name
            config.model_config_list.config.add(name="affine", base_path="{tmp_path / 'affine'}",
                                                model_platform="tensorflow")
            try:
                models.HandleReloadConfigRequest(model_management_pb2.ReloadConfigRequest(config=config), 60)
            except grpc.RpcError as err:
                out["duplicate"] = [err.code().name, err.details()]
            print(json.dumps(out))
        """)
    finally:
        assert server.stop() == 0, server.output()
    if "missing" in answer:
        pytest.skip("TensorFlow's environment has no tensorflow-serving-api (.ci/run installs it with --no-deps)")
    assert [label for label, _ in answer["classify"]] == ["neg", "pos"]
    np.testing.assert_allclose([score for _, score in answer["classify"]],
                               np.exp([2.0, 0.5]) / np.exp([2.0, 0.5]).sum(), rtol=1e-6)
    assert answer["regress"] == [10.0]
    assert answer["specs"] == [["multi", "classify_x", 4], ["multi", "regress_x", 4]]
    assert answer["reload"] == [0, ""]
    assert answer["status"] == [[1, "AVAILABLE"], [2, "AVAILABLE"]]
    assert answer["removed"] == "NOT_FOUND"
    assert answer["duplicate"] == ["INVALID_ARGUMENT", "Illegal to list model affine multiple times in config list"]


def test_warmup_requests_written_by_tensorflow_are_replayed(tmp_path, run_tf):
    """TensorFlow's TFRecordWriter and tensorflow-serving-api's PredictionLog write the warmup file, as
    TensorFlow Serving's guide shows; eagerflow serve replays its records while the version loads."""
    save_affine(tmp_path / "affine" / "1", 1.0)
    answer = run_tf(f"""
        import json
        import sys
        import numpy as np
        import tensorflow as tf
        try:
            from tensorflow_serving.apis import predict_pb2, prediction_log_pb2
        except ImportError:
            print(json.dumps({{"missing": "tensorflow-serving-api"}}))
            sys.exit(0)
        folder = "{tmp_path / 'affine' / '1' / 'assets.extra'}"
        tf.io.gfile.makedirs(folder)
        with tf.io.TFRecordWriter(folder + "/tf_serving_warmup_requests") as writer:
            for rows in (1, 3, 5):
                request = predict_pb2.PredictRequest()
                request.model_spec.name = "affine"
                request.inputs["x"].CopyFrom(tf.make_tensor_proto(np.ones((rows, 2), np.float32)))
                log = prediction_log_pb2.PredictionLog(predict_log=prediction_log_pb2.PredictLog(request=request))
                writer.write(log.SerializeToString())
        print(json.dumps({{"written": 3}}))
    """)
    if "missing" in answer:
        pytest.skip("TensorFlow's environment has no tensorflow-serving-api (.ci/run installs it with --no-deps)")
    server = Server(f"--model_base_path={tmp_path / 'affine'}", "--model_name=affine", cwd=tmp_path)
    try:
        assert server.request("/v1/models/affine")[1]["model_version_status"][0]["state"] == "AVAILABLE"
    finally:
        assert server.stop() == 0, server.output()
    assert "3 warmup records read" in server.output()
