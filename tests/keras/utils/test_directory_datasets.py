"""keras.utils.image_dataset_from_directory / text_dataset_from_directory / audio_dataset_from_directory
(keras/utils/directory_index.py and the three builders) against Keras 3.15's recorded answers
(directory_datasets_oracle.json, written by make_directory_oracle.py) on the folder directory_files.py builds:
class names, file order for a seed, splits, batch shapes and dtypes, pixels, texts, audio, errors."""
import json
import os

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from tests.keras.utils.directory_files import build

with open(os.path.join(os.path.dirname(__file__), "directory_datasets_oracle.json")) as _f:
    ORACLE = json.load(_f)

pytestmark = pytest.mark.filterwarnings("ignore")


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("folders"))
    build(tf, path)
    return path


def _rel(root, paths):
    return [os.path.relpath(p, root) for p in paths]


def test_class_names_file_order_and_pixels_without_shuffling(root):
    ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), shuffle=False,
                                                  batch_size=4, verbose=False)
    assert ds.class_names == ORACLE["class_names"]
    assert _rel(root, ds.file_paths) == ORACLE["paths_noshuffle"]
    x, y = next(iter(ds))
    assert x.shape.as_list() == ORACLE["batch0_shape"] and x.dtype.name == ORACLE["batch0_dtype"]
    assert y.dtype == tf.int32
    assert [int(v) for b in ds for v in b[1].numpy()] == ORACLE["labels_noshuffle"]
    np.testing.assert_allclose(x.numpy()[1, :2, :3], ORACLE["batch0_pixels"], atol=1e-3)
    np.testing.assert_allclose(x.numpy().sum(), ORACLE["batch0_sum"], rtol=1e-6)


@pytest.mark.parametrize("seed", [1, 42])
def test_file_order_for_a_seed(root, seed):
    tf.random.set_seed(None)  # as in the oracle's process: no global seed (tests before may have set one)
    ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), seed=seed,
                                                  batch_size=4, verbose=False)
    assert _rel(root, ds.file_paths) == ORACLE[f"paths_seed{seed}"]
    # the dataset's own shuffle (TensorFlow's orders for the seed): the batches Keras gives, pass after pass
    assert [[int(v) for v in b[1].numpy()] for b in ds] == ORACLE[f"labels_seed{seed}"]
    np.testing.assert_allclose([float(b[0].numpy().sum()) for b in ds], ORACLE[f"sums_seed{seed}"], atol=0.2)
    assert np.concatenate([b[0].numpy() for b in ds]).shape == (9, 4, 6, 3)


def test_training_and_validation_split(root):
    train, val = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), seed=7,
                                                          validation_split=0.3, subset="both", batch_size=3,
                                                          verbose=False)
    assert _rel(root, train.file_paths) == ORACLE["train_paths"]
    assert _rel(root, val.file_paths) == ORACLE["val_paths"]
    assert [int(v) for b in val for v in b[1].numpy()] == ORACLE["val_labels"]
    assert sum(int(b[0].shape[0]) for b in train) == len(ORACLE["train_paths"])
    alone = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), seed=7,
                                                     validation_split=0.3, subset="validation", verbose=False)
    assert _rel(root, alone.file_paths) == ORACLE["val_paths"]


def test_categorical_grayscale_crop_and_pad(root):
    ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(3, 3), shuffle=False,
                                                  label_mode="categorical", color_mode="grayscale", batch_size=None,
                                                  verbose=False, crop_to_aspect_ratio=True, interpolation="nearest")
    x, y = next(iter(ds))
    assert [x.shape.as_list(), y.shape.as_list(), y.dtype.name] == ORACLE["cat_shape"]
    np.testing.assert_array_equal(x.numpy()[..., 0], ORACLE["crop_pixels"])
    assert y.numpy().tolist() == ORACLE["cat_label"]
    ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(5, 5), shuffle=False,
                                                  batch_size=2, verbose=False, pad_to_aspect_ratio=True,
                                                  label_mode=None)
    x = next(iter(ds))
    assert x.shape.as_list() == ORACLE["pad_shape"]
    np.testing.assert_allclose(x.numpy()[0].sum(), ORACLE["pad_sum"], rtol=1e-5)
    np.testing.assert_allclose(x.numpy()[0, :, 0, 0], ORACLE["pad_col0"], atol=1e-3)


def test_given_class_names_and_manual_labels(root):
    directory = os.path.join(root, "images")
    ds = keras.utils.image_dataset_from_directory(directory, class_names=["zebras", "cats"], shuffle=False,
                                                  image_size=(2, 2), verbose=False)
    assert [ds.class_names, _rel(root, ds.file_paths)] == ORACLE["given_class_names"]
    ds = keras.utils.image_dataset_from_directory(directory, labels=[i % 3 for i in range(10)], shuffle=False,
                                                  image_size=(2, 2), verbose=False)
    assert [ds.class_names, _rel(root, ds.file_paths)] == ORACLE["manual_labels"]


