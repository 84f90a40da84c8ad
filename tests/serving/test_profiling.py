"""EAGERFLOW_SERVE_PROFILE: a real server writes its threads' CPU profile when it stops, and answers as
it does without it."""
import pstats

import numpy as np
import pytest

grpc = pytest.importorskip("grpc", reason="eagerflow[serve] is not installed")
pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")

from eagerflow._src.formats.protos import serving_apis_pb2 as apis  # noqa: E402
from eagerflow.serving.tensor_protos import to_array, to_proto  # noqa: E402

from .models import affine_expected, save_affine  # noqa: E402
from .server import Server  # noqa: E402


def test_the_profile_covers_the_event_loop_and_the_grpc_worker_threads(tmp_path):
    save_affine(tmp_path / "m" / "1", 1.0)
    profile = tmp_path / "serve.prof"
    server = Server("--model_name=m", f"--model_base_path={tmp_path / 'm'}", cwd=tmp_path, grpc=True,
                    env={"EAGERFLOW_SERVE_PROFILE": str(profile)})
    try:
        for _ in range(3):
            status, body = server.request("/v1/models/m:predict", {"instances": [[1.0, 2.0]]})
            assert status == 200
            np.testing.assert_allclose(body["predictions"], affine_expected([[1.0, 2.0]]), rtol=1e-6)
        request = apis.PredictRequest()
        request.model_spec.name = "m"
        to_proto(np.array([[3.0, -1.0]], np.float32), request.inputs["x"])
        with grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}") as channel:
            predict = channel.unary_unary("/tensorflow.serving.PredictionService/Predict",
                                          request_serializer=apis.PredictRequest.SerializeToString,
                                          response_deserializer=apis.PredictResponse.FromString)
            reply = predict(request, timeout=60)
        np.testing.assert_allclose(to_array(reply.outputs["y"]), affine_expected([[3.0, -1.0]]), rtol=1e-6)
        assert not profile.exists()  # written when the server stops
    finally:
        assert server.stop() == 0, server.output()
    functions = {(path.replace("\\", "/").rsplit("/", 1)[-1], name): counts
                 for (path, line, name), counts in pstats.Stats(str(profile)).stats.items()}
    # on the event loop's thread (a coroutine that waited counts once more), and on a gRPC worker thread
    assert functions[("rest_app.py", "_predict_small")][1] >= 3
    assert functions[("prediction_service.py", "predict")][1] == 1
    assert not list(tmp_path.glob("*.partial"))
