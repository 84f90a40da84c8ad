"""`keras.utils.text_dataset_from_directory`: a batched dataset of (text, label) from a folder of .txt
files, one sub-folder per class, with Keras 3's file order, split and label forms; each element is a
file's whole content as a string (its first `max_length` bytes when given)."""
from __future__ import annotations

import numpy as np

from .directory_index import check_labels_argument, check_split_arguments, index_directory, split_datasets


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None, batch_size=32,
                                max_length=None, shuffle=True, seed=None, validation_split=None, subset=None,
                                follow_links=False, format="tf", verbose=True):
    """Strings [batch] and labels from `directory/<class>/<file>.txt`; a pair of datasets for `subset="both"`."""
    from ..._src.ops.io.files import read_file
    from ..._src.ops.strings.elementwise import substr
    check_labels_argument(labels, label_mode, class_names, "text")
    if format != "tf":
        raise ValueError(f'`format` should be either "tf" or "grain". Received: format={format}'
                         if format != "grain" else "format='grain' needs the grain package, which eagerflow does not use")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    check_split_arguments(validation_split, subset, shuffle, seed)
    seed = np.random.randint(1e6) if seed is None else seed
    paths, labels, class_names = index_directory(directory, labels, (".txt",), class_names, shuffle, seed,
                                                 follow_links, verbose)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. Received: '
                         f"class_names={class_names}")

    def load(path):
        text = read_file(path)
        return substr(text, 0, max_length) if max_length is not None else text

    return split_datasets(directory, paths, labels, class_names, label_mode, validation_split, subset, shuffle, seed,
                          batch_size, load, "text files", "Allowed format: .txt")
