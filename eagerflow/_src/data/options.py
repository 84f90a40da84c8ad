"""`tf.data.Options`: accepted and kept, as TensorFlow's are; nothing here runs in parallel or is
optimized, so no option changes what a dataset yields."""
from __future__ import annotations

import types


class Options:
    """Settable attributes with TensorFlow's names; unset ones read None. `merge` overlays another
    Options' set attributes."""

    _NAMES = ("autotune", "dataset_name", "deterministic", "experimental_deterministic", "experimental_distribute",
              "experimental_external_state_policy", "experimental_optimization", "experimental_slack",
              "experimental_symbolic_checkpoint", "experimental_threading", "experimental_warm_start",
              "framework_type", "threading")
    _NESTED = ("autotune", "experimental_distribute", "experimental_optimization", "threading")

    def __init__(self):
        for name in self._NAMES:
            object.__setattr__(self, name, types.SimpleNamespace() if name in self._NESTED else None)

    def __setattr__(self, name, value):
        if name not in self._NAMES:
            raise AttributeError(f"Cannot set the property {name} on Options.")
        object.__setattr__(self, name, value)

    def merge(self, options):
        merged = Options()
        for source in (self, options):
            for name in self._NAMES:
                value = getattr(source, name)
                if isinstance(value, types.SimpleNamespace):
                    getattr(merged, name).__dict__.update(value.__dict__)
                elif value is not None:
                    object.__setattr__(merged, name, value)
        return merged

    def __eq__(self, other):
        return isinstance(other, Options) and all(getattr(self, n) == getattr(other, n) for n in self._NAMES)

    __hash__ = None


def with_options(dataset, options):
    if not isinstance(options, Options):
        raise TypeError(f"`options` must be a `tf.data.Options`, got {type(options).__name__}.")
    from .transforms import PassThroughDataset
    out = PassThroughDataset(dataset, dataset._name)
    out._options = options_of(dataset).merge(options)
    out._recipe = None  # its options are not constructor arguments: a tf.function keys it by identity
    return out


def options_of(dataset):
    """The options set on this dataset or upstream of it (the nearest `with_options` wins)."""
    seen = set()
    stack = [dataset]
    while stack:
        ds = stack.pop()
        if id(ds) in seen:
            continue
        seen.add(id(ds))
        own = ds.__dict__.get("_options")
        if own is not None:
            return own
        stack += [v for v in (ds.__dict__.get("_parent"),) if v is not None]
        stack += list(ds.__dict__.get("_inputs", ()))
    return Options()
