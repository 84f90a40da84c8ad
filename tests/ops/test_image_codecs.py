"""Image codecs (ops/image/png.py, jpeg.py, decode_image.py): tf.io.decode_png / encode_png / decode_jpeg /
encode_jpeg / decode_image / decode_gif / decode_bmp / is_jpeg, against TensorFlow 2.21's recorded answers
(files TensorFlow wrote, the pixels it decoded from them, its error classes and messages)."""
import base64
import io

import numpy as np
import pytest

import eagerflow as tf

# An 8x8 RGBA image of 16-bit samples (pixels: _wide_pixels()) as TensorFlow's encode_png wrote it (libpng picked
# the Sub and Paeth filters for its rows): Pillow would narrow it to 8 bits, so png.py unfilters it itself.
TF_PNG16 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAIEAYAAACUn2LIAAAAoUlEQVQokYWQvQ0CMQyFX5yA0CXiKGiuoWGBG4klkG6cjJHCEyHYgcJx/oSO6p"
    "P95OdnGwB4PZ4rMQDM0TIAXAp/92vtfALeG7xNdADgLQspc+yPugsJ+Gyt4CYZzOSeohvVows5Qd2oA8e5JWmd+r7zmqBE7Q2IT1cZzOSeJYGc"
    "YNQg1o06MC0tKXPnBxpVDKgYhJvowr8/qCcMBny+A/Bf5Y5G4OoZ0MAAAAAASUVORK5CYII=")

# An 8x6 RGB image (np.arange(144).reshape(8, 6, 3) * 5 % 256) as TensorFlow's encode_jpeg(quality=95) wrote it.
TF_JPEG = (
    "/9j/4AAQSkZJRgABAQEBLAEsAAD/2wBDAAIBAQEBAQIBAQECAgICAgQDAgICAgUEBAMEBgUGBgYFBgYGBwkIBgcJBwYGCAsICQoKCgoKBggLDA"
    "sKDAkKCgr/2wBDAQICAgICAgUDAwUKBwYHCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgr/wAARCAAI"
    "AAYDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhBy"
    "JxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKT"
    "lJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAA"
    "AAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRom"
    "JygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExc"
    "bHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDmtF+FPhnQfhNpVl8Gf2dvDmt3dzcl7y8+EP7O2pJdWsaJgRzj"
    "xTeRQGKQvkeSryBoRkopIcoorSeGp1J80nL5Skl9yaOzC53i8FQVGlTpWXWVGlNu7vrKpCT8rJpWW17t/wD/2Q==")

# TensorFlow's decode_jpeg of TF_JPEG with dct_method="INTEGER_ACCURATE" (Pillow's libjpeg IDCT), with its default
# fast IDCT, and as grey (channels=1).
TF_JPEG_ACCURATE = [0, 5, 7, 14, 24, 26, 26, 37, 39, 41, 51, 53, 63, 63, 71, 80, 79, 87, 91, 99, 102, 101, 111, 113, 116, 124, 126, 140, 144, 147, 159, 150, 155, 174, 161, 168, 180, 185, 191, 194, 199, 203, 209, 213, 214, 231, 222, 223, 255, 238, 240, 107, 68, 69, 14, 17, 24, 30, 33, 38, 49, 53, 54, 73, 61, 61, 106, 64, 68, 136, 77, 83, 107, 108, 113, 121, 124, 129, 133, 138, 141, 162, 150, 154, 199, 146, 162, 233, 161, 181, 200, 201, 206, 208, 212, 215, 221, 229, 231, 249, 242, 249, 103, 65, 80, 50, 0, 17, 28, 32, 35, 44, 48, 51, 58, 63, 66, 72, 76, 79, 94, 93, 99, 109, 104, 111, 119, 123, 124, 133, 137, 138, 148, 153, 156, 160, 170, 171, 174, 189, 192, 181, 201, 202]
TF_JPEG_DEFAULT = [0, 5, 6, 12, 24, 24, 25, 36, 38, 38, 49, 51, 59, 62, 67, 77, 78, 83, 87, 97, 99, 98, 108, 109, 110, 120, 121, 135, 141, 141, 153, 147, 151, 170, 159, 163, 179, 186, 192, 192, 200, 203, 208, 214, 214, 229, 224, 221, 255, 241, 242, 106, 70, 70, 14, 19, 25, 29, 34, 38, 49, 53, 54, 72, 62, 61, 106, 65, 69, 136, 79, 85, 102, 105, 110, 117, 122, 126, 127, 136, 135, 157, 146, 150, 195, 145, 157, 231, 160, 178, 197, 198, 202, 205, 209, 212, 218, 226, 228, 246, 241, 245, 101, 63, 78, 49, 0, 14, 32, 36, 37, 47, 51, 52, 60, 65, 68, 73, 77, 80, 96, 95, 101, 112, 107, 114, 122, 126, 125, 135, 139, 138, 150, 155, 158, 161, 171, 172, 174, 189, 192, 181, 201, 202]
TF_JPEG_GREY = [2, 20, 33, 46, 62, 78, 94, 105, 117, 139, 149, 163, 185, 198, 212, 225, 249, 81, 18, 33, 52, 65, 78, 97, 105, 121, 133, 150, 161, 183, 198, 208, 224, 243, 76, 14, 35, 50, 64, 76, 96, 109, 125, 138, 154, 168, 185, 195]
# decode_png(encode_png(rgb), channels=1): libpng's colour-to-grey, truncated for 8-bit samples, rounded for 16-bit.
RGB8 = [[241, 160, 175], [229, 148, 198], [213, 57, 14], [76, 72, 223], [233, 1, 127], [210, 33, 204], [30, 119, 209], [77, 87, 71], [184, 65, 253], [113, 122, 129], [149, 141, 130], [254, 206, 202], [179, 159, 87], [253, 119, 55], [216, 41, 219], [156, 29, 11], [113, 9, 36], [131, 248, 119], [206, 234, 210], [161, 112, 131], [68, 127, 97], [63, 254, 3], [24, 49, 248], [177, 225, 51]]
GREY8 = [185, 177, 98, 90, 84, 105, 102, 82, 122, 120, 142, 219, 156, 151, 113, 64, 43, 198, 222, 128, 105, 168, 64, 190]
RGB16 = [[47249, 24217, 32048], [244, 40471, 54398], [43495, 10122, 34983], [17537, 63235, 57693], [12204, 33409, 61587], [55518, 46394, 41924], [2759, 48612, 31032], [5996, 16022, 35464], [47630, 33277, 40170], [57104, 44959, 23675], [42155, 39202, 7092], [3883, 43264, 25403]]
GREY16 = [31996, 30032, 22935, 48940, 30283, 48612, 32898, 15242, 38354, 46163, 36423, 29453]


