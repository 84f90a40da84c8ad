"""The non-variable state of layers (an adapted vocabulary) as `assets/...` members of a `.keras` archive.

Why: a lookup layer adapted before saving has no vocabulary in its config (Keras keeps it out too), so
the rebuilt model would hold empty tables. A layer that has such state answers `_asset_files()` with
{file name: bytes} and takes them back in `_load_asset_files(files)`. Its files live where Keras 3
puts them: `assets/<its place in the weights tree>/<file name>` (keras_layout.py: for example
`assets/layers/string_lookup/vocabulary.txt`, and TextVectorization's own lookup layer under
`.../text_vectorization/_lookup_layer/`), so Keras and eagerflow read each other's vocabularies.
eagerflow's earlier archives put them under the path of layer names (`assets/<layer name>/...`);
those are read when a layer finds nothing at Keras' place.
"""
from __future__ import annotations

from .keras_layout import model_entries

ASSETS = "assets/"


def _asset_owners(model):
    for entry in model_entries(model, with_optimizer=False):
        if hasattr(entry.owner, "_asset_files"):
            yield (ASSETS + entry.folder + "/" if entry.folder else ASSETS), entry.owner


def collect_assets(model):
    """{archive member name: bytes} of every asset-owning layer inside `model`."""
    members = {}
    for folder, layer in _asset_owners(model):
        for name, data in layer._asset_files().items():
            members[folder + name] = data
    return members


def _files_in(folder, member_names, read_member):
    return {name[len(folder):]: read_member(name) for name in member_names
            if name.startswith(folder) and "/" not in name[len(folder):]}


def _by_layer_names(layer, prefix):
    """eagerflow's earlier places: the path of layer names from the model down."""
    for sub in getattr(layer, "_tracked_layers", ()):
        path = f"{prefix}{sub.name}/"
        if hasattr(sub, "_asset_files"):
            yield path, sub
        else:
            yield from _by_layer_names(sub, path)


def restore_assets(model, read_member, member_names):
    """Gives each asset-owning layer inside `model` its files; `read_member(name)` returns a member's bytes."""
    served = set()
    for folder, layer in _asset_owners(model):
        files = _files_in(folder, member_names, read_member)
        if files:
            layer._load_asset_files(files)
            served.add(id(layer))
    for folder, layer in _by_layer_names(model, ASSETS):
        if id(layer) not in served:
            files = _files_in(folder, member_names, read_member)
            if files:
                layer._load_asset_files(files)