def test_text_datasets(root):
    ds = keras.utils.text_dataset_from_directory(os.path.join(root, "texts"), shuffle=False, batch_size=3,
                                                 max_length=5, verbose=False)
    assert ds.class_names == ORACLE["text_classes"]
    texts, labels = next(iter(ds))
    assert [v.decode() for v in texts.numpy()] == ORACLE["text_batch"]
    assert labels.numpy().tolist() == ORACLE["text_labels"]
    ds = keras.utils.text_dataset_from_directory(os.path.join(root, "texts"), seed=3, validation_split=0.4,
                                                 subset="training", batch_size=8, verbose=False, label_mode="binary")
    texts, labels = next(iter(ds))
    assert int(texts.shape[0]) == ORACLE["text_train_n"] and labels.shape.as_list() == ORACLE["text_binary_shape"]
    assert sorted(v.decode() for v in texts.numpy()) == ORACLE["text_train_set"]


def test_audio_datasets(root):
    directory = os.path.join(root, "audio")
    audio, labels = next(iter(keras.utils.audio_dataset_from_directory(directory, shuffle=False, batch_size=5,
                                                                       verbose=False)))
    assert audio.shape.as_list() == ORACLE["audio_shape"] and labels.numpy().tolist() == ORACLE["audio_labels"]
    assert audio.numpy()[0, -3:].tolist() == ORACLE["audio_last_rows"]
    fixed = keras.utils.audio_dataset_from_directory(directory, shuffle=False, batch_size=5, verbose=False,
                                                     output_sequence_length=4)
    assert next(iter(fixed))[0].shape.as_list() == ORACLE["audio_fixed_shape"]


def test_ragged_audio_datasets(root):
    directory = os.path.join(root, "audio")
    ragged = next(iter(keras.utils.audio_dataset_from_directory(directory, shuffle=False, batch_size=5,
                                                                verbose=False, ragged=True)))[0]
    assert [type(ragged).__name__, ragged.shape.as_list(),
            [int(v) for v in ragged.row_lengths().numpy()]] == ORACLE["audio_ragged"]


@pytest.mark.parametrize("case", sorted(ORACLE["errors"]))
def test_errors_as_keras(root, case):
    d = os.path.join(root, "images")
    calls = {
        "split_no_seed": lambda: keras.utils.image_dataset_from_directory(d, validation_split=0.2, subset="training"),
        "subset_no_split": lambda: keras.utils.image_dataset_from_directory(d, subset="training"),
        "bad_subset": lambda: keras.utils.image_dataset_from_directory(d, validation_split=0.2, subset="x", seed=1),
        "bad_color": lambda: keras.utils.image_dataset_from_directory(d, color_mode="cmyk"),
        "binary_3": lambda: keras.utils.image_dataset_from_directory(d, label_mode="binary", verbose=False),
        "bad_class_names": lambda: keras.utils.image_dataset_from_directory(d, class_names=["cats", "cows"],
                                                                            verbose=False),
        "bad_labels": lambda: keras.utils.image_dataset_from_directory(d, labels="foo"),
        "labels_count": lambda: keras.utils.image_dataset_from_directory(d, labels=[0, 1], verbose=False),
        "crop_and_pad": lambda: next(iter(keras.utils.image_dataset_from_directory(
            d, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True, verbose=False))),
        "empty": lambda: keras.utils.image_dataset_from_directory(os.path.join(root, "texts"), verbose=False),
        "bad_interp": lambda: keras.utils.image_dataset_from_directory(d, interpolation="cubic"),
    }
    cls, message = ORACLE["errors"][case]
    with pytest.raises(Exception) as info:
        calls[case]()
    assert type(info.value).__name__ == cls
    # Keras' message, up to the (temporary) folder it names
    assert str(info.value).startswith(message.split(" /tmp")[0])


# Keras 3.15 without tensorflow-io (recorded): the checks of `sampling_rate`, in Keras' order
SAMPLING_RATE_ERRORS = [
    ({"sampling_rate": 16000}, ImportError, "To use the argument `sampling_rate`, you should install tensorflow_io. "
                                            "You can install it via `pip install tensorflow-io`."),
    ({"sampling_rate": 16000.0}, ValueError, "`sampling_rate` should have an integer value. Received: "
                                             "sampling_rate=16000.0"),
    ({"sampling_rate": 0}, ValueError, "`sampling_rate` should be higher than 0. Received: sampling_rate=0"),
    ({"sampling_rate": 16000, "ragged": True, "output_sequence_length": 3}, ValueError,
     "Cannot set both `ragged` and `output_sequence_length`"),
]


@pytest.mark.parametrize("kwargs,cls,message", SAMPLING_RATE_ERRORS)
def test_audio_sampling_rate_as_keras_without_tensorflow_io(root, kwargs, cls, message):
    with pytest.raises(cls) as info:
        keras.utils.audio_dataset_from_directory(os.path.join(root, "audio"), verbose=False, **kwargs)
    assert type(info.value) is cls and str(info.value) == message
