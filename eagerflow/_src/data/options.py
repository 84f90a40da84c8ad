"""`tf.data.Options` and its nested option groups: accepted, type-checked and kept, as TensorFlow's are.

Nothing here is optimized by a graph rewriter, so no option changes what a dataset yields; they are
kept so that code written for TensorFlow (`options.threading.private_threadpool_size = 8`,
`options.experimental_distribute.auto_shard_policy = AutoShardPolicy.DATA`) runs unchanged and reads
back what it set. Every field takes the type TensorFlow's does (TypeError otherwise, with TensorFlow's
words); an unset field reads None (or its documented default), and `merge` overlays the fields
another Options set on the ones this one set.
"""
from __future__ import annotations

import enum


class AutoShardPolicy(enum.IntEnum):
    """How a distributed input pipeline splits its data among workers (kept, not acted on)."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """What checkpointing does with a dataset that holds external state (kept, not acted on)."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneAlgorithm(enum.Enum):
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


_UNSET = object()


class _OptionGroup:
    """Fields declared in `_FIELDS` as name -> (type, default, nested group class or None). Setting a
    field checks its type; setting any other name is TensorFlow's AttributeError."""

    _FIELDS: dict = {}

    def __init__(self):
        object.__setattr__(self, "_values", {})
        for name, (_, _, group) in self._FIELDS.items():
            if group is not None:
                self._values[name] = group()

    def __getattr__(self, name):
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        return self._values.get(name, fields[name][1])

    def __setattr__(self, name, value):
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = fields[name][0]
        if value is not None and not isinstance(value, kind):
            raise TypeError(f'Property "{name}" must be of type {_shown(kind)}, got: {value} '
                            f"(type: {type(value)}).")
        self._values[name] = value

    def _is_set(self, name):
        value = self._values.get(name, _UNSET)
        if isinstance(value, _OptionGroup):
            return any(value._is_set(n) for n in type(value)._FIELDS)
        return value is not _UNSET and value is not None

    def merge(self, other):
        """A new group: this one's set fields, overlaid with `other`'s."""
        merged = type(self)()
        for source in (self, other):
            for name, (_, _, group) in type(self)._FIELDS.items():
                if group is not None:
                    merged._values[name] = merged._values[name].merge(source._values[name])
                elif source._is_set(name):
                    merged._values[name] = source._values[name]
        return merged

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n in type(self)._FIELDS)

    __hash__ = None

    def __repr__(self):
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in type(self)._FIELDS if self._is_set(n))
        return f"{type(self).__name__}({shown})"


def _shown(kind):
    if isinstance(kind, tuple):
        kind = kind[0]
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return f"<enum '{kind.__name__}'>"
    return f"<class '{kind.__module__}.{kind.__qualname__}'>" if kind.__module__ != "builtins" else \
        f"<class '{kind.__name__}'>"


def _bools(*names):
    return {n: (bool, None, None) for n in names}


class ThreadingOptions(_OptionGroup):
    _FIELDS = {"max_intra_op_parallelism": (int, None, None), "private_threadpool_size": (int, None, None)}


class OptimizationOptions(_OptionGroup):
    _FIELDS = _bools("apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
                     "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization",
                     "noop_elimination", "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")


class DistributeOptions(_OptionGroup):
    _FIELDS = {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO, None), "num_devices": (int, None, None)}


class AutotuneOptions(_OptionGroup):
    _FIELDS = {"autotune_algorithm": (AutotuneAlgorithm, None, None), "cpu_budget": (int, None, None),
               "enabled": (bool, None, None), "initial_parallelism": (int, None, None),
               "min_parallelism": (int, None, None), "ram_budget": (int, None, None)}


class ServiceOptions(_OptionGroup):
    _FIELDS = {"pinned": (bool, None, None)}


class Options(_OptionGroup):
    """`tf.data.Options`: TensorFlow's fields; `experimental_threading` is the same group as `threading`."""
    _FIELDS = {"autotune": (AutotuneOptions, None, AutotuneOptions), "dataset_name": (str, None, None),
               "deterministic": (bool, None, None), "experimental_deterministic": (bool, None, None),
               "experimental_distribute": (DistributeOptions, None, DistributeOptions),
               "experimental_external_state_policy": (ExternalStatePolicy, None, None),
               "experimental_optimization": (OptimizationOptions, None, OptimizationOptions),
               "experimental_service": (ServiceOptions, None, ServiceOptions),
               "experimental_slack": (bool, None, None), "experimental_symbolic_checkpoint": (bool, None, None),
               "experimental_threading": (ThreadingOptions, None, ThreadingOptions),
               "experimental_warm_start": (bool, None, None), "framework_type": (list, None, None),
               "threading": (ThreadingOptions, None, ThreadingOptions)}

    def __init__(self):
        super().__init__()
        self._values["experimental_threading"] = self._values["threading"]

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if name in ("threading", "experimental_threading"):  # one group under two names
            self._values["threading"] = self._values["experimental_threading"] = value

    def merge(self, options):
        merged = super().merge(options)
        merged._values["experimental_threading"] = merged._values["threading"]
        return merged


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
