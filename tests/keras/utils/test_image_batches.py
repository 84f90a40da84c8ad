"""image_dataset_from_directory with a batch size loads each batch with one op (LoadImageBatch); without
one it runs Keras' per-file chain (read_file, decode_image, crop, resize or resize_with_pad) in the map.
The batches must be the same bit for bit: this compares the two on a folder of JPEG, PNG, GIF and BMP
files of mixed sizes and colour kinds, for every supported interpolation, crop, pad, colour mode, label
mode, data format and a seeded shuffle."""
import io
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

Image = pytest.importorskip("PIL.Image")
pytestmark = pytest.mark.filterwarnings("ignore")


def _write(root, kinds):
    rng = np.random.default_rng(3)
    shapes = [(32, 32), (32, 32), (17, 40), (40, 17), (9, 9), (32, 32), (50, 23), (2, 7), (32, 32), (13, 29)]
    for index, (h, w) in enumerate(shapes[:len(kinds)]):
        pixels = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        kind = kinds[index]
        picture = Image.fromarray(pixels)
        if index in (5, 7):
            picture = picture.convert("L")  # grey files: one channel in the file
        if index == 6:
            picture = Image.fromarray(np.concatenate([pixels, pixels[..., :1]], -1), "RGBA")
        options = {"progressive": True} if index == 8 else {}
        out = io.BytesIO()
        picture.save(out, {"jpg": "JPEG"}.get(kind, kind.upper()), **options)
        sub = os.path.join(root, ("a", "b", "c")[index % 3])
        os.makedirs(sub, exist_ok=True)
        with open(os.path.join(sub, f"{index}.{kind}"), "wb") as f:
            f.write(out.getvalue())
    return root


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Ten files in three classes: JPEG (baseline, progressive, grey), PNG (RGB, RGBA), BMP."""
    return _write(str(tmp_path_factory.mktemp("mixed")), ["jpg", "png", "jpg", "png", "bmp", "jpg", "png", "jpg",
                                                          "jpg", "png"])


def _batches(folder, batch_size, per_file=False, **kwargs):
    """The batches of the dataset with `batch_size`, or (per_file) of the dataset without one, batched."""
    options = dict(image_size=(12, 16), shuffle=False, verbose=False)
    options.update(kwargs)
    ds = keras.utils.image_dataset_from_directory(folder, batch_size=None if per_file else batch_size, **options)
    if per_file:
        ds = ds.batch(batch_size)
    return [tuple(np.asarray(part) for part in element) if isinstance(element, tuple) else (np.asarray(element),)
            for element in ds.as_numpy_iterator()]


def _assert_same(folder, batch_size=4, **kwargs):
    whole = _batches(folder, batch_size, **kwargs)
    per_file = _batches(folder, batch_size, per_file=True, **kwargs)
    assert len(whole) == len(per_file)
    for got, want in zip(whole, per_file):
        for a, b in zip(got, want):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a, b)
    return whole


@pytest.mark.parametrize("size", [(12, 16), (32, 32)])  # (32, 32): four of the files are that size already
@pytest.mark.parametrize("interpolation", ["bilinear", "nearest", "bicubic", "area"])
def test_batches_equal_the_per_file_chain_for_each_interpolation(folder, interpolation, size):
    batches = _assert_same(folder, interpolation=interpolation, image_size=size)
    assert len(batches) == 3
    assert batches[0][0].dtype == (np.uint8 if interpolation == "nearest" else np.float32)
    assert batches[0][0].shape == (4,) + size + (3,)


@pytest.mark.parametrize("kwargs", [
    {"crop_to_aspect_ratio": True}, {"pad_to_aspect_ratio": True}, {"crop_to_aspect_ratio": True, "image_size": (5, 30)},
    {"pad_to_aspect_ratio": True, "image_size": (25, 6), "interpolation": "nearest"},
    {"color_mode": "grayscale"},
    {"data_format": "channels_first"}, {"label_mode": "categorical"}, {"label_mode": None},
    {"shuffle": True, "seed": 5}, {"image_size": (32, 32), "pad_to_aspect_ratio": True},
], ids=str)
def test_batches_equal_the_per_file_chain(folder, kwargs):
    _assert_same(folder, **kwargs)


def test_rgba_from_png_and_bmp(tmp_path):  # (JPEG has no 4-channel form: both ways refuse it)
    _assert_same(_write(str(tmp_path), ["png", "bmp", "png", "png", "bmp", "png", "png"]), batch_size=3,
                 color_mode="rgba", interpolation="area")


def test_a_gifs_first_frame(tmp_path):
    _assert_same(_write(str(tmp_path), ["gif", "jpg", "gif", "png"]), batch_size=3)


def test_binary_labels_and_a_last_short_batch(tmp_path):
    got = _assert_same(_write(str(tmp_path), ["jpg", "png", "jpg", "png"]), batch_size=3, label_mode="binary",
                       class_names=["a", "b"])
    assert [g[0].shape[0] for g in got] == [3]
    assert [g[1].tolist() for g in got] == [[[0.0], [0.0], [1.0]]]


def test_a_damaged_file_fails_its_batch_as_the_chain_does(tmp_path):
    os.makedirs(tmp_path / "x")
    with open(tmp_path / "x" / "0.jpg", "wb") as f:
        f.write(b"\xff\xd8\xff\xe0 not really a jpeg")
    for batch_size in (4, None):
        ds = keras.utils.image_dataset_from_directory(str(tmp_path), batch_size=batch_size, verbose=False)
        with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid JPEG data, size 22"):
            next(iter(ds))
