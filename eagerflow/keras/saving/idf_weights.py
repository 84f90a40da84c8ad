"""A tf-idf lookup layer's idf weights, where Keras 3 files them: a dataset `idf_weights` beside the
layer's (empty) numbered values in its `vars` group, the OOV slots first, as the layer applies them
(a tf-idf TextVectorization files them twice: in its own group and its lookup layer's).

eagerflow's lookup layers take their vocabulary and idf weights together (`_load_asset_files`, which
reads vocabulary.txt and idf_weights.txt, the latter without the OOV slots). So reading turns the
dataset into that idf_weights.txt: given to the layer with its current vocabulary when it has one
(load_weights), or added to the archive's assets before the vocabularies are restored (load_model).
"""
from __future__ import annotations

import numpy as np

IDF = "idf_weights"


def _lookup(owner):
    """The IndexLookup holding `owner`'s idf weights (TextVectorization's own lookup layer), or None."""
    from ..layers.preprocessing.index_lookup import IndexLookup
    from ..layers.preprocessing.text_vectorization import TextVectorization
    if isinstance(owner, TextVectorization):
        owner = owner._lookup_layer
    return owner if isinstance(owner, IndexLookup) else None


def _is_tf_idf_lookup(owner):
    lookup = _lookup(owner)
    return lookup is not None and lookup.output_mode == "tf_idf"


def idf_value(owner):
    """The array Keras stores for `owner`, or None (not a tf-idf lookup, or not adapted)."""
    if not _is_tf_idf_lookup(owner) or _lookup(owner).idf_weights is None:
        return None
    return np.asarray(_lookup(owner).idf_weights.numpy(), np.float32)


def extra_names(owner):
    """The dataset names besides 0, 1, ... that `owner`'s group may hold."""
    return (IDF,) if _is_tf_idf_lookup(owner) else ()


def read_idf(group, owner, path, limit_bytes, fail):
    """The layer's idf weights from its group as idf_weights.txt bytes, or None where there are none."""
    import h5py
    if not _is_tf_idf_lookup(owner) or not isinstance(group.get(IDF, getlink=True), h5py.HardLink):
        return None
    dataset = group[IDF]
    from .h5_weights import stored_in_file
    if not stored_in_file(h5py, dataset) or dataset.ndim != 1 or dataset.dtype.kind != "f" \
            or dataset.size * dataset.dtype.itemsize > limit_bytes:
        raise fail(f"{path}/{IDF} is not the layer's idf weights (a stored 1-D float array): "
                   f"shape {dataset.shape}, dtype {dataset.dtype}.")
    weights = np.empty(dataset.shape, dataset.dtype)
    if weights.size:
        dataset.read_direct(weights)
    return "\n".join(repr(float(w)) for w in weights[_lookup(owner).num_oov_indices:]).encode("utf-8")


def give_idf(owner, idf_text):
    """Hands an adapted layer new idf weights with its current vocabulary; False when it has none yet."""
    files = owner._asset_files()
    if "vocabulary.txt" not in files:
        return False
    files["idf_weights.txt"] = idf_text
    owner._load_asset_files(files)
    return True
