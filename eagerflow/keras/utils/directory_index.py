"""The file index behind keras.utils.{image,text,audio}_dataset_from_directory, computed as Keras 3 computes
it, so that the same folder and seed give the same class names, file order and training/validation split.

Class names are the sorted sub-folders (hidden ones skipped), or the `class_names` given, in their order.
Each class folder is walked in sorted order of its sub-folders, file names sorted within each, keeping
files whose lower-cased name ends in one of the formats. With `shuffle`, the paths and the labels are
each permuted by NumPy's RandomState(seed), the same permutation, as Keras does; a validation split
then keeps the last int(split * n) files for validation and the others for training.
"""
from __future__ import annotations

import os

import numpy as np


def check_split_arguments(validation_split, subset, shuffle, seed):
    """Keras' refusals of inconsistent split arguments (its ValueError messages)."""
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` argument, to "
                         "make sure that there is no overlap between the training and validation subset.")


def check_labels_argument(labels, label_mode, class_names, what):
    if labels not in ("inferred", None):
        if not isinstance(labels, (list, tuple)):
            raise ValueError(
                f"`labels` argument should be a list/tuple of integer labels, of the same size as the number of "
                f"{what} files in the target directory. If you wish to infer the labels from the subdirectory names "
                f"in the target directory, pass `labels=\"inferred\"`. If you wish to get a dataset that only "
                f"contains {what if what != 'image' else 'images'}{' samples' if what != 'image' else ''} (no "
                f"labels), pass `labels=None`. Received: labels={labels}")
        if class_names:
            raise ValueError(f"You can only pass `class_names` if `labels=\"inferred\"`. Received: labels={labels}, "
                             f"and class_names={class_names}")
    if label_mode not in {"int", "categorical", "binary", None}:
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", "binary", or None. Received: '
                         f"label_mode={label_mode}")


def _class_folders(directory, class_names):
    found = [name for name in sorted(os.listdir(directory))
             if os.path.isdir(os.path.join(directory, name)) and not name.startswith(".")]
    if class_names is None:
        return found
    if not set(class_names).issubset(found):
        raise ValueError(f"The `class_names` passed did not match the names of the subdirectories of the target "
                         f"directory. Expected: {found} (or a subset of it), but received: class_names={class_names}")
    return list(class_names)


def _files_under(folder, formats, follow_links):
    """Paths relative to `folder`'s parent... as Keras lists them: `<class>/<sub>/<file>`."""
    name = os.path.basename(folder)
    walk = sorted(os.walk(folder, followlinks=follow_links), key=lambda entry: entry[0])
    for root, _, files in walk:
        under = os.path.relpath(root, folder)  # once per folder, not per file
        prefix = name if under == os.curdir else os.path.join(name, under)
        for file_name in sorted(files):
            if file_name.lower().endswith(formats):
                yield os.path.join(prefix, file_name)


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None, follow_links=False,
                    verbose=True):
    """(file paths, labels as int32 or None, class names or None)."""
    if labels == "inferred":
        folders = _class_folders(directory, class_names)
    else:
        if class_names is not None:
            raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified."
                             if labels is None else
                             "When argument `labels` is specified, argument `class_names` cannot be specified (the "
                             "`class_names` will be the sorted list of labels).")
        folders = [""]
    names, per_class = [], []
    for index, folder in enumerate(folders):
        found = list(_files_under(os.path.join(directory, folder), formats, follow_links))
        names += found
        per_class.append(np.full(len(found), index, np.int32))
    if labels == "inferred":
        class_names, labels = folders, (np.concatenate(per_class) if per_class else np.zeros(0, np.int32))
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(names):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in the target directory. "
                             f"len(labels) is {len(labels)} while we found {len(names)} files in directory "
                             f"{directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        print(f"Found {len(names)} files." if labels is None else
              f"Found {len(names)} files belonging to {len(class_names)} classes.")
    paths = [os.path.join(directory, name) for name in names]
    if shuffle:
        seed = np.random.randint(1e6) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            labels = list(labels) if isinstance(labels, (list, tuple)) else labels
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def split_for_subset(paths, labels, validation_split, subset):
    """The training or validation part of an index (all of it without a split)."""
    if not validation_split:
        return paths, labels
    count = int(validation_split * len(paths))
    if subset == "training":
        print(f"Using {len(paths) - count} files for training.")
        part = slice(None, -count)
    elif subset == "validation":
        print(f"Using {count} files for validation.")
        part = slice(-count, None)
    else:
        raise ValueError(f'`subset` must be either "training" or "validation", received: {subset}')
    return paths[part], (labels[part] if labels is not None else None)


