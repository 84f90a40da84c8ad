"""keras.utils.text_dataset_from_directory (also keras.preprocessing's): a Dataset of (text, label) from
a folder with one subfolder of `.txt` files per class, as Keras 3.15 builds it.

Files are listed class by class (subfolders in alphabetical order, or `class_names`' order), each
class's files in sorted order; with `shuffle` the list is shuffled with NumPy's RandomState(seed) (files
and labels alike) before a `validation_split` takes its last part, and the dataset reshuffles each
epoch. Labels: "int" (int32), "binary" (float32, shape (1,)), "categorical" (float32 one-hot), or None.
"""
from __future__ import annotations

import os

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.data.dataset import Dataset
from ..._src.ops.array import basic as _array
from ..._src.ops.array.sequences import one_hot
from ..._src.ops.io.files import read_file
from ..._src.ops.strings.elementwise import substr

_FORMATS = (".txt",)


def _list_files(directory, labels, class_names, follow_links):
    subfolders = sorted(d for d in os.listdir(directory) if os.path.isdir(os.path.join(directory, d)))
    if labels == "inferred":
        if class_names is not None:
            if sorted(class_names) != sorted(subfolders):
                raise ValueError(f"The `class_names` passed did not match the names of the subdirectories of the "
                                 f"target directory. Expected: {subfolders}, but received: {class_names}")
            subfolders = list(class_names)
        folders = [(os.path.join(directory, d), i) for i, d in enumerate(subfolders)]
    else:
        folders, subfolders = [(directory, None)], []
    paths, found = [], []
    for folder, label in folders:
        for root, _, files in sorted(os.walk(folder, followlinks=follow_links)):
            for name in sorted(files):
                if name.lower().endswith(_FORMATS):
                    paths.append(os.path.join(root, name))
                    found.append(label)
    if labels is None or labels == "inferred":
        label_list = found if labels == "inferred" else None
    else:
        if len(labels) != len(paths):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(paths)} files in "
                             f"directory {directory}.")
        label_list = list(labels)
        subfolders = [str(label) for label in sorted(set(label_list))]  # Keras names such classes by their ids
    return paths, label_list, subfolders


def _split(items, validation_split, subset):
    if not validation_split:
        return items
    held_out = int(validation_split * len(items))
    return items[:len(items) - held_out] if subset == "training" else items[len(items) - held_out:]


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                max_length=None, shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):  # noqa: A002 - Keras' name
    if labels not in ("inferred", None) and not isinstance(labels, (list, tuple)):
        raise ValueError(f"`labels` argument should be a list/tuple of integer labels, of length equal to the "
                         f"number of files in the target directory. If you wish to infer the labels from the "
                         f"subdirectory names in the target directory, pass `labels=\"inferred\"`. If you wish "
                         f"to get a dataset that only contains text samples (no labels), pass `labels=None`. "
                         f"Received: labels={labels}")
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                         f"Received: label_mode={label_mode}")
    if labels is None or label_mode is None:
        labels = label_mode = None
    if (subset is None) != (validation_split is None):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in (None, "training", "validation", "both"):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split is not None and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` argument, "
                         "to make sure that there is no overlap between the training and validation subset.")
    if not os.path.isdir(directory):
        raise FileNotFoundError(2, "No such file or directory", directory)
    paths, label_list, names = _list_files(directory, labels, class_names, follow_links)
    if label_mode == "binary" and len(names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={names}")
    if verbose:
        print(f"Found {len(paths)} files belonging to {len(names)} classes." if labels is not None
              else f"Found {len(paths)} files.")
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if label_list is not None:
            np.random.RandomState(seed).shuffle(label_list)
    subsets = ["training", "validation"] if subset == "both" else [subset]
    made = []
    for part in subsets:
        part_paths = _split(paths, validation_split, part)
        part_labels = None if label_list is None else _split(label_list, validation_split, part)
        if verbose and part is not None:
            print(f"Using {len(part_paths)} files for {part}.")
        made.append(_dataset(part_paths, part_labels, label_mode, len(names), batch_size, max_length,
                             shuffle, seed, names))
    return tuple(made) if subset == "both" else made[0]


def _dataset(paths, labels, label_mode, num_classes, batch_size, max_length, shuffle, seed, names):
    def read(path):
        text = read_file(path)
        return substr(text, 0, max_length) if max_length is not None else text

    ds = Dataset.from_tensor_slices(np.asarray(paths, dtype=object).astype(bytes) if paths else
                                    np.zeros((0,), dtype=object)).map(read)
    if labels is not None:
        label_ds = Dataset.from_tensor_slices(np.asarray(labels, np.int32).reshape(-1))
        if label_mode == "binary":
            label_ds = label_ds.map(lambda y: _array.expand_dims(_array.cast(y, _dt.float32), -1))
        elif label_mode == "categorical":
            label_ds = label_ds.map(lambda y: one_hot(y, num_classes, dtype=_dt.float32))
        ds = Dataset.zip((ds, label_ds))
    if shuffle:
        ds = ds.shuffle(buffer_size=batch_size * 8 if batch_size is not None else 1024, seed=seed)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    ds.class_names = names if labels is not None else None
    return ds
