"""decode_jpeg / decode_image decode plain JPEGs in one call to Pillow's libjpeg decoder, the header read
by ops/image/pillow_codec.py (jpeg_frame) instead of Image.open. The pixels must be Image.open's (the
path the JPEG tests against TensorFlow measure) for every kind of file, and files that are not plain
(CMYK, damaged, truncated) must still get Image.open's answers and TensorFlow's errors."""
import io

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.image.pillow_codec import decode_jpeg_direct, jpeg_frame

Image = pytest.importorskip("PIL.Image")


def _jpeg(pixels, mode, **options):
    out = io.BytesIO()
    Image.fromarray(pixels, mode).save(out, "JPEG", **options)
    return out.getvalue()


def _rotated():
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: rotated 90 degrees
    return exif.tobytes()


def _files():
    rng = np.random.default_rng(0)
    files = []
    for h, w in [(1, 1), (7, 13), (32, 32), (63, 17), (120, 90)]:
        rgb = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        files += [("baseline", _jpeg(rgb, "RGB", quality=90)), ("progressive", _jpeg(rgb, "RGB", progressive=True)),
                  ("444", _jpeg(rgb, "RGB", subsampling=0)), ("422-optimized", _jpeg(rgb, "RGB", subsampling=1,
                                                                                      optimize=True)),
                  ("grey", _jpeg(rgb[..., 0], "L")), ("grey-progressive", _jpeg(rgb[..., 0], "L", progressive=True)),
                  ("restarts", _jpeg(rgb, "RGB", restart_marker_blocks=1)),
                  ("exif-rotated", _jpeg(rgb, "RGB", exif=_rotated()))]  # (no decoder applies the rotation)
    return files


def _pillow_open(data, channels):
    """The pixels through Image.open, as decode_jpeg read every file before: libjpeg's luma for one
    channel (Pillow's draft), grey repeated for three."""
    image = Image.open(io.BytesIO(data))
    if channels == 1:
        image.draft("L", image.size)
    pixels = np.asarray(image)
    pixels = pixels[..., None] if pixels.ndim == 2 else pixels
    return np.repeat(pixels, 3, axis=-1) if channels == 3 and pixels.shape[-1] == 1 else pixels


@pytest.mark.parametrize("channels", [0, 1, 3])
def test_the_pixels_are_image_opens_for_every_kind_of_file(channels):
    for kind, data in _files():
        assert jpeg_frame(data) is not None, kind
        want = _pillow_open(data, channels)
        for got in (tf.io.decode_jpeg(data, channels=channels), tf.io.decode_image(data, channels=channels)):
            assert got.dtype == tf.uint8 and got.shape.as_list() == list(want.shape), kind
            np.testing.assert_array_equal(got.numpy(), want, err_msg=kind)


def test_the_header_gives_pillows_mode_and_size():
    for kind, data in _files():
        image = Image.open(io.BytesIO(data))
        assert jpeg_frame(data) == (image.mode, image.size), kind


def test_files_that_are_not_plain_go_through_image_open():
    rgb = np.random.default_rng(1).integers(0, 256, (9, 11, 4), dtype=np.uint8)
    cmyk = _jpeg(rgb, "CMYK")
    assert jpeg_frame(cmyk) is None and decode_jpeg_direct(cmyk) is None
    want = np.asarray(Image.open(io.BytesIO(cmyk)).convert("RGB"))
    np.testing.assert_array_equal(tf.io.decode_jpeg(cmyk).numpy(), want)
    plain = _files()[2][1]
    assert jpeg_frame(plain[:2] + b"\xff" + plain[2:]) is None  # a fill byte before a marker
    assert jpeg_frame(plain[:20]) is None  # no start of scan


@pytest.mark.parametrize("cut", [40, 200, -2])
def test_a_truncated_or_damaged_file_is_tensorflows_error(cut):
    data = _files()[2][1]
    data = data[:cut] if cut > 0 else data[:300] + b"\x00" * 40 + data[340:cut]
    assert decode_jpeg_direct(data) is None
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Invalid JPEG data, size {len(data)}"):
        tf.io.decode_jpeg(data)