def _wide_pixels():
    yy, xx = np.mgrid[0:8, 0:8]
    return np.stack([yy * 3000 + xx * 700, (yy * xx * 517) % 65536, 60000 - yy * 5000, 30000 + xx * 4000 + yy * 11],
                    -1).astype(np.uint16)


def _b64(text):
    return base64.b64decode("".join(text))


def test_png_round_trip_is_exact_for_every_depth_and_channel_count():
    rng = np.random.default_rng(0)
    for dtype in (np.uint8, np.uint16):
        for channels in (1, 2, 3, 4):
            image = rng.integers(0, np.iinfo(dtype).max + 1, [5, 7, channels]).astype(dtype)
            encoded = tf.io.encode_png(image, compression=9)
            assert encoded.dtype == tf.string and encoded.shape == ()
            decoded = tf.io.decode_png(encoded, dtype=tf.as_dtype(dtype))
            assert decoded.dtype == tf.as_dtype(dtype)
            np.testing.assert_array_equal(decoded.numpy(), image)


def test_sixteen_bit_colour_png_written_by_tensorflow():
    decoded = tf.io.decode_png(_b64(TF_PNG16), dtype=tf.uint16)
    np.testing.assert_array_equal(decoded.numpy(), _wide_pixels())
    # as 8-bit: the high bytes (TensorFlow: 1000 -> 3, 20000 -> 78)
    np.testing.assert_array_equal(tf.io.decode_png(_b64(TF_PNG16)).numpy(), _wide_pixels() >> 8)


def test_channel_conversions_as_tensorflow():
    pytest.importorskip("PIL")
    grey = tf.io.decode_png(tf.io.encode_png(np.array([RGB8], np.uint8)), channels=1)
    assert grey.shape == (1, 24, 1)
    assert grey.numpy()[0, :, 0].tolist() == GREY8
    wide = tf.io.decode_png(tf.io.encode_png(np.array([RGB16], np.uint16)), channels=1, dtype=tf.uint16)
    assert wide.numpy()[0, :, 0].tolist() == GREY16
    pixel = lambda values, **kw: tf.io.decode_png(  # noqa: E731
        tf.io.encode_png(np.full([2, 2, len(values)], values, np.uint8)), **kw).numpy()[0, 0].tolist()
    # TensorFlow 2.21's answers
    assert pixel([10, 200]) == [10, 200]
    assert pixel([10, 200], channels=3) == [10, 10, 10]
    assert pixel([77], channels=4) == [77, 77, 77, 255]
    assert pixel([10, 200, 30, 40], channels=3) == [10, 200, 30]
    assert pixel([10, 200, 30, 40], channels=1) == [123]
    assert pixel([10, 200, 30], dtype=tf.uint16) == [2570, 51400, 7710]


