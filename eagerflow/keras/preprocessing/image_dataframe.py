"""`ImageDataGenerator.flow_from_dataframe`'s iterator: image files named in a table's `x_col`, labelled by
`y_col`. The table is a pandas DataFrame as in Keras, or any object whose `table[column]` iterates over the
column's values (a dict of lists works too), so eagerflow needs no pandas.

Keras' rules, restated: rows whose file is missing or not an image are dropped (with a warning) when
`validate_filenames`; for categorical/binary/sparse modes the classes are the sorted distinct labels (or
`classes`, in its order, dropping rows with none of them); `subset` then takes the first (validation) or
the remaining (training) fraction of the rows."""
from __future__ import annotations

import os
import warnings

import numpy as np

from .image_iterators import BatchFromFiles, Iterator, _defaults

_LABEL_FREE = ("input", "multi_output", "raw", None)


def _column(table, name):
    return list(table[name])


def _keep_known(label, classes, y_col):
    """The label restricted to `classes`; None when nothing is left (the row is dropped)."""
    if isinstance(label, (list, tuple)):
        return [c for c in label if c in classes] or None
    if isinstance(label, str):
        return label if label in classes else None
    raise TypeError(f"Expect string, list or tuple but found {type(label)} in {y_col} column ")


class DataFrameIterator(BatchFromFiles, Iterator):
    """Batches of the images listed in a table (see the module docstring)."""

    allowed_class_modes = {"binary", "categorical", "input", "multi_output", "raw", "sparse", None}

    def __init__(self, dataframe, directory=None, image_data_generator=None, x_col="filename", y_col="class",
                 weight_col=None, target_size=(256, 256), color_mode="rgb", classes=None, class_mode="categorical",
                 batch_size=32, shuffle=True, seed=None, data_format="channels_last", save_to_dir=None,
                 save_prefix="", save_format="png", subset=None, interpolation="nearest", keep_aspect_ratio=False,
                 dtype="float32", validate_filenames=True):
        data_format, self.dtype = _defaults(data_format, dtype)
        self._set_processing_attrs(image_data_generator, target_size, color_mode, data_format, save_to_dir,
                                   save_prefix, save_format, subset, interpolation, keep_aspect_ratio)
        self.directory = directory or ""
        self.class_mode = class_mode
        names = _column(dataframe, x_col)
        labels = None if class_mode in ("input", None) else self._labels(dataframe, y_col)
        self._check_params(dataframe, names, labels, x_col, y_col, weight_col, classes)
        rows = list(range(len(names)))
        if validate_filenames:
            rows = self._valid_rows(names, x_col)
        if class_mode not in _LABEL_FREE:
            rows, labels, classes = self._filter_classes(rows, labels, y_col, classes)
            self.class_indices = dict(zip(classes, range(len(classes))))
        if self.split:
            rows = rows[int(self.split[0] * len(rows)):int(self.split[1] * len(rows))]
        if class_mode not in _LABEL_FREE:
            self.classes = [[self.class_indices[c] for c in labels[r]] if isinstance(labels[r], (list, tuple))
                            else self.class_indices[labels[r]] for r in rows]
        self.filenames = [names[r] for r in rows]
        weights = np.asarray(_column(dataframe, weight_col)) if weight_col else None
        self._sample_weight = weights[rows] if weights is not None else None
        if class_mode == "multi_output":
            self._targets = [np.array([labels[i][r] for r in rows]) for i in range(len(y_col))]
        if class_mode == "raw":
            raw = np.asarray(labels if not isinstance(y_col, list) else np.stack(labels, axis=1))
            self._targets = raw[rows]
        self.samples = len(self.filenames)
        checked = "validated" if validate_filenames else "non-validated"
        if class_mode in _LABEL_FREE:
            print(f"Found {self.samples} {checked} image filenames.")
        else:
            print(f"Found {self.samples} {checked} image filenames belonging to {len(classes)} classes.")
        self._filepaths = [os.path.join(self.directory, name) for name in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    def _labels(self, table, y_col):
        if self.class_mode == "multi_output" and isinstance(y_col, list):
            return [_column(table, c) for c in y_col]
        if self.class_mode == "raw" and isinstance(y_col, list):
            return [_column(table, c) for c in y_col]
        if self.class_mode == "multi_output":
            return None
        return _column(table, y_col)

    def _check_params(self, table, names, labels, x_col, y_col, weight_col, classes):
        mode = self.class_mode
        if mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {mode}; expected one of: {self.allowed_class_modes}")
        if mode == "multi_output" and not isinstance(y_col, list):
            raise TypeError(f'If class_mode="{mode}", y_col must be a list. Received {type(y_col).__name__}.')
        if not all(isinstance(name, str) for name in names):
            raise TypeError(f"All values in column x_col={x_col} must be strings.")
        if mode in ("binary", "sparse") and not all(isinstance(v, str) for v in labels):
            raise TypeError(f'If class_mode="{mode}", y_col="{y_col}" column values must be strings.')
        if mode == "binary":
            if classes:
                if len(set(classes)) != 2:
                    raise ValueError(f'If class_mode="binary" there must be 2 classes. {len(classes)} class/es '
                                     f"were given.")
            elif len(set(labels)) != 2:
                raise ValueError(f'If class_mode="binary" there must be 2 classes. Found {len(set(labels))} '
                                 f"classes.")
        if mode == "categorical" and not all(isinstance(v, (str, list, tuple)) for v in labels):
            raise TypeError(f'If class_mode="{mode}", y_col="{y_col}" column values must be type string, list or '
                            f"tuple.")
        if classes and mode in _LABEL_FREE:
            warnings.warn(f'`classes` will be ignored given the class_mode="{mode}"')
        if weight_col and not np.issubdtype(np.asarray(_column(table, weight_col)).dtype, np.number):
            raise TypeError(f"Column weight_col={weight_col} must be numeric.")

    def _valid_rows(self, names, x_col):
        extensions = tuple(self.white_list_formats)
        rows = [r for r, name in enumerate(names)
                if name.lower().endswith(extensions) and os.path.isfile(os.path.join(self.directory, name))]
        if len(rows) < len(names):
            warnings.warn(f'Found {len(names) - len(rows)} invalid image filename(s) in x_col="{x_col}". These '
                          f"filename(s) will be ignored.")
        return rows

    @staticmethod
    def _filter_classes(rows, labels, y_col, classes):
        labels = list(labels)
        if classes:
            classes = list(dict.fromkeys(classes))
            for r in rows:
                labels[r] = _keep_known(labels[r], classes, y_col)
            rows = [r for r in rows if labels[r] is not None]
        else:
            found = set()
            for r in rows:
                if isinstance(labels[r], (list, tuple)):
                    found.update(labels[r])
                else:
                    found.add(labels[r])
            classes = sorted(found)
        return rows, labels, classes

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self._targets if self.class_mode in ("multi_output", "raw") else self.classes

    @property
    def sample_weight(self):
        return self._sample_weight
