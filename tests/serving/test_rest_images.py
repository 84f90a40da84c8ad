"""Images (rows nested four lists deep) through a real server's REST API: decoded in place, pixel for
pixel, in the row and columnar formats; a ragged image gets TensorFlow Serving's message."""
import numpy as np
import pytest

pytest.importorskip("uvicorn", reason="eagerflow[serve] is not installed")

from .models import Images, save_images  # noqa: E402
from .server import Server  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("images")
    save_images(root / "images" / "1")
    server = Server("--model_name=images", f"--model_base_path={root / 'images'}", cwd=root)
    yield server
    assert server.stop() == 0, server.output()


def test_images_decode_pixel_for_pixel_in_both_formats(server):
    images = np.random.default_rng(3).random((2, 3, 4, 1)).astype(np.float32)
    weighted = images * Images.WEIGHTS
    for _ in range(3):  # the first call runs in a worker thread, later ones on the event loop
        status, body = server.request("/v1/models/images:predict", {"instances": images.tolist()})
        assert status == 200, body
        assert [sorted(row) for row in body["predictions"]] == [["total", "weighted"]] * 2
        np.testing.assert_allclose([row["weighted"] for row in body["predictions"]], weighted, rtol=1e-6)
        np.testing.assert_allclose([row["total"] for row in body["predictions"]], weighted.sum(axis=(1, 2, 3)),
                                   rtol=1e-5)
    status, body = server.request("/v1/models/images:predict", {"inputs": images[:1].tolist()})
    assert status == 200, body
    np.testing.assert_allclose(body["outputs"]["weighted"], weighted[:1], rtol=1e-6)


def test_a_ragged_or_mistyped_image_is_refused_with_tensorflow_servings_message(server):
    image = np.ones((3, 4, 1)).tolist()
    image[2][1] = [1.0, 2.0]
    status, body = server.request("/v1/models/images:predict", {"instances": [image]})
    assert status == 400 and body["error"].startswith("Encountered list at unexpected size: 2 at level: ")
    image[2][1] = ["1"]
    status, body = server.request("/v1/models/images:predict", {"instances": [image]})
    assert (status, body) == (400, {"error": 'JSON Value: "1" Type: String is not of expected type: float'})
