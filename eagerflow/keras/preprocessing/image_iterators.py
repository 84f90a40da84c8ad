"""The legacy image iterators of `keras.preprocessing.image`: Iterator (batches of indices, by position or
endlessly with next()), NumpyArrayIterator (ImageDataGenerator.flow) and DirectoryIterator
(flow_from_directory). They are PyDatasets, so `model.fit(iterator)` takes them as they are.

Keras' contract, restated: `len()` is ceil(n / batch_size); `iterator[i]` is batch i of the current order
(reseeding NumPy's global random state with seed + batches seen, so augmentations replay); next() walks the
batches endlessly, drawing a new order (when `shuffle`) each time it wraps; `reset()` goes back to the start."""
from __future__ import annotations

import os
import threading

import numpy as np

from ..utils.py_dataset import PyDataset

IMAGE_EXTENSIONS = ("png", "jpg", "jpeg", "bmp", "ppm", "tif", "tiff")


def _defaults(data_format, dtype):
    from ..backend_settings import floatx, image_data_format
    return data_format or image_data_format(), dtype or floatx()


class Iterator(PyDataset):
    """Base class: subclasses define `_get_batches_of_transformed_samples(index_array)`."""

    white_list_formats = IMAGE_EXTENSIONS

    def __init__(self, n, batch_size, shuffle, seed, **kwargs):
        super().__init__(**kwargs)
        self.n = n
        self.batch_size = batch_size
        self.seed = seed
        self.shuffle = shuffle
        self.batch_index = 0
        self.total_batches_seen = 0
        self.lock = threading.Lock()
        self.index_array = None
        self.index_generator = self._flow_index()

    def _set_index_array(self):
        self.index_array = np.random.permutation(self.n) if self.shuffle else np.arange(self.n)

    def __getitem__(self, idx):
        if idx >= len(self):
            raise ValueError(f"Asked to retrieve element {idx}, but the Sequence has length {len(self)}")
        if self.seed is not None:
            np.random.seed(self.seed + self.total_batches_seen)
        self.total_batches_seen += 1
        if self.index_array is None:
            self._set_index_array()
        return self._get_batches_of_transformed_samples(
            self.index_array[self.batch_size * idx:self.batch_size * (idx + 1)])

    def __len__(self):
        return (self.n + self.batch_size - 1) // self.batch_size

    def on_epoch_end(self):
        self._set_index_array()

    def reset(self):
        self.batch_index = 0

    def _flow_index(self):
        """Endless batches of indices; a new order is drawn whenever a pass starts."""
        self.reset()
        while True:
            if self.seed is not None:
                np.random.seed(self.seed + self.total_batches_seen)
            if self.batch_index == 0:
                self._set_index_array()
            start = (self.batch_index * self.batch_size) % self.n if self.n else 0
            self.batch_index = self.batch_index + 1 if self.n > start + self.batch_size else 0
            self.total_batches_seen += 1
            yield self.index_array[start:start + self.batch_size]

    def __iter__(self):
        return self

    def __next__(self):
        with self.lock:
            index_array = next(self.index_generator)
        return self._get_batches_of_transformed_samples(index_array)

    def _get_batches_of_transformed_samples(self, index_array):
        raise NotImplementedError


def _subset_split(generator, subset):
    """(start, stop) fractions of each class's files for `subset`, None for all of them."""
    if subset is None:
        return None
    if subset == "validation":
        return 0, generator._validation_split
    if subset == "training":
        return generator._validation_split, 1
    raise ValueError(f'Invalid subset name: {subset};expected "training" or "validation"')


def _list_class_files(class_dir, split, follow_links, extensions=IMAGE_EXTENSIONS):
    """Image files under `class_dir` (walked in sorted order), as paths relative to its parent."""
    found = []
    walk = sorted(os.walk(class_dir, followlinks=follow_links), key=lambda entry: entry[0])
    for root, _, files in walk:
        for name in sorted(files):
            if name.lower().endswith(tuple(extensions)):
                found.append(os.path.join(root, name))
    if split:
        found = found[int(split[0] * len(found)):int(split[1] * len(found))]
    base = os.path.basename(class_dir)
    return [os.path.join(base, os.path.relpath(path, class_dir)) for path in found]


