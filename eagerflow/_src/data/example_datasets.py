"""Datasets of tf.train.Example records parsed into features: `tf.data.experimental.parse_example_dataset`
(a map of tf.io.parse_example over batches of serialized records) and `make_batched_features_dataset`
(files -> records -> shuffled, repeated, batched, parsed, and split into (features, label)). Its files are
read one after another (TensorFlow's default of one reader thread reads them so too)."""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core.tensor import TensorSpec


def parse_example_dataset(features, num_parallel_calls=1, deterministic=None):
    """The transformation for `Dataset.apply`: each element (a vector of serialized Examples) parsed."""
    from ..ops.io.parse_example import parse_example

    def apply(dataset):
        spec = dataset.element_spec
        if not (isinstance(spec, TensorSpec) and spec.dtype == _dt.string and spec.shape.rank == 1):
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead it is `{spec!r}`.")
        return dataset.map(lambda serialized: parse_example(serialized, features),
                           num_parallel_calls=None if num_parallel_calls in (None, 1) else num_parallel_calls)
    return apply


def make_batched_features_dataset(file_pattern, batch_size, features, reader=None, label_key=None, reader_args=None,
                                  num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                                  prefetch_buffer_size=None, reader_num_threads=None, parser_num_threads=None,
                                  sloppy_ordering=False, drop_final_batch=False):
    """Batches of parsed Examples from the files matching `file_pattern` (TFRecord by default): a dict of
    features, or (features, label) with `label_key`'s feature taken out."""
    from .dataset import AUTOTUNE, Dataset
    from .tfrecord import TFRecordDataset
    if label_key is not None and label_key not in features:
        raise ValueError(f"The `label_key` provided ({label_key!r}) must be one of the `features` keys.")
    reader = reader or TFRecordDataset
    # The file names are known now (a file reader's names must be, here): the files are read one after
    # another, in list_files' order (shuffled with the seed unless shuffle=False).
    names = [bytes(n.numpy()).decode() for n in Dataset.list_files(file_pattern, shuffle=shuffle, seed=shuffle_seed)]
    records = reader(names, *(reader_args or []))
    if shuffle:
        records = records.shuffle(shuffle_buffer_size, shuffle_seed)
    if num_epochs != 1:
        records = records.repeat(num_epochs)
    parsed = records.batch(batch_size, drop_remainder=drop_final_batch).apply(
        parse_example_dataset(features, parser_num_threads or 1))
    if label_key is not None:
        parsed = parsed.map(lambda found: ({k: v for k, v in found.items() if k != label_key}, found[label_key]))
    return parsed.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
