"""What fit/evaluate/predict iterate over: arrays cut into batches, or a tf.data Dataset.

Arrays: floating arrays are converted to float32 once (as Keras' array adapter does), each epoch
is optionally shuffled with one permutation, and batches are contiguous slices, handed to the step
as tensors over those slices. (An ndarray passed to a tf.function is copied, since its owner may
change it after the call; these slices are fit's own, read by the step while fit runs and kept by
nothing after it, so they go uncopied: at batch 256 the copies were 8% of an epoch.) A Dataset's
elements are `x`, `(x, y)` or `(x, y, sample_weight)`, already batched.
"""
from __future__ import annotations

import numpy as np

from ..._src.core import nest
from ..._src.core.dtypes import from_numpy
from ..._src.core.tensor import Tensor, make_eager
from ..._src.state.variables import Variable
from ..utils.py_dataset import PyDatasetBatches, is_py_dataset


def _as_array(value):
    if isinstance(value, (Tensor, Variable)):
        value = value.numpy()
    value = np.asarray(value)
    if value.dtype.kind == "f" and value.dtype != np.float32:
        value = value.astype(np.float32)
    return value


def _input_specs(model):
    """The model's input KerasTensors when they are known before it runs (functional, Sequential with
    an Input), else None."""
    try:
        inputs = model.inputs
    except (AttributeError, ValueError):
        return None
    if not inputs or not all(hasattr(t, "shape") and hasattr(t, "dtype") for t in inputs):
        return None
    return list(inputs)


def _conform(value, spec):
    """One input array made to fit its Input as Keras 3's functional call makes it: a NumPy bool,
    integer or float array cast to the Input's dtype, and a rank one short of the Input's (whose last
    dimension is 1) given that dimension, or one too many (of size 1) squeezed."""
    if isinstance(value, (Tensor, Variable)):
        value = value.numpy()
    if not isinstance(value, np.ndarray):
        if not isinstance(value, (list, tuple, int, float, bool, np.generic)):
            return value
        value = np.asarray(value)
    want = spec.dtype
    if value.dtype.kind in "biuf" and (want.is_floating or want.is_integer or want.is_bool) \
            and value.dtype != want.as_numpy_dtype:
        value = value.astype(want.as_numpy_dtype)
    rank = len(spec.shape)
    if value.ndim == rank - 1 and spec.shape[-1] == 1:
        value = value[..., None]
    elif value.ndim == rank + 1 and value.shape[-1] == 1:
        value = value[..., 0]
    return value


def conform_inputs(model, x):
    """`x` for fit/evaluate/predict with each array fitted to the model's Inputs (see `_conform`);
    datasets, dicts and anything whose layout does not match the Inputs one to one pass unchanged."""
    specs = _input_specs(model)
    if specs is None or x is None or isinstance(x, dict) or is_dataset(x) or is_py_dataset(x):
        return x
    if len(specs) == 1:
        if isinstance(x, (list, tuple)) and len(x) == 1 and not np.isscalar(x[0]) \
                and np.ndim(x[0]) == len(specs[0].shape):
            return type(x)([_conform(x[0], specs[0])])
        return _conform(x, specs[0])
    if isinstance(x, (list, tuple)) and len(x) == len(specs):
        return type(x)(_conform(v, spec) for v, spec in zip(x, specs))
    return x


def check_sample_weight_structure(y, sample_weight):
    """Keras 3: sample weights given per output must have the targets' structure."""
    if not isinstance(sample_weight, (list, tuple, dict)):
        return
    same = (isinstance(y, dict) and isinstance(sample_weight, dict) and set(y) == set(sample_weight)) or \
        (isinstance(y, (list, tuple)) and isinstance(sample_weight, (list, tuple)) and len(y) == len(sample_weight))
    if not same:
        raise ValueError("You should provide one `sample_weight` array per output in `y`. The two structures did "
                         f"not match:\n- y: {y}\n- sample_weight: {sample_weight}\n")


def _slice(array, where):
    """A batch: a tensor over `array[where]`, no copy (see the module docstring)."""
    return make_eager(array[where], from_numpy(array.dtype))


def is_dataset(x):
    from ..._src.data.dataset import Dataset
    return isinstance(x, Dataset)


def _sizes_message(arrays):
    parts = []
    for name, value in zip(("x", "y", "sample_weight"), arrays):
        if value is not None:
            sizes = ", ".join(str(a.shape[0]) for a in nest.flatten(value, expand_composites=True))
            parts.append(f"'{name}' sizes: {sizes}\n")
    return "".join(parts)


