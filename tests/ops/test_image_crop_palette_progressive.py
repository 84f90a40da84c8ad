"""tf.io.decode_and_crop_jpeg (ops/image/jpeg_crop.py), palette PNGs and progressive JPEGs, on files Pillow
writes at test time, against TensorFlow 2.21's recorded answers: where TensorFlow's pixels equal Pillow's
(its INTEGER_ACCURATE IDCT, palette expansion) the test compares with Pillow; elsewhere with the values,
differences, shapes and messages TensorFlow gave on the same files."""
import io

import numpy as np
import pytest

import eagerflow as tf

Image = pytest.importorskip("PIL.Image")


def _picture():
    yy, xx = np.mgrid[0:37, 0:53]
    image = np.stack([(xx * 5) % 256, (yy * 7) % 256, ((xx + yy) * 3) % 256], -1).astype(np.uint8)
    image[10:20, 10:30] = np.random.RandomState(0).randint(0, 256, (10, 20, 3))
    return image


def _jpeg(**options):
    out = io.BytesIO()
    Image.fromarray(_picture()).save(out, "JPEG", quality=90, **options)
    return out.getvalue()


def _pillow(data, mode="RGB"):
    pixels = np.asarray(Image.open(io.BytesIO(data)).convert(mode))
    return pixels[..., None] if pixels.ndim == 2 else pixels


# TensorFlow 2.21: decode_and_crop_jpeg's window against decode_jpeg's whole image cut to it (largest difference),
# per chroma subsampling and window; its own crop decodes chroma at unaligned edges of a 4:2:0 file differently.
CROP_VS_WHOLE = {("420", (0, 0, 37, 53)): 0, ("420", (5, 7, 20, 30)): 0, ("420", (36, 52, 1, 1)): 0,
                 ("420", (1, 3, 8, 9)): 5, ("444", (1, 3, 8, 9)): 0, ("444", (5, 7, 20, 30)): 0}


@pytest.mark.parametrize("subsampling,window", sorted(CROP_VS_WHOLE))
@pytest.mark.parametrize("progressive", [False, True])
def test_decode_and_crop_jpeg_pixels(subsampling, window, progressive):
    data = _jpeg(subsampling=2 if subsampling == "420" else 0, progressive=progressive)
    y, x, h, w = window
    crop = tf.io.decode_and_crop_jpeg(data, list(window), dct_method="INTEGER_ACCURATE")
    assert crop.dtype == tf.uint8 and crop.shape.as_list() == [h, w, 3]
    # TF 2.21: decode_jpeg(INTEGER_ACCURATE) equals Pillow's pixels on these files (baseline and progressive)
    whole = _pillow(data).astype(int)[y:y + h, x:x + w]
    assert np.abs(crop.numpy().astype(int) - whole).max() <= CROP_VS_WHOLE[subsampling, window]
    np.testing.assert_array_equal(crop.numpy(), tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE")[y:y + h,
                                                                                                       x:x + w])


def test_decode_and_crop_jpeg_channels_ratio_and_graph_shapes():
    data = _jpeg()
    assert tf.io.decode_and_crop_jpeg(data, [2, 3, 4, 5], channels=1).shape.as_list() == [4, 5, 1]
    for ratio in (2, 4):  # TF 2.21: the window is cut from the downscaled image
        got = tf.io.decode_and_crop_jpeg(data, [2, 3, 4, 5], ratio=ratio)
        np.testing.assert_array_equal(got, tf.io.decode_jpeg(data, ratio=ratio)[2:6, 3:8])
    assert tf.image.decode_and_crop_jpeg is tf.io.decode_and_crop_jpeg

    @tf.function
    def any_window(contents, window):
        return tf.io.decode_and_crop_jpeg(contents, window, channels=3)
    spec = any_window.get_concrete_function(tf.TensorSpec([], tf.string), tf.TensorSpec([4], tf.int32))
    assert spec.structured_outputs.shape.as_list() == [None, None, 3]  # TF 2.21

    @tf.function
    def fixed_window(contents):
        return tf.io.decode_and_crop_jpeg(contents, [1, 2, 3, 4])
    assert fixed_window.get_concrete_function(tf.TensorSpec([], tf.string)).structured_outputs.shape.as_list() == \
        [3, 4, None]  # TF 2.21
    np.testing.assert_array_equal(fixed_window(tf.constant(data)), tf.io.decode_jpeg(data)[1:4, 2:6])


def _png_file():
    out = io.BytesIO()
    Image.fromarray(_picture()).save(out, "PNG")
    return out.getvalue()


