"""`tf.io`: files (gfile, read_file/write_file), CSV and TFRecord parsing, tf.train.Example parsing."""
import types as _types

from ..io import gfile as _gfile
from ..ops.io.byte_codecs import decode_base64, decode_raw, encode_base64  # noqa: F401
from ..ops.io.decode_csv import decode_csv  # noqa: F401
from ..io.tfrecord_writer import TFRecordOptions, TFRecordWriter  # noqa: F401
from ..ops.io.files import read_file, write_file  # noqa: F401
from ..ops.io.parse_example import (FixedLenFeature, VarLenFeature, parse_example,  # noqa: F401
                                 parse_single_example)
from ..ops.image.decode_image import decode_bmp, decode_gif, decode_image  # noqa: F401
from ..ops.image.jpeg import decode_jpeg, encode_jpeg, extract_jpeg_shape, is_jpeg  # noqa: F401
from ..ops.image.jpeg_crop import decode_and_crop_jpeg  # noqa: F401
from ..ops.image.png import decode_png, encode_png  # noqa: F401
from ..ops.io.decode_compressed import decode_compressed  # noqa: F401
from ..ops.io.matching_files import matching_files  # noqa: F401

gfile = _types.SimpleNamespace(
    GFile=_gfile.GFile, copy=_gfile.copy, exists=_gfile.exists, glob=_gfile.glob, isdir=_gfile.isdir,
    join=_gfile.join, listdir=_gfile.listdir, makedirs=_gfile.makedirs, mkdir=_gfile.mkdir, remove=_gfile.remove,
    rename=_gfile.rename, rmtree=_gfile.rmtree, stat=_gfile.stat, walk=_gfile.walk)
del _types
