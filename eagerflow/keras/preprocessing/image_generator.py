"""`ImageDataGenerator`, the legacy Keras image augmenter that tutorials still use: per image, a random
affine transform (rotation, shifts, shear, zoom), flips, channel and brightness shifts, then
standardization (preprocessing_function, rescale, sample- and feature-wise centering and scaling, ZCA
whitening with statistics from `fit`); `flow`/`flow_from_directory`/`flow_from_dataframe` batch it
(flow_from_dataframe takes a pandas DataFrame or a dict of columns: pandas is not required).

Random draws use NumPy's global random state, as Keras' do, so a `seed` replays the same augmentations."""
from __future__ import annotations

import math
import warnings

import numpy as np

from .affine import apply_affine_transform, apply_brightness_shift, apply_channel_shift
from .image_iterators import DirectoryIterator, NumpyArrayIterator


def _not_fit_warning(option):
    warnings.warn(f"This ImageDataGenerator specifies `{option}`, but it hasn't been fit on any training data. "
                  f"Fit it first by calling `.fit(numpy_data)`.")


def _draw_shift(shift_range, size):
    """A shift in pixels: a fraction of `size` when the range is below 1, a signed choice from a list of
    pixel counts or up to an integer count otherwise (Keras' rules)."""
    if isinstance(shift_range, (float, np.floating)):
        shift = np.random.uniform(-shift_range, shift_range)
    else:  # an int or a 1-D list of choices
        shift = np.random.choice(shift_range) * np.random.choice([-1, 1])
    if np.max(shift_range) < 1:
        shift *= size
    return shift


