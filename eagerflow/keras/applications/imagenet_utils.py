"""`keras.applications.imagenet_utils`: the ImageNet input scalings the pretrained models were trained
with (preprocess_input's modes), decode_predictions (class names from `imagenet_class_index.json` in
Keras' cache folder; nothing is downloaded) and the input-shape rules every application shares."""
from __future__ import annotations

import json
import os
import warnings

import numpy as np

from .weights_file import keras_models_dir

CLASS_INDEX_FILE = "imagenet_class_index.json"
CLASS_INDEX_ORIGIN = "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json"
_MODES = ("caffe", "tf", "torch")
# The ImageNet channel statistics: caffe subtracts BGR means from 0-255 pixels; torch divides RGB
# pixels by 255, subtracts these means and divides by these deviations.
_CAFFE_BGR_MEAN = (103.939, 116.779, 123.68)
_TORCH_MEAN = (0.485, 0.456, 0.406)
_TORCH_STD = (0.229, 0.224, 0.225)

_class_index = {}  # path -> the parsed json, read once per file


def preprocess_input(x, data_format=None, mode="caffe"):
    """Scale a batch of 0-255 RGB images as one of the ImageNet trainings did. A float NumPy array is
    scaled in place (as Keras does: pass a copy to keep it); other input becomes a new tensor."""
    if mode not in _MODES:
        raise ValueError(f"Expected mode to be one of `caffe`, `tf` or `torch`. Received: mode={mode}")
    if data_format is None:
        data_format = "channels_last"
    elif data_format not in ("channels_first", "channels_last"):
        raise ValueError("Expected data_format to be one of `channels_first` or `channels_last`. "
                         f"Received: data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _scale_numpy(x, data_format, mode)
    return _scale_tensor(x, data_format, mode)


def _channel_index(ndim, data_format):
    """The channel axis of a 3-D (one image) or 4-D (a batch) array."""
    if data_format == "channels_last":
        return ndim - 1
    return 0 if ndim == 3 else 1


def _scale_numpy(x, data_format, mode):
    if not np.issubdtype(x.dtype, np.floating):
        x = x.astype("float32", copy=False)
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x
    axis = _channel_index(x.ndim, data_format)
    if mode == "torch":
        x /= 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        x = np.flip(x, axis=axis)  # RGB -> BGR, a view: the caller's array is still written to
        mean, std = _CAFFE_BGR_MEAN, None
    for channel in range(3):
        index = (slice(None),) * axis + (channel,)
        x[index] -= mean[channel]
        if std is not None:
            x[index] /= std[channel]
    return x


def _scale_tensor(x, data_format, mode):
    from ..ops import numpy as knp

    if mode == "tf":
        return x / 127.5 - 1.0
    ndim = len(x.shape)
    axis = _channel_index(ndim, data_format)
    if mode == "torch":
        x = x / 255.0
        mean, std = _TORCH_MEAN, _TORCH_STD
    else:
        x = knp.flip(x, axis=axis)
        mean, std = _CAFFE_BGR_MEAN, None
    shape = [1] * ndim
    shape[axis] = 3
    dtype = getattr(x.dtype, "name", x.dtype)
    x = x - knp.reshape(knp.array(np.asarray(mean), dtype=dtype), shape)
    if std is not None:
        x = x / knp.reshape(knp.array(np.asarray(std), dtype=dtype), shape)
    return x


def class_index_path():
    return os.path.join(keras_models_dir(), CLASS_INDEX_FILE)


def _load_class_index():
    path = class_index_path()
    if path not in _class_index:
        if not os.path.exists(path):
            raise FileNotFoundError(
                f"decode_predictions needs the ImageNet class index file {CLASS_INDEX_FILE}, which is not in "
                f"{os.path.dirname(path)}. eagerflow does not download; download {CLASS_INDEX_ORIGIN} and save it "
                f"as {path} (the folder is $KERAS_HOME/models, or ~/.keras/models when KERAS_HOME is not set).")
        with open(path, encoding="utf-8") as f:
            _class_index[path] = json.load(f)
    return _class_index[path]


def decode_predictions(preds, top=5):
    """For each row of 1000 ImageNet scores, the `top` best as (class id, class name, score) tuples,
    best first."""
    shape = tuple(preds.shape)
    if len(shape) != 2 or shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D array of shape "
                         f"(samples, 1000)). Received array with shape: {shape}")
    index = _load_class_index()
    scores = np.asarray(preds.numpy() if hasattr(preds, "numpy") else preds)
    results = []
    for row in scores:
        best = row.argsort(kind="stable")[-top:][::-1]  # ties: later class first, any NumPy
        decoded = [tuple(index[str(i)]) + (row[i],) for i in best]
        decoded.sort(key=lambda entry: entry[2], reverse=True)
        results.append(decoded)
    return results


def obtain_input_shape(input_shape, default_size, min_size, require_flatten, weights=None):
    """The (rows, cols, channels) an application builds for, after Keras' checks (channels_last)."""
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        if input_shape[-1] not in (1, 3):
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was passed an input_shape "
                          f"with {input_shape[-1]} input channels.", stacklevel=3)
        default_shape = (default_size, default_size, input_shape[-1])
    else:
        default_shape = (default_size, default_size, 3)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and tuple(input_shape) != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` weights, `input_shape` should "
                             f"be {default_shape}.  Received: input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        if input_shape[-1] != 3 and weights == "imagenet":
            raise ValueError(f"The input must have 3 channels; Received `input_shape={input_shape}`")
        if any(d is not None and d < min_size for d in input_shape[:2]):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (None, None, 3)
    if require_flatten and None in tuple(input_shape):
        raise ValueError("If `include_top` is True, you should specify a static `input_shape`. "
                         f"Received: input_shape={input_shape}")
    return tuple(input_shape)


def correct_pad(inputs, kernel_size):
    """The ((top, bottom), (left, right)) zero padding that makes a strided 'valid' convolution
    centre its windows as 'same' would on an even-sized input."""
    rows, cols = inputs.shape[1:3]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if rows is None else (1 - rows % 2, 1 - cols % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation, weights):
    """Pretrained heads were trained with softmax: only softmax or no activation may go on them."""
    if weights is None:
        return
    from .. import activations

    if activations.get(classifier_activation) not in (activations.get("softmax"), activations.get(None)):
        raise ValueError("Only `None` and `softmax` activations are allowed for the `classifier_activation` argument "
                         "when using pretrained weights, with `include_top=True`; Received: "
                         f"classifier_activation={classifier_activation}")
