"""keras.utils.load_img / img_to_array / array_to_img / save_img (keras/utils/image_utils.py) against Keras
3.15's recorded answers (Pillow on both sides)."""
import numpy as np
import pytest

from eagerflow import keras

pytest.importorskip("PIL")
PIXELS = (np.arange(5 * 4 * 3).reshape(5, 4, 3) * 9 % 256).astype(np.float32)


def test_array_image_round_trips():
    image = keras.utils.array_to_img(PIXELS)
    assert (image.mode, image.size) == ("RGB", (4, 5))
    array = keras.utils.img_to_array(image)
    assert array.dtype == np.float32 and array.shape == (5, 4, 3)
    assert array[0, :2].tolist() == [[0.0, 9.0, 18.0], [27.0, 36.0, 45.0]] and array[4, 3].tolist() == [1.0, 10.0, 19.0]
    scaled = keras.utils.array_to_img(np.array([[[0.0], [0.5]], [[1.0], [0.25]]]))
    assert keras.utils.img_to_array(scaled).reshape(-1).tolist() == [0.0, 127.0, 255.0, 63.0]
    raw = keras.utils.array_to_img(np.array([[[3.0], [7.0]]]), scale=False)
    assert keras.utils.img_to_array(raw).reshape(-1).tolist() == [3.0, 7.0]
    assert keras.utils.img_to_array(image, data_format="channels_first").shape == (3, 5, 4)


def test_save_and_load(tmp_path):
    path = str(tmp_path / "s.png")
    keras.utils.save_img(path, PIXELS)
    loaded = keras.utils.load_img(path)
    assert (loaded.mode, loaded.size) == ("RGB", (4, 5))
    grey = keras.utils.img_to_array(keras.utils.load_img(path, color_mode="grayscale")).reshape(-1)
    assert grey[:6].tolist() == [7.0, 34.0, 61.0, 89.0, 116.0, 143.0]
    assert keras.utils.img_to_array(keras.utils.load_img(path, target_size=(3, 2))).reshape(-1).tolist() == [
        27.0, 36.0, 45.0, 81.0, 91.0, 100.0, 245.0, 255.0, 5.0, 41.0, 50.0, 59.0, 205.0, 214.0, 223.0, 1.0, 10.0, 19.0]
    kept = keras.utils.load_img(path, target_size=(2, 2), keep_aspect_ratio=True)
    assert keras.utils.img_to_array(kept).reshape(-1).tolist() == [
        136.0, 145.0, 154.0, 191.0, 200.0, 209.0, 96.0, 105.0, 114.0, 150.0, 159.0, 168.0]
    smooth = keras.utils.load_img(path, target_size=(3, 3), interpolation="bilinear")
    assert keras.utils.img_to_array(smooth).reshape(-1).tolist() == [
        55.0, 64.0, 73.0, 88.0, 97.0, 106.0, 120.0, 130.0, 139.0, 168.0, 177.0, 144.0, 130.0, 139.0, 76.0, 91.0,
        100.0, 109.0, 139.0, 148.0, 157.0, 172.0, 181.0, 190.0, 101.0, 110.0, 119.0]
    assert keras.utils.load_img(path, color_mode="rgba").mode == "RGBA"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.png"]  # no temporary left beside it


@pytest.mark.parametrize("call, cls, message", [
    (lambda p: keras.utils.array_to_img(np.zeros([2, 2])), ValueError,
     "Expected image array to have rank 3 (single image). Got array with shape: (2, 2)"),
    (lambda p: keras.utils.array_to_img(np.zeros([2, 2, 2])), ValueError, "Unsupported channel number: 2"),
    (lambda p: keras.utils.load_img(p, color_mode="x"), ValueError, 'color_mode must be "grayscale", "rgb", or "rgba"'),
    (lambda p: keras.utils.load_img(p, target_size=(3, 3), interpolation="foo"), ValueError,
     "Invalid interpolation method foo specified. Supported methods are nearest, bilinear, bicubic, hamming, box, "
     "lanczos"),
    (lambda p: keras.utils.img_to_array(keras.utils.load_img(p), data_format="x"), ValueError,
     "The `data_format` argument must be one of {'channels_first', 'channels_last'}. Received: data_format=x"),
    (lambda p: keras.utils.load_img(3), TypeError, "path should be path-like or io.BytesIO, not <class 'int'>"),
])
def test_errors_as_keras(tmp_path, call, cls, message):
    path = str(tmp_path / "s.png")
    keras.utils.save_img(path, PIXELS)
    with pytest.raises(cls) as info:
        call(path)
    assert str(info.value) == message