class BatchFromFiles:
    """Batches of image files (DirectoryIterator, DataFrameIterator): each file loaded with Pillow, resized
    to `target_size`, augmented and standardized, then labelled per `class_mode`."""

    def _set_processing_attrs(self, image_data_generator, target_size, color_mode, data_format, save_to_dir,
                              save_prefix, save_format, subset, interpolation, keep_aspect_ratio):
        self.image_data_generator = image_data_generator
        self.target_size = tuple(target_size)
        self.keep_aspect_ratio = keep_aspect_ratio
        channels = {"rgb": 3, "rgba": 4, "grayscale": 1}
        if color_mode not in channels:
            raise ValueError(f'Invalid color mode: {color_mode}; expected "rgb", "rgba", or "grayscale".')
        self.color_mode = color_mode
        self.data_format = data_format
        depth = (channels[color_mode],)
        self.image_shape = self.target_size + depth if data_format == "channels_last" else depth + self.target_size
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        self.interpolation = interpolation
        self.split = _subset_split(image_data_generator, subset)
        self.subset = subset

    def _get_batches_of_transformed_samples(self, index_array):
        from ..utils.image_utils import img_to_array, load_img
        batch_x = np.zeros((len(index_array),) + self.image_shape, dtype=self.dtype)
        for i, j in enumerate(index_array):
            image = load_img(self.filepaths[j], color_mode=self.color_mode, target_size=self.target_size,
                             interpolation=self.interpolation, keep_aspect_ratio=self.keep_aspect_ratio)
            x = img_to_array(image, data_format=self.data_format)
            image.close()
            if self.image_data_generator:
                params = self.image_data_generator.get_random_transform(x.shape)
                x = self.image_data_generator.apply_transform(x, params)
                x = self.image_data_generator.standardize(x)
            batch_x[i] = x
        _save_batch(self, batch_x, index_array)
        if self.class_mode == "input":
            batch_y = batch_x.copy()
        elif self.class_mode in ("binary", "sparse"):
            batch_y = np.asarray([self.classes[j] for j in index_array], dtype=self.dtype)
        elif self.class_mode == "categorical":
            batch_y = np.zeros((len(batch_x), len(self.class_indices)), dtype=self.dtype)
            for i, j in enumerate(index_array):
                batch_y[i, self.classes[j]] = 1.0  # a list of indices marks several classes
        elif self.class_mode == "multi_output":
            batch_y = [output[index_array] for output in self.labels]
        elif self.class_mode == "raw":
            batch_y = self.labels[index_array]
        else:
            return batch_x
        if self.sample_weight is None:
            return batch_x, batch_y
        return batch_x, batch_y, self.sample_weight[index_array]


class DirectoryIterator(BatchFromFiles, Iterator):
    """Images read from `directory`/<class>/..., one class per subdirectory (sorted by name unless
    `classes` lists them), labelled per `class_mode`: "categorical" (one-hot), "binary"/"sparse" (the
    index, as floats), "input" (the images themselves) or None (images only)."""

    allowed_class_modes = {"categorical", "binary", "sparse", "input", None}

    def __init__(self, directory, image_data_generator, target_size=(256, 256), color_mode="rgb", classes=None,
                 class_mode="categorical", batch_size=32, shuffle=True, seed=None, data_format=None,
                 save_to_dir=None, save_prefix="", save_format="png", follow_links=False, subset=None,
                 interpolation="nearest", keep_aspect_ratio=False, dtype=None):
        data_format, self.dtype = _defaults(data_format, dtype)
        self._set_processing_attrs(image_data_generator, target_size, color_mode, data_format, save_to_dir,
                                   save_prefix, save_format, subset, interpolation, keep_aspect_ratio)
        self.directory = directory
        if class_mode not in self.allowed_class_modes:
            raise ValueError(f"Invalid class_mode: {class_mode}; expected one of: {self.allowed_class_modes}")
        self.class_mode = class_mode
        if not classes:
            classes = [name for name in sorted(os.listdir(directory))
                       if os.path.isdir(os.path.join(directory, name))]
        self.num_classes = len(classes)
        self.class_indices = dict(zip(classes, range(len(classes))))
        self.filenames, labels = [], []
        for name in classes:
            files = _list_class_files(os.path.join(directory, name), self.split, follow_links,
                                      self.white_list_formats)
            self.filenames += files
            labels += [self.class_indices[name]] * len(files)
        self.samples = len(self.filenames)
        self.classes = np.asarray(labels, dtype="int32")
        print(f"Found {self.samples} images belonging to {self.num_classes} classes.")
        self._filepaths = [os.path.join(directory, name) for name in self.filenames]
        super().__init__(self.samples, batch_size, shuffle, seed)

    @property
    def filepaths(self):
        return self._filepaths

    @property
    def labels(self):
        return self.classes

    @property
    def sample_weight(self):
        return None