def test_jpeg_decodes_as_tensorflow_with_the_accurate_idct():
    pytest.importorskip("PIL")
    data = _b64(TF_JPEG)
    decoded = tf.io.decode_jpeg(data)
    assert decoded.dtype == tf.uint8 and decoded.shape == (8, 6, 3)
    np.testing.assert_array_equal(decoded.numpy().reshape(-1), TF_JPEG_ACCURATE)
    np.testing.assert_array_equal(tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE").numpy().reshape(-1),
                                  TF_JPEG_ACCURATE)
    # TensorFlow's default (fast) IDCT differs by a few levels at most: the documented difference
    assert np.abs(decoded.numpy().reshape(-1).astype(int) - TF_JPEG_DEFAULT).max() <= 6
    grey = tf.io.decode_jpeg(data, channels=1)
    assert grey.shape == (8, 6, 1)
    assert np.abs(grey.numpy().reshape(-1).astype(int) - TF_JPEG_GREY).max() <= 6
    assert bool(tf.io.is_jpeg(data)) and not bool(tf.io.is_jpeg(b"\x89PNG\r\n\x1a\n"))
    # decode_png and decode_image decode a JPEG too, as TensorFlow's do
    np.testing.assert_array_equal(tf.io.decode_png(data).numpy(), decoded.numpy())
    np.testing.assert_allclose(tf.io.decode_image(data, dtype=tf.float32).numpy(), decoded.numpy() / 255.0, rtol=1e-6)


def test_encode_jpeg_round_trip_and_header():
    pytest.importorskip("PIL")
    flat = np.full([8, 8, 3], 100, np.uint8)
    encoded = tf.io.encode_jpeg(flat).numpy()
    assert encoded[:3] == b"\xff\xd8\xff" and b"JFIF" in encoded[:20]
    assert encoded[13:18] == b"\x01\x01\x2c\x01\x2c"  # density in inches, 300 x 300 (TensorFlow's defaults)
    assert tf.io.decode_png(encoded).numpy()[0, 0].tolist() == [100, 100, 100]  # TensorFlow 2.21's answer
    grey = tf.io.encode_jpeg(np.full([8, 8, 1], 100, np.uint8))
    assert tf.io.decode_jpeg(grey).shape == (8, 8, 1)
    pattern = (np.arange(8 * 6 * 3).reshape(8, 6, 3) * 5 % 256).astype(np.uint8)
    low = tf.io.decode_jpeg(tf.io.encode_jpeg(pattern, quality=10)).numpy().astype(int)
    high = tf.io.decode_jpeg(tf.io.encode_jpeg(pattern, quality=100, chroma_downsampling=False)).numpy().astype(int)
    assert np.abs(high - pattern).mean() < np.abs(low - pattern).mean()


def _gif(frames):
    from PIL import Image
    out = io.BytesIO()
    pictures = [Image.fromarray(frame) for frame in frames]
    pictures[0].save(out, "GIF", save_all=True, append_images=pictures[1:])
    return out.getvalue()


def test_gif_bmp_and_decode_image():
    pytest.importorskip("PIL")
    from PIL import Image
    frames = [np.full([4, 5, 3], [i * 50, 0, 0], np.uint8) for i in range(3)]
    gif = _gif(frames)
    assert tf.io.decode_gif(gif).shape == (3, 4, 5, 3)
    np.testing.assert_array_equal(tf.io.decode_gif(gif).numpy(), np.stack(frames))
    assert tf.io.decode_image(gif).shape == (3, 4, 5, 3)
    assert tf.io.decode_image(gif, expand_animations=False).shape == (4, 5, 3)
    out = io.BytesIO()
    Image.fromarray(np.full([4, 5, 3], [1, 2, 3], np.uint8)).save(out, "BMP")
    assert tf.io.decode_bmp(out.getvalue()).numpy()[0, 0].tolist() == [1, 2, 3]
    assert tf.io.decode_image(out.getvalue(), channels=4).numpy()[0, 0].tolist() == [1, 2, 3, 255]


def test_traced_shapes_as_tensorflow():
    spec = tf.TensorSpec([], tf.string)
    out = tf.function(lambda x: tf.io.decode_png(x, channels=3)).get_concrete_function(spec).structured_outputs
    assert out.shape.as_list() == [None, None, 3]  # TensorFlow: (None, None, 3)
    out = tf.function(lambda x: tf.io.decode_image(x)).get_concrete_function(spec).structured_outputs
    assert out.shape.rank is None  # TensorFlow: <unknown>
    out = tf.function(lambda x: tf.io.decode_image(x, channels=3, expand_animations=False)).get_concrete_function(
        spec).structured_outputs
    assert out.shape.as_list() == [None, None, 3]
    decode = tf.function(lambda x: tf.io.decode_png(x))
    np.testing.assert_array_equal(decode(_b64(TF_PNG16)).numpy(), _wide_pixels() >> 8)


