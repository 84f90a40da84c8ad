"""FILE auto-sharding: a copy of a dataset pipeline whose file source reads only this worker's files.

The pipeline is followed through the datasets each stage holds as attributes down to a file source
(TFRecordDataset, TextLineDataset, FixedLengthRecordDataset); the copy keeps every stage and gives
the source the files whose position is the worker's index modulo the number of workers (a dataset
of file names is sharded the same way). TensorFlow refuses FILE for a pipeline without files; so
does this, and AUTO falls back to DATA there, as TensorFlow's does.
"""
from __future__ import annotations

import copy

from ..core.errors import NotFoundError
from ..data.dataset import Dataset
from ..data.file_sources import FileRecordsDataset
from ..data.options import AutoShardPolicy


def _with_files_sharded(dataset, num_workers, index, seen):
    if id(dataset) in seen:
        return None
    seen.add(id(dataset))
    if isinstance(dataset, FileRecordsDataset):
        clone = copy.copy(dataset)
        files = dataset._filenames
        clone._filenames = files.shard(num_workers, index) if isinstance(files, Dataset) \
            else list(files)[index::num_workers]
        return clone
    for name, value in vars(dataset).items():
        if isinstance(value, Dataset):
            inner = _with_files_sharded(value, num_workers, index, seen)
            if inner is not None:
                clone = copy.copy(dataset)
                setattr(clone, name, inner)
                return clone
    return None


def worker_dataset(dataset, policy, num_workers, index):
    """The dataset this worker reads under `policy`: its own copy with its files for FILE (and AUTO
    when the pipeline reads files from several workers), else `dataset` itself."""
    if policy not in (AutoShardPolicy.FILE, AutoShardPolicy.AUTO) or num_workers == 1:
        return dataset
    sharded = _with_files_sharded(dataset, num_workers, index, set())
    if sharded is None and policy is AutoShardPolicy.FILE:
        raise NotFoundError(None, None, "Found an unshardable source dataset: the pipeline reads no files, so "
                            "AutoShardPolicy.FILE cannot give each worker its own files; use "
                            "AutoShardPolicy.DATA (or AUTO).")
    return dataset if sharded is None else sharded
