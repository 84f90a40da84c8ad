"""Differential rows (generated code == eager == reference interpreter) for the image and sound codecs
(ops/image/png.py, jpeg.py, decode_image.py, image_files.py, ops/audio/wav.py), beside test_differential.py. `rows(Row)`
builds them with that test's Row class; the JPEG, GIF and BMP rows need Pillow (the `image` extra) and are
left out without it."""
import importlib.util
import io
import os
import zlib

import numpy as np

import eagerflow as tf
from eagerflow._src.ops.image.image_files import load_image_batch

_PIXELS = (np.arange(6 * 5 * 3).reshape(6, 5, 3) * 7 % 256).astype(np.uint8)
_AUDIO = np.array([[0.0, 0.5], [-0.5, 1.0], [0.25, -1.0]], np.float32)


def _s(data):
    return np.array(data, dtype=object)


def _png():
    return tf.io.encode_png(_PIXELS).numpy()


def _encoded(fmt):
    from PIL import Image
    out = io.BytesIO()
    Image.fromarray(_PIXELS).save(out, fmt)
    return out.getvalue()


def rows(Row):
    wav = tf.audio.encode_wav(_AUDIO, 8000).numpy()
    found = [
        Row("EncodeWav", lambda a: tf.audio.encode_wav(a, 8000), (_AUDIO,)),
        Row("DecodeWav", lambda w: tf.audio.decode_wav(w, desired_channels=1), (_s(wav),)),
        Row("DecodeWav", tf.audio.decode_wav, (_s(b"hello"),), raises=tf.errors.InvalidArgumentError, label="bad"),
        Row("EncodePng", tf.io.encode_png, (_PIXELS.astype(np.uint16) * 257,)),
        Row("DecodeCompressed", lambda z: tf.io.decode_compressed(z, "ZLIB"),
            (np.array([zlib.compress(b"abc"), zlib.compress(b"")], dtype=object),)),
        Row("DecodePng", lambda p: tf.io.decode_png(p, channels=4, dtype=tf.uint16),
            (_s(tf.io.encode_png(_PIXELS.astype(np.uint16) * 300).numpy()),)),
    ]
    if importlib.util.find_spec("PIL") is None:
        return found
    jpeg = _encoded("JPEG")
    return found + [
        Row("DecodePng", lambda p: tf.io.decode_png(p, channels=1), (_s(_png()),), label="grey"),
        Row("EncodeJpeg", lambda x: tf.io.decode_jpeg(tf.io.encode_jpeg(x, quality=80)), (_PIXELS,)),
        Row("DecodeJpeg", lambda j: tf.io.decode_jpeg(j, channels=1), (_s(jpeg),)),
        Row("DecodeAndCropJpeg", lambda j: tf.io.decode_and_crop_jpeg(j, [1, 2, 3, 2]), (_s(jpeg),)),
        Row("DecodeAndCropJpeg", lambda j: tf.io.decode_and_crop_jpeg(j, [5, 0, 3, 2]), (_s(jpeg),),
            raises=tf.errors.InvalidArgumentError, label="window"),
        Row("IsJpeg", tf.io.is_jpeg, (_s(jpeg),)),
        Row("ExtractJpegShape", tf.io.extract_jpeg_shape, (_s(jpeg),)),
        Row("DecodeImage", lambda j: tf.io.decode_image(j, dtype=tf.float32), (_s(jpeg),)),
        Row("DecodeBmp", lambda b: tf.io.decode_bmp(b, channels=4), (_s(_encoded("BMP")),)),
        Row("DecodeGif", tf.io.decode_gif, (_s(_encoded("GIF")),)),
        Row("LoadImageBatch", lambda p: load_image_batch(p, (4, 3), 3), (_image_files(jpeg, _encoded("PNG")),)),
        Row("LoadImageBatch", lambda p: load_image_batch(p, (5, 5), 3, "nearest", pad_to_aspect_ratio=True),
            (_image_files(_encoded("GIF"), jpeg),), label="pad"),
        Row("LoadImageBatch", lambda p: load_image_batch(p, (2, 2), 3), (_image_files(b"not an image"),),
            raises=tf.errors.InvalidArgumentError, label="bad"),
    ]


def _image_files(*contents):
    """Paths [n] of files holding `contents`, in a fresh temporary folder."""
    import tempfile
    folder = tempfile.mkdtemp(prefix="eagerflow-image-rows-")
    paths = []
    for index, data in enumerate(contents):
        paths.append(os.path.join(folder, f"{index}.img").encode())
        with open(paths[-1], "wb") as f:
            f.write(data)
    return np.array(paths, dtype=object)
