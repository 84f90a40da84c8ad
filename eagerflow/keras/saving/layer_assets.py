"""The non-variable state of layers (an adapted vocabulary) as `assets/...` members of a `.keras` archive.

Why: a lookup layer adapted before saving has no vocabulary in its config (Keras keeps it out too), so
the rebuilt model would hold empty tables. A layer that has such state answers `_asset_files()` with
{file name: bytes} and takes them back in `_load_asset_files(files)`; its files live under
`assets/<layer name>/.../<file name>`, the path of layer names from the model down (names a config
keeps, unlike the automatic names of a layer's private sublayers, so an owner's sublayers are not
visited).
"""
from __future__ import annotations

ASSETS = "assets/"


def _owners(layer, prefix):
    for sub in getattr(layer, "_tracked_layers", ()):
        path = f"{prefix}{sub.name}/"
        if hasattr(sub, "_asset_files"):
            yield path, sub
        else:
            yield from _owners(sub, path)


def collect_assets(model):
    """{archive member name: bytes} of every asset-owning layer inside `model`."""
    members = {}
    for path, layer in _owners(model, ASSETS):
        for name, data in layer._asset_files().items():
            members[path + name] = data
    return members


def restore_assets(model, read_member, member_names):
    """Gives each asset-owning layer inside `model` its files; `read_member(name)` returns a member's bytes."""
    for path, layer in _owners(model, ASSETS):
        files = {name[len(path):]: read_member(name) for name in member_names
                 if name.startswith(path) and "/" not in name[len(path):]}
        if files:
            layer._load_asset_files(files)