def _save_batch(iterator, batch_x, index_array):
    """With `save_to_dir`, each augmented image is also written there (for looking at the augmentation)."""
    if not iterator.save_to_dir:
        return
    from ..utils.image_utils import save_img
    for i, j in enumerate(index_array):
        name = f"{iterator.save_prefix}_{j}_{np.random.randint(10 ** 7)}.{iterator.save_format}"
        save_img(os.path.join(iterator.save_to_dir, name), batch_x[i], data_format=iterator.data_format,
                 file_format=iterator.save_format, scale=True)


class NumpyArrayIterator(Iterator):
    """Batches of a rank-4 image array `x` (with `y`, `sample_weight` and extra inputs when given),
    each image augmented and standardized by `image_data_generator`."""

    def __init__(self, x, y, image_data_generator, batch_size=32, shuffle=False, sample_weight=None, seed=None,
                 data_format=None, save_to_dir=None, save_prefix="", save_format="png", subset=None,
                 ignore_class_split=False, dtype=None):
        data_format, self.dtype = _defaults(data_format, dtype)
        x_misc = []
        if isinstance(x, (tuple, list)):
            x_misc = [np.asarray(m) for m in x[1]] if isinstance(x[1], list) else [np.asarray(x[1])]
            x = x[0]
            for m in x_misc:
                if len(x) != len(m):
                    raise ValueError(f"All of the arrays in `x` should have the same length. Found a pair with: "
                                     f"len(x[0]) = {len(x)}, len(x[?]) = {len(m)}")
        if y is not None and len(x) != len(y):
            raise ValueError(f"`x` (images tensor) and `y` (labels) should have the same length. Found: "
                             f"x.shape = {np.asarray(x).shape}, y.shape = {np.asarray(y).shape}")
        if sample_weight is not None and len(x) != len(sample_weight):
            raise ValueError(f"`x` (images tensor) and `sample_weight` should have the same length. Found: "
                             f"x.shape = {np.asarray(x).shape}, sample_weight.shape = "
                             f"{np.asarray(sample_weight).shape}")
        if subset is not None:
            if subset not in ("training", "validation"):
                raise ValueError(f'Invalid subset name: {subset}; expected "training" or "validation".')
            cut = int(len(x) * image_data_generator._validation_split)
            if (y is not None and not ignore_class_split
                    and not np.array_equal(np.unique(y[:cut]), np.unique(y[cut:]))):
                raise ValueError("Training and validation subsets have different number of classes after the "
                                 "split. If your numpy arrays are sorted by the label, you might want to shuffle "
                                 "them.")
            part = slice(None, cut) if subset == "validation" else slice(cut, None)
            x, x_misc = x[part], [np.asarray(m[part]) for m in x_misc]
            y = y[part] if y is not None else None
            # Keras slices the data but not the weights: kept as Keras does
        self.x = np.asarray(x, dtype=self.dtype)
        self.x_misc = x_misc
        if self.x.ndim != 4:
            raise ValueError(f"Input data in `NumpyArrayIterator` should have rank 4. You passed an array with "
                             f"shape {self.x.shape}")
        channels_axis = 3 if data_format == "channels_last" else 1
        if self.x.shape[channels_axis] not in (1, 3, 4):
            import warnings
            warnings.warn(f'NumpyArrayIterator is set to use the data format convention "{data_format}" '
                          f"(channels on axis {channels_axis}), i.e. expected either 1, 3, or 4 channels on axis "
                          f"{channels_axis}. However, it was passed an array with shape {self.x.shape} "
                          f"({self.x.shape[channels_axis]} channels).")
        self.y = np.asarray(y) if y is not None else None
        self.sample_weight = np.asarray(sample_weight) if sample_weight is not None else None
        self.image_data_generator = image_data_generator
        self.data_format = data_format
        self.save_to_dir, self.save_prefix, self.save_format = save_to_dir, save_prefix, save_format
        super().__init__(self.x.shape[0], batch_size, shuffle, seed)

    def _get_batches_of_transformed_samples(self, index_array):
        batch_x = np.zeros((len(index_array),) + self.x.shape[1:], dtype=self.dtype)
        for i, j in enumerate(index_array):
            x = self.x[j]
            params = self.image_data_generator.get_random_transform(x.shape)
            x = self.image_data_generator.apply_transform(x.astype(self.dtype), params)
            batch_x[i] = self.image_data_generator.standardize(x)
        _save_batch(self, batch_x, index_array)
        misc = [m[index_array] for m in self.x_misc]
        inputs = [batch_x] + misc if misc else batch_x
        if self.y is None:
            return inputs
        if self.sample_weight is not None:
            return inputs, self.y[index_array], self.sample_weight[index_array]
        return inputs, self.y[index_array]