def labels_dataset(labels, label_mode, num_classes):
    """A dataset of the labels in the form `label_mode` asks for: int32, float32 [1] (binary) or one-hot."""
    from ..._src.data.dataset import Dataset
    labels = np.asarray(labels, np.int32)
    if label_mode == "binary":
        return Dataset.from_tensor_slices(labels.astype(np.float32)[:, None])
    if label_mode == "categorical":  # one_hot's rows: a label outside [0, num_classes) is all zeros
        return Dataset.from_tensor_slices((labels[:, None] == np.arange(num_classes)).astype(np.float32))
    return Dataset.from_tensor_slices(labels)


def files_dataset(paths, labels, label_mode, num_classes, load, shuffle, buffer_size, seed):
    """(path -> loaded element[, label]) pairs as Keras builds them: zipped, shuffled, then mapped
    (`load` None: the paths themselves)."""
    from ..._src.data.dataset import AUTOTUNE, Dataset
    ds = Dataset.from_tensor_slices(list(paths))
    if label_mode:
        ds = Dataset.zip((ds, labels_dataset(labels, label_mode, num_classes)))
    if shuffle:
        ds = ds.shuffle(buffer_size=buffer_size or 1024, seed=seed)
    if load is None:
        return ds
    if label_mode:
        return ds.map(lambda path, label: (load(path), label), num_parallel_calls=AUTOTUNE)
    return ds.map(load, num_parallel_calls=AUTOTUNE)


def batch_loaded(ds, batch_size, load_batch, label_mode):
    """Batches of paths (and labels) loaded by `load_batch` (a batch of paths -> the batch of their
    elements): the elements `ds.map(load).batch(batch_size)` gives when `load_batch` is `load` run on
    each path, for a loader that is cheaper per batch than per file."""
    from ..._src.data.dataset import AUTOTUNE
    ds = ds.batch(batch_size)
    if label_mode:
        return ds.map(lambda paths, labels: (load_batch(paths), labels), num_parallel_calls=AUTOTUNE)
    return ds.map(load_batch, num_parallel_calls=AUTOTUNE)


def split_datasets(directory, paths, labels, class_names, label_mode, validation_split, subset, shuffle, seed,
                   batch_size, load, what, allowed, finish=None, with_file_paths=True, load_batch=None):
    """The dataset (a [training, validation] pair for `subset="both"`) of an index as Keras builds it: the
    subset's files, zipped with their labels, shuffled (the training part only), loaded by `load`, then
    `finish`ed (default: batched, then prefetched); with `load_batch` and a batch size, batched first and
    loaded a batch at a time (the same elements). Refuses an empty part in Keras' words ("No training
    {what} found in directory ...{allowed}"). Each dataset carries `class_names` (and `file_paths`)."""
    from ..._src.data.dataset import AUTOTUNE
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    num_classes = len(class_names) if class_names else 0
    if finish is None:
        def finish(ds):
            return (ds.batch(batch_size) if batch_size is not None else ds).prefetch(AUTOTUNE)

    def build(part, shuffled, nothing):
        part_paths, part_labels = split_for_subset(paths, labels, validation_split, part)
        if not part_paths:
            raise ValueError(f"{nothing} {directory}. {allowed}")
        if load_batch is not None and batch_size is not None:
            ds = files_dataset(part_paths, part_labels, label_mode, num_classes, None, shuffled, buffer_size, seed)
            ds = batch_loaded(ds, batch_size, load_batch, label_mode).prefetch(AUTOTUNE)
        else:
            ds = finish(files_dataset(part_paths, part_labels, label_mode, num_classes, load, shuffled, buffer_size,
                                      seed))
        ds.class_names = class_names
        if with_file_paths:
            ds.file_paths = part_paths
        return ds

    if subset == "both":
        return [build("training", shuffle, f"No training {what} found in directory"),
                build("validation", False, f"No validation {what} found in directory")]
    return build(subset, shuffle, f"No {what} found in directory")