class ImageDataGenerator:
    """Random augmentation and normalization of image batches (NumPy arrays, channels-last by default)."""

    def __init__(self, featurewise_center=False, samplewise_center=False, featurewise_std_normalization=False,
                 samplewise_std_normalization=False, zca_whitening=False, zca_epsilon=1e-6, rotation_range=0,
                 width_shift_range=0.0, height_shift_range=0.0, brightness_range=None, shear_range=0.0,
                 zoom_range=0.0, channel_shift_range=0.0, fill_mode="nearest", cval=0.0, horizontal_flip=False,
                 vertical_flip=False, rescale=None, preprocessing_function=None, data_format=None,
                 validation_split=0.0, interpolation_order=1, dtype=None):
        from ..backend_settings import floatx, image_data_format
        data_format = data_format or image_data_format()
        self.dtype = dtype or floatx()
        self.featurewise_center = featurewise_center
        self.samplewise_center = samplewise_center
        self.featurewise_std_normalization = featurewise_std_normalization
        self.samplewise_std_normalization = samplewise_std_normalization
        self.zca_whitening = zca_whitening
        self.zca_epsilon = zca_epsilon
        self.rotation_range = rotation_range
        self.width_shift_range = width_shift_range
        self.height_shift_range = height_shift_range
        self.shear_range = shear_range
        self.channel_shift_range = channel_shift_range
        self.fill_mode = fill_mode
        self.cval = cval
        self.horizontal_flip = horizontal_flip
        self.vertical_flip = vertical_flip
        self.rescale = rescale
        self.preprocessing_function = preprocessing_function
        self.interpolation_order = interpolation_order
        if data_format not in ("channels_last", "channels_first"):
            raise ValueError('`data_format` should be `"channels_last"` (channel after row and column) or '
                             f'`"channels_first"` (channel before row and column). Received: {data_format}')
        self.data_format = data_format
        # axes of a batch (the image axes are one less)
        self.channel_axis, self.row_axis, self.col_axis = (1, 2, 3) if data_format == "channels_first" else (3, 1, 2)
        if validation_split and not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be strictly between 0 and 1.  Received: {validation_split}")
        self._validation_split = validation_split
        self.mean = self.std = self.zca_whitening_matrix = None
        if isinstance(zoom_range, (float, int)):
            self.zoom_range = [1 - zoom_range, 1 + zoom_range]
        elif len(zoom_range) == 2 and all(isinstance(v, (float, int)) for v in zoom_range):
            self.zoom_range = [zoom_range[0], zoom_range[1]]
        else:
            raise ValueError(f"`zoom_range` should be a float or a tuple or list of two floats. Received: "
                             f"{zoom_range}")
        if zca_whitening:
            if not featurewise_center:
                self.featurewise_center = True
                warnings.warn("This ImageDataGenerator specifies `zca_whitening`, which overrides setting of "
                              "`featurewise_center`.")
            if featurewise_std_normalization:
                self.featurewise_std_normalization = False
                warnings.warn("This ImageDataGenerator specifies `zca_whitening` which overrides setting of "
                              "`featurewise_std_normalization`.")
        if self.featurewise_std_normalization and not self.featurewise_center:
            self.featurewise_center = True
            warnings.warn("This ImageDataGenerator specifies `featurewise_std_normalization`, which overrides "
                          "setting of `featurewise_center`.")
        if samplewise_std_normalization and not samplewise_center:
            self.samplewise_center = True
            warnings.warn("This ImageDataGenerator specifies `samplewise_std_normalization`, which overrides "
                          "setting of `samplewise_center`.")
        if brightness_range is not None and (not isinstance(brightness_range, (tuple, list))
                                             or len(brightness_range) != 2):
            raise ValueError(f"`brightness_range should be tuple or list of two floats. Received: "
                             f"{brightness_range}")
        self.brightness_range = brightness_range

    def flow(self, x, y=None, batch_size=32, shuffle=True, sample_weight=None, seed=None, save_to_dir=None,
             save_prefix="", save_format="png", ignore_class_split=False, subset=None):
        """A NumpyArrayIterator over `x` (rank 4) and `y`, augmenting each image."""
        return NumpyArrayIterator(x, y, self, batch_size=batch_size, shuffle=shuffle, sample_weight=sample_weight,
                                  seed=seed, data_format=self.data_format, save_to_dir=save_to_dir,
                                  save_prefix=save_prefix, save_format=save_format,
                                  ignore_class_split=ignore_class_split, subset=subset, dtype=self.dtype)

    def flow_from_directory(self, directory, target_size=(256, 256), color_mode="rgb", classes=None,
                            class_mode="categorical", batch_size=32, shuffle=True, seed=None, save_to_dir=None,
                            save_prefix="", save_format="png", follow_links=False, subset=None,
                            interpolation="nearest", keep_aspect_ratio=False):
        """A DirectoryIterator over `directory`/<class>/<image files>."""
        return DirectoryIterator(directory, self, target_size=target_size, color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, follow_links=follow_links, subset=subset,
                                 interpolation=interpolation, keep_aspect_ratio=keep_aspect_ratio,
                                 dtype=self.dtype)

    def flow_from_dataframe(self, dataframe, directory=None, x_col="filename", y_col="class", weight_col=None,
                            target_size=(256, 256), color_mode="rgb", classes=None, class_mode="categorical",
                            batch_size=32, shuffle=True, seed=None, save_to_dir=None, save_prefix="",
                            save_format="png", subset=None, interpolation="nearest", validate_filenames=True,
                            **kwargs):
        """A DataFrameIterator over the image files named in `dataframe[x_col]` (under `directory`)."""
        from .image_dataframe import DataFrameIterator
        for old, note in [("has_ext", "has_ext is deprecated, filenames in the dataframe have to match the exact "
                                      "filenames in disk."),
                          ("sort", "sort is deprecated, batches will be created in the same order than the "
                                   "filenames provided if `shuffle` is set to `False`."),
                          ("drop_duplicates", "drop_duplicates is deprecated, you can drop duplicates by using the "
                                              "pandas.DataFrame.drop_duplicates method.")]:
            if old in kwargs:
                warnings.warn(note, DeprecationWarning)
        if class_mode == "other":
            warnings.warn('`class_mode="other"` is deprecated, please use `class_mode="raw"`.', DeprecationWarning)
            class_mode = "raw"
        return DataFrameIterator(dataframe, directory, self, x_col=x_col, y_col=y_col, weight_col=weight_col,
                                 target_size=target_size, color_mode=color_mode, classes=classes,
                                 class_mode=class_mode, data_format=self.data_format, batch_size=batch_size,
                                 shuffle=shuffle, seed=seed, save_to_dir=save_to_dir, save_prefix=save_prefix,
                                 save_format=save_format, subset=subset, interpolation=interpolation,
                                 validate_filenames=validate_filenames, dtype=self.dtype)

    def standardize(self, x):
        """Normalizes `x` (an image or a batch) in place, in Keras' order: preprocessing_function, rescale,
        sample-wise centering/scaling, feature-wise centering/scaling, ZCA whitening."""
        if self.preprocessing_function:
            x = self.preprocessing_function(x)
        if self.rescale:
            x *= self.rescale
        if self.samplewise_center:
            x -= np.mean(x, keepdims=True)
        if self.samplewise_std_normalization:
            x /= np.std(x, keepdims=True) + 1e-6
        if self.featurewise_center:
            if self.mean is not None:
                x -= self.mean
            else:
                _not_fit_warning("featurewise_center")
        if self.featurewise_std_normalization:
            if self.std is not None:
                x /= self.std + 1e-6
            else:
                _not_fit_warning("featurewise_std_normalization")
        if self.zca_whitening:
            if self.zca_whitening_matrix is not None:
                flat = x.reshape(-1, math.prod(x.shape[-3:]))
                x = np.reshape(flat @ self.zca_whitening_matrix, x.shape)
            else:
                _not_fit_warning("zca_whitening")
        return x

    def get_random_transform(self, img_shape, seed=None):
        """A dict of random transform parameters for one image of shape `img_shape` (see apply_transform)."""
        row_axis, col_axis = self.row_axis - 1, self.col_axis - 1
        if seed is not None:
            np.random.seed(seed)
        theta = np.random.uniform(-self.rotation_range, self.rotation_range) if self.rotation_range else 0
        tx = _draw_shift(self.height_shift_range, img_shape[row_axis]) if self.height_shift_range else 0
        ty = _draw_shift(self.width_shift_range, img_shape[col_axis]) if self.width_shift_range else 0
        shear = np.random.uniform(-self.shear_range, self.shear_range) if self.shear_range else 0
        if self.zoom_range[0] == 1 and self.zoom_range[1] == 1:
            zx, zy = 1, 1
        else:
            zx, zy = np.random.uniform(self.zoom_range[0], self.zoom_range[1], 2)
        flip_horizontal = (np.random.random() < 0.5) * self.horizontal_flip
        flip_vertical = (np.random.random() < 0.5) * self.vertical_flip
        channel_shift = None
        if self.channel_shift_range != 0:
            channel_shift = np.random.uniform(-self.channel_shift_range, self.channel_shift_range)
        brightness = None
        if self.brightness_range is not None:
            brightness = np.random.uniform(self.brightness_range[0], self.brightness_range[1])
        return {"theta": theta, "tx": tx, "ty": ty, "shear": shear, "zx": zx, "zy": zy,
                "flip_horizontal": flip_horizontal, "flip_vertical": flip_vertical,
                "channel_shift_intensity": channel_shift, "brightness": brightness}

    def apply_transform(self, x, transform_parameters):
        """One image (rank 3) transformed by the parameters: theta, tx, ty, shear, zx, zy (the affine
        part), channel_shift_intensity, flip_horizontal, flip_vertical, brightness."""
        row_axis, col_axis, channel_axis = self.row_axis - 1, self.col_axis - 1, self.channel_axis - 1
        p = transform_parameters
        x = apply_affine_transform(x, p.get("theta", 0), p.get("tx", 0), p.get("ty", 0), p.get("shear", 0),
                                   p.get("zx", 1), p.get("zy", 1), row_axis=row_axis, col_axis=col_axis,
                                   channel_axis=channel_axis, fill_mode=self.fill_mode, cval=self.cval,
                                   order=self.interpolation_order)
        if p.get("channel_shift_intensity") is not None:
            x = apply_channel_shift(x, p["channel_shift_intensity"], channel_axis)
        if p.get("flip_horizontal", False):
            x = np.flip(x, col_axis)
        if p.get("flip_vertical", False):
            x = np.flip(x, row_axis)
        if p.get("brightness") is not None:
            x = apply_brightness_shift(x, p["brightness"], False)
        return x

    def random_transform(self, x, seed=None):
        """`x` (rank 3) with a random transform applied."""
        return self.apply_transform(x, self.get_random_transform(x.shape, seed))

    def fit(self, x, augment=False, rounds=1, seed=None):
        """Learns the feature-wise mean, std and ZCA matrix the options ask for from sample images `x`
        (rank 4), after `rescale` and, with `augment`, over `rounds` augmented copies."""
        x = np.asarray(x, dtype=self.dtype)
        if x.ndim != 4:
            raise ValueError(f"Input to `.fit()` should have rank 4. Got array with shape: {x.shape}")
        if x.shape[self.channel_axis] not in (1, 3, 4):
            warnings.warn(f'Expected input to be images (as Numpy array) following the data format convention '
                          f'"{self.data_format}" (channels on axis {self.channel_axis}), i.e. expected either 1, 3 '
                          f"or 4 channels on axis {self.channel_axis}. However, it was passed an array with shape "
                          f"{x.shape} ({x.shape[self.channel_axis]} channels).")
        if seed is not None:
            np.random.seed(seed)
        x = np.copy(x)
        if self.rescale:
            x *= self.rescale
        if augment:
            augmented = np.zeros((rounds * x.shape[0],) + x.shape[1:], dtype=self.dtype)
            for r in range(rounds):
                for i in range(x.shape[0]):
                    augmented[i + r * x.shape[0]] = self.random_transform(x[i])
            x = augmented
        per_channel = [1, 1, 1]
        per_channel[self.channel_axis - 1] = x.shape[self.channel_axis]
        if self.featurewise_center:
            self.mean = np.reshape(np.mean(x, axis=(0, self.row_axis, self.col_axis)), per_channel)
            x -= self.mean
        if self.featurewise_std_normalization:
            self.std = np.reshape(np.std(x, axis=(0, self.row_axis, self.col_axis)), per_channel)
            x /= self.std + 1e-6
        if self.zca_whitening:
            n = len(x)
            u, s, _ = np.linalg.svd(np.reshape(x, (n, -1)).T, full_matrices=False)
            self.zca_whitening_matrix = (u * (np.sqrt(n) / (s + self.zca_epsilon))) @ u.T