@pytest.mark.parametrize("call, cls, message", [
    (lambda: tf.io.decode_png(b"hello"), tf.errors.InvalidArgumentError,
     "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodePng]"),
    (lambda: tf.io.decode_jpeg(b"hello"), tf.errors.InvalidArgumentError,
     "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodeJpeg]"),
    (lambda: tf.io.decode_image(b"hello"), tf.errors.InvalidArgumentError,
     "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodeImage]"),
    (lambda: tf.io.decode_bmp(b"hello"), tf.errors.InvalidArgumentError,
     "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required. [Op:DecodeBmp]"),
    (lambda: tf.io.decode_png(_b64(TF_PNG16), channels=2), tf.errors.InvalidArgumentError,
     "`channels` must be 0, 1, 3 or 4 but got 2 [Op:DecodePng]"),
    (lambda: tf.io.encode_png(np.zeros([6, 3], np.uint8)), tf.errors.InvalidArgumentError,
     "images must be at least rank 3[6,3] [Op:EncodePng]"),
    (lambda: tf.io.encode_png(np.zeros([2, 2, 5], np.uint8)), tf.errors.InvalidArgumentError,
     "image must have 1, 2, 3, or 4 channels, got 5 [Op:EncodePng]"),
    (lambda: tf.io.encode_png(np.zeros([2, 2, 3], np.float32)), tf.errors.InvalidArgumentError,
     "Value for attr 'T' of float is not in the list of allowed values: uint8, uint16"),
    (lambda: tf.io.decode_jpeg(_b64(TF_JPEG), channels=4), tf.errors.InvalidArgumentError,
     "JPEG does not support 4 channels [Op:DecodeJpeg]"),
    (lambda: tf.io.encode_jpeg(np.zeros([8, 8, 2], np.uint8)), tf.errors.InvalidArgumentError,
     "image must have 1 or 3 channels, got [8,8,2] [Op:EncodeJpeg]"),
    (lambda: tf.io.encode_jpeg(np.zeros([8, 8, 3], np.uint8), quality=101), tf.errors.InvalidArgumentError,
     "quality must be in [0,100], got 101 [Op:EncodeJpeg]"),
])
def test_errors_as_tensorflow(call, cls, message):
    if "Jpeg" in message or "Bmp" in message:
        pytest.importorskip("PIL")
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).startswith(message) or message in str(info.value)


def test_resize_with_pad_of_an_image_whose_size_is_known_only_when_run():
    """Keras' image_dataset_from_directory(pad_to_aspect_ratio=True) pads decoded files of any size."""
    rng = np.random.default_rng(0)
    pad = tf.function(lambda x: tf.image.resize_with_pad(x, 5, 6))
    assert pad.get_concrete_function(tf.TensorSpec([None, None, 3])).structured_outputs.shape.as_list() == [5, 6, 3]
    for shape in ([7, 4, 3], [3, 8, 3], [5, 6, 3]):
        image = rng.uniform(0, 255, shape).astype(np.float32)
        np.testing.assert_allclose(pad(image).numpy(), tf.image.resize_with_pad(image, 5, 6).numpy(), atol=1e-4)


def test_extract_jpeg_shape_and_decode_compressed_as_tensorflow():
    pytest.importorskip("PIL")
    import gzip
    import zlib
    jpeg = tf.io.encode_jpeg(np.zeros([5, 7, 3], np.uint8)).numpy()
    shape = tf.io.extract_jpeg_shape(jpeg)
    assert shape.dtype == tf.int32 and shape.numpy().tolist() == [5, 7, 3]  # TensorFlow 2.21's answers
    assert tf.io.extract_jpeg_shape(jpeg, output_type=tf.int64).dtype == tf.int64
    assert tf.io.extract_jpeg_shape(tf.io.encode_jpeg(np.zeros([5, 7, 1], np.uint8))).numpy().tolist() == [5, 7, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid JPEG data, size 69"):
        tf.io.extract_jpeg_shape(tf.io.encode_png(np.zeros([5, 7, 3], np.uint8)))
    out = tf.io.decode_compressed(tf.constant([zlib.compress(b"abc"), zlib.compress(b"")]), "ZLIB")
    assert out.numpy().tolist() == [b"abc", b""]
    assert tf.io.decode_compressed(gzip.compress(b"xy"), "GZIP").numpy() == b"xy"
    assert tf.io.decode_compressed(b"raw").numpy() == b"raw"
    with pytest.raises(tf.errors.DataLossError, match="inflate\\(\\) failed with error -3: incorrect header check"):
        tf.io.decode_compressed(b"notzlib", "ZLIB")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Only ZLIB, ZSTD, GZIP or NONE are supported"):
        tf.io.decode_compressed(b"x", "FOO")