WINDOW_ERRORS = [  # TF 2.21's class and message per crop window
    ([0, 0, 38, 53], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    ([-1, 0, 3, 3], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    ([0, 0, 0, 5], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    ([30, 50, 10, 10], "jpeg::Uncompress failed. Invalid JPEG data or crop window."),
    ([0, 0, 3], "crop_size must have four elements [3]"),
    ([[0, 0, 3, 3]], "crop_window must be 1-D, got shape [1,4]"),
]


@pytest.mark.parametrize("window,message", WINDOW_ERRORS)
def test_decode_and_crop_jpeg_window_errors(window, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.io.decode_and_crop_jpeg(_jpeg(), window)
    assert message in str(info.value)


def test_decode_and_crop_jpeg_other_files():
    with pytest.raises(tf.errors.InvalidArgumentError, match="DecodeAndCropJpeg operation can run on JPEG only, "
                                                             "but detected PNG."):
        tf.io.decode_and_crop_jpeg(_png_file(), [0, 0, 3, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format. One of JPEG, JPEG XL, PNG, "
                                                             "GIF, BMP, WebP required."):
        tf.io.decode_and_crop_jpeg(b"garbage", [0, 0, 3, 3])
    with pytest.raises(TypeError):  # TF 2.21: "Cannot convert [0.0, ...] to EagerTensor of dtype int32"
        tf.io.decode_and_crop_jpeg(_jpeg(), [0., 0., 3., 3.])


def test_progressive_jpeg_decodes_as_tensorflow():
    data = _jpeg(progressive=True)
    accurate = tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE")
    np.testing.assert_array_equal(accurate, _pillow(data))  # TF 2.21: equal to Pillow's on this file
    fast = tf.io.decode_jpeg(data)  # TF 2.21: its fast IDCT within 4 of Pillow's on this file
    assert np.abs(fast.numpy().astype(int) - _pillow(data).astype(int)).max() <= 4
    np.testing.assert_array_equal(tf.io.decode_image(data), accurate)
    assert tf.io.decode_jpeg(data, channels=1).shape.as_list() == [37, 53, 1]
    assert bool(tf.io.is_jpeg(data)) and tf.io.extract_jpeg_shape(data).numpy().tolist() == [37, 53, 3]


def _palette_png(transparency=None, bits=None, colours=5):
    yy, xx = np.mgrid[0:6, 0:9]
    image = Image.fromarray(((yy * 9 + xx) * 7 % colours).astype(np.uint8), "P")
    image.putpalette([255, 0, 0, 0, 200, 0, 10, 20, 250, 128, 128, 128, 255, 255, 0][:colours * 3] +
                     list(np.arange(max(colours - 5, 0) * 3) * 5 % 256))
    out, options = io.BytesIO(), {}
    if transparency is not None:
        options["transparency"] = transparency
    if bits:
        options["bits"] = bits
    image.save(out, "PNG", **options)
    return out.getvalue()


def test_palette_png_expands_as_tensorflow():
    plain = _palette_png()
    assert (plain[24], plain[25]) == (4, 3)  # a 4-bit palette file
    pixels = tf.io.decode_png(plain)
    assert pixels.shape.as_list() == [6, 9, 3]
    np.testing.assert_array_equal(pixels, _pillow(plain))  # TF 2.21: equal to Pillow's RGB
    assert pixels.numpy()[0, :5].reshape(-1).tolist() == [255, 0, 0, 10, 20, 250, 255, 255, 0, 0, 200, 0, 128,
                                                          128, 128]  # TF 2.21
    np.testing.assert_array_equal(tf.io.decode_png(plain, channels=3), _pillow(plain))
    grey = tf.io.decode_png(plain, channels=1)  # TF 2.21: libpng's colour-to-grey (within 1 of Pillow's)
    assert grey.numpy()[0, :5, 0].tolist() == [76, 43, 225, 117, 128]
    wide = tf.io.decode_png(plain, dtype=tf.uint16)
    assert wide.numpy()[0, :2].tolist() == [[65535, 0, 0], [2570, 5140, 64250]]  # TF 2.21
    assert tf.io.decode_image(plain).shape.as_list() == [6, 9, 3]
    see_through = _palette_png(transparency=bytes([255, 0, 128, 255, 255]))
    rgba = tf.io.decode_png(see_through)  # a tRNS chunk: four channels
    assert rgba.shape.as_list() == [6, 9, 4]
    np.testing.assert_array_equal(rgba, _pillow(see_through, "RGBA"))
    np.testing.assert_array_equal(tf.io.decode_png(see_through, channels=4), _pillow(see_through, "RGBA"))
    assert tf.io.decode_png(see_through, dtype=tf.uint16).numpy()[0, 1].tolist() == [2570, 5140, 64250, 32896]
    assert tf.io.decode_image(see_through).shape.as_list() == [6, 9, 4]


@pytest.mark.parametrize("bits,colours,alpha", [(1, 2, 1), (2, 4, 3), (4, 5, 15), (8, 40, 255)])
def test_added_alpha_of_a_palette_png_is_libpngs_filler(bits, colours, alpha):
    data = _palette_png(bits=bits, colours=colours)
    assert data[24] == bits
    # TF 2.21: alpha added to a palette file without transparency is the largest value of its bit depth
    assert int(tf.io.decode_png(data, channels=4).numpy()[0, 1, 3]) == alpha
    assert int(tf.io.decode_png(data, channels=4, dtype=tf.uint16).numpy()[0, 1, 3]) == alpha * 257
    assert int(tf.io.decode_image(data, channels=4).numpy()[0, 1, 3]) == alpha
    np.testing.assert_array_equal(tf.io.decode_png(data, channels=4)[..., :3], _pillow(data))


def test_added_alpha_of_a_one_bit_grey_png():
    out = io.BytesIO()
    Image.fromarray((np.mgrid[0:4, 0:5][1] % 2 * 255).astype(np.uint8)).convert("1").save(out, "PNG")
    data = out.getvalue()
    assert [tf.io.decode_png(data, channels=c).numpy()[0, 1].tolist() for c in (0, 1, 3, 4)] == \
        [[255], [255], [255, 255, 255], [255, 255, 255, 1]]  # TF 2.21