class ArrayBatches:
    class_weighted = False  # True when sample_weight was computed from fit's `class_weight`

    def __init__(self, x, y=None, sample_weight=None, batch_size=32, shuffle=False):
        self.x = nest.map_structure(_as_array, x, expand_composites=True)
        self.y = None if y is None else nest.map_structure(_as_array, y, expand_composites=True)
        check_sample_weight_structure(y, sample_weight)
        self.sample_weight = None if sample_weight is None else nest.map_structure(_as_array, sample_weight)
        counts = {a.shape[0] for part in (self.x, self.y, self.sample_weight) if part is not None
                  for a in nest.flatten(part, expand_composites=True)}
        if len(counts) != 1:
            raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the same number of "
                             "samples." + _sizes_message((self.x, self.y, self.sample_weight)))
        self.num_samples = counts.pop()
        self.batch_size = int(batch_size or 32)
        self.shuffle = shuffle

    @property
    def steps(self):
        return -(-self.num_samples // self.batch_size)

    def split(self, validation_split):
        """Keras' validation_split: the last fraction of the samples, taken before any shuffling."""
        if not 0 < validation_split < 1:
            raise ValueError(f"`validation_split` must be between 0 and 1 (exclusive). Received: {validation_split}")
        cut = int(self.num_samples * (1.0 - validation_split))

        def part(v, s):
            return None if v is None else nest.map_structure(lambda a: a[s], v, expand_composites=True)

        # Weights that came from `class_weight` are the training loss's: the validation part has none (Keras).
        val = ArrayBatches(part(self.x, slice(cut, None)), part(self.y, slice(cut, None)),
                           None if self.class_weighted else part(self.sample_weight, slice(cut, None)),
                           self.batch_size, False)
        train = ArrayBatches(part(self.x, slice(None, cut)), part(self.y, slice(None, cut)),
                             part(self.sample_weight, slice(None, cut)), self.batch_size, self.shuffle)
        train.class_weighted = self.class_weighted
        return train, val

    def __iter__(self):
        x, y, sw = self.x, self.y, self.sample_weight
        if self.shuffle:
            perm = np.random.permutation(self.num_samples)
            x = nest.map_structure(lambda a: a[perm], x, expand_composites=True)
            y = None if y is None else nest.map_structure(lambda a: a[perm], y, expand_composites=True)
            sw = None if sw is None else nest.map_structure(lambda a: a[perm], sw)
        bs = self.batch_size
        if isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and sw is None:  # the common case, kept lean
            x_dtype, y_dtype = from_numpy(x.dtype), from_numpy(y.dtype)
            for start in range(0, self.num_samples, bs):
                yield make_eager(x[start:start + bs], x_dtype), make_eager(y[start:start + bs], y_dtype)
            return
        for start in range(0, self.num_samples, bs):
            s = slice(start, start + bs)
            bx = nest.map_structure(lambda a: _slice(a, s), x, expand_composites=True)
            if y is None:
                yield (bx,)
            elif sw is None:
                yield bx, nest.map_structure(lambda a: _slice(a, s), y, expand_composites=True)
            else:
                yield (bx, nest.map_structure(lambda a: _slice(a, s), y, expand_composites=True),
                       nest.map_structure(lambda a: _slice(a, s), sw))


class DatasetBatches:
    def __init__(self, dataset):
        self.dataset = dataset
        try:
            n = int(dataset.cardinality())
        except Exception:  # noqa: BLE001 - a dataset whose length is unknown runs until it ends
            n = -2
        self.steps = n if n >= 0 else None

    def __iter__(self):
        for element in self.dataset:
            yield tuple(element) if isinstance(element, tuple) else (element,)


def class_weight_to_sample_weights(y, class_weight):
    """Keras' `class_weight`: each sample weighs its class's weight (1.0 for a class the dict does
    not name). The class is the label itself, or the argmax of a one-hot (or probability) row."""
    y = _as_array(y)
    if y.ndim > 2:
        raise ValueError("`class_weight` not supported for 3+ dimensional targets.")
    if y.ndim == 2:
        y = np.argmax(y, axis=-1) if y.shape[-1] != 1 else y[:, 0]
    classes = np.round(y).astype(np.int64)
    return np.array([float(class_weight.get(int(c), 1.0)) for c in classes], np.float32)


def check_class_weight(class_weight, y, sample_weight):
    """The target `class_weight` applies to: the single output's, as Keras requires."""
    if not isinstance(class_weight, dict):
        raise ValueError(f"Expected `class_weight` to be a dict, received: {class_weight!r}")
    if sample_weight is not None:
        raise ValueError("You cannot `class_weight` and `sample_weight` at the same time.")
    if isinstance(y, (list, tuple)) and len(y) == 1:
        y = y[0]
    if isinstance(y, (dict, list, tuple)):
        raise ValueError("`class_weight` is only supported for Models with a single output.")
    return y


class ClassWeightedBatches:
    """A dataset's batches with sample weights from `class_weight` added (Keras maps the dataset
    the same way); a batch that has weights already is refused, as fit refuses both arguments."""

    def __init__(self, batches, class_weight):
        self.batches, self.class_weight, self.steps = batches, class_weight, batches.steps

    def __iter__(self):
        for data in self.batches:
            if len(data) != 2:
                raise ValueError("You cannot `class_weight` and `sample_weight` at the same time." if len(data) == 3
                                 else "`class_weight` needs targets: the dataset's elements must be (x, y).")
            x, y = data
            y = check_class_weight(self.class_weight, y, None)
            weights = class_weight_to_sample_weights(y, self.class_weight)
            yield x, y, make_eager(weights, from_numpy(weights.dtype))


def make_batches(x, y=None, sample_weight=None, batch_size=None, shuffle=False, class_weight=None):
    if class_weight is not None:
        if is_dataset(x) or is_py_dataset(x):
            return ClassWeightedBatches(make_batches(x, y, sample_weight, batch_size, shuffle), class_weight)
        y = check_class_weight(class_weight, y, sample_weight)
        if y is None:
            raise ValueError("`class_weight` needs targets: pass `y`.")
        batches = ArrayBatches(x, y, class_weight_to_sample_weights(y, class_weight), batch_size, shuffle)
        batches.class_weighted = True
        return batches
    if is_dataset(x):
        if y is not None:
            raise ValueError("When providing `x` as a tf.data.Dataset, `y` should not be passed. Instead, the "
                             "targets should be included as part of the tf.data.Dataset.")
        return DatasetBatches(x)
    if is_py_dataset(x):
        if y is not None:
            raise ValueError("When providing `x` as a PyDataset, `y` should not be passed. Instead, the targets "
                             "should be included as part of the PyDataset.")
        return PyDatasetBatches(x, shuffle)
    if x is None:
        raise ValueError("Unrecognized data type: x=None")
    return ArrayBatches(x, y, sample_weight, batch_size, shuffle)
