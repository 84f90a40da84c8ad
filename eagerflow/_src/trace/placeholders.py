"""Trace-time stand-ins for call arguments: what a traced Python function receives in place of
the call's tensors (Placeholders named after the parameters, symbolic Variables), rebuilt in the
argument's own structure from its trace key (signature.py), and the output structure's packing.
"""
from __future__ import annotations

import inspect
from collections.abc import Mapping

from ..core import dtypes as _dt
from ..core import nest
from ..core.shape import TensorShape
from ..core.tensor import TensorSpec
from . import signature as sig
from .datasets import DATASET
from .datasets import rebuild_argument as rebuild_dataset


def pack_with_nones(result, outputs):
    it = iter(outputs)
    if not nest.is_nested(result, expand_composites=True):
        return None if result is None else next(it)
    return nest.map_structure(lambda v: None if v is None else next(it), result, expand_composites=True)


class VariableSpec:
    """Where a Variable argument goes: tracing gives the function a stand-in reading the handle."""

    def __init__(self, shape, dtype, trainable, name):
        self.shape, self.dtype, self.trainable, self.name = shape, dtype, trainable, name

    def __repr__(self):
        return f"VariableSpec(shape={self.shape}, dtype={self.dtype!r}, trainable={self.trainable})"


def specs_for_call(args, kwargs, key):
    """(args, kwargs) of a call with each argument's trace-time stand-in (`specs_for`) under `key`,
    the (positional keys, keyword keys) a cache miss traces for."""
    arg_keys, kw_keys = key
    kw = dict(kw_keys)
    return (tuple(specs_for(a, k) for a, k in zip(args, arg_keys)),
            {k: specs_for(kwargs[k], kw[k]) for k in sorted(kwargs)})


def specs_for(value, key):
    """The trace-time stand-in for one argument: TensorSpecs where the key has tensors."""
    if type(key) is tuple and key and key[0] == sig.TENSOR:
        return TensorSpec(TensorShape(None if key[2] is None else list(key[2])), key[1])
    if type(key) is tuple and key and key[0] == sig.VARIABLE:
        return VariableSpec(TensorShape(list(key[2])), key[1], key[3], value.name)
    if type(key) is tuple and key and key[0] == sig.ALIAS:
        return _Alias(key[1])
    if type(key) is tuple and key and key[0] == DATASET:
        return _DatasetStandIn(value, key)
    if type(key) is tuple and key and key[0] == sig.ITERATOR:
        return IteratorSpec(type(value), value.element_spec)
    if type(key) is tuple and key and key[0] == sig.COMPOSITE:  # a SparseTensor: its spec, from the key
        return key[1]._from_key(*key[2:])
    if isinstance(value, (list, tuple)) and type(key) is tuple and len(key) == 2 and isinstance(key[1], tuple):
        parts = [specs_for(v, k) for v, k in zip(value, key[1])]
        if hasattr(type(value), "_fields"):
            return type(value)(*parts)
        return type(value)(parts)
    if isinstance(value, Mapping) and type(key) is tuple and len(key) == 2:
        sub = dict(key[1])
        parts = {k: specs_for(value[k], sub[k]) for k in sorted(value, key=str)}  # the key's order
        return _same_mapping(value, {k: parts[k] for k in value})
    return value


class _DatasetStandIn:
    """A dataset argument: rebuilt on placeholders when the trace starts (datasets.py). As the
    template of a ConcreteFunction's call check (call_binding.py) it accepts a dataset of the same
    pipeline and feeds that dataset's tensors."""

    def __init__(self, dataset, key):
        self.dataset, self.key, self.element_spec = dataset, key, dataset.element_spec

    def bind_value(self, value, flat):
        from .datasets import dataset_key
        tensors = []
        part = dataset_key(value, tensors) if "_recipe" in getattr(value, "__dict__", ()) else None
        if part is None or not sig.accepts(self.key, part):
            return False
        flat.extend(tensors)
        return True

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r})"


class IteratorSpec:
    """An iterator argument: the trace gets a stand-in iterator (`cls._symbolic`) over a resource
    placeholder, fed the call's iterator (data/iterator.py)."""

    def __init__(self, cls, element_spec):
        self.cls, self.element_spec = cls, element_spec

    def bind_value(self, value, flat):
        handle_of = getattr(type(value), "_argument_handle", None)
        handle = handle_of(value) if handle_of is not None else None
        if handle is None or sig.spec_part(value.element_spec) != sig.spec_part(self.element_spec):
            return False
        flat.append(handle)
        return True

    def __repr__(self):
        return f"IteratorSpec({self.element_spec!r})"


class _Alias:
    """A Variable argument that is the same Variable as tensor input `index` of the call."""

    def __init__(self, index):
        self.index = index


def _same_mapping(original, items):
    """`items` in the mapping type of `original` where it can be built from a dict (a dict otherwise)."""
    if type(original) is dict:
        return items
    try:
        return type(original)(items)
    except Exception:
        return items


def spec_key(structure):
    """A key for get_concrete_function(TensorSpec...), shaped like call keys."""
    args, kwargs = structure

    def part(v):
        if isinstance(v, TensorSpec):
            dims = None if v.shape.rank is None else tuple(v.shape.as_list())
            return (sig.TENSOR, v.dtype, dims)
        tensors = []
        return sig.key_of(v, tensors)
    return (tuple(part(a) for a in args), tuple((k, part(kwargs[k])) for k in sorted(kwargs)) if kwargs else ())


def placeholders(value, name, graph, param_specs, symbols):
    """Symbolic stand-ins for one argument: a Placeholder per TensorSpec (named after the parameter).
    `symbols` lists the stand-ins made so far, in input order, for aliased Variables."""
    if isinstance(value, TensorSpec):  # TensorSpec(name=...) names the placeholder, as in TensorFlow
        ph = graph.placeholder(value.dtype, value.shape, value.name or name)
        param_specs.append((ph.op.name, value))
        symbols.append(ph)
        return ph
    if isinstance(value, VariableSpec):
        from ..state.variables import Variable
        ph = graph.placeholder(_dt.resource, TensorShape([]), name, (value.shape, value.dtype))
        param_specs.append((ph.op.name, TensorSpec([], _dt.resource)))
        symbols.append(Variable._symbolic(ph, value.shape, value.dtype, value.trainable, value.name))
        return symbols[-1]
    if isinstance(value, _Alias):
        return symbols[value.index]
    if isinstance(value, _DatasetStandIn):
        def placeholder(spec):
            ph_name = name if not any(n == name for n, _ in param_specs) else f"{name}_{len(param_specs)}"
            ph = graph.placeholder(spec.dtype, spec.shape, ph_name)
            param_specs.append((ph_name, spec))
            symbols.append(ph)
            return ph
        rebuilt = rebuild_dataset(value.dataset, value.key, placeholder)
        value.dataset = None  # the trace keeps this stand-in (call_binding.py), never the user's data
        return rebuilt
    if hasattr(type(value), "_placeholders"):  # a composite's spec: a placeholder per component,
        def placeholder(spec):  # named after the parameter (`x`, `x_1`, `x_2`), as in TensorFlow
            ph = graph.placeholder(spec.dtype, spec.shape, name)
            param_specs.append((ph.op.name, spec))
            symbols.append(ph)
            return ph
        return value._placeholders(placeholder)
    if isinstance(value, IteratorSpec):
        ph = graph.placeholder(_dt.resource, TensorShape([]), name)
        param_specs.append((ph.op.name, TensorSpec([], _dt.resource)))
        symbols.append(ph)
        return value.cls._symbolic(ph, value.element_spec)
    if isinstance(value, (list, tuple)):
        # Every leaf is named after the parameter; the graph makes the names unique (`a`, `a_1`), as TensorFlow.
        parts = [placeholders(v, name, graph, param_specs, symbols) for v in value]
        return type(value)(*parts) if hasattr(type(value), "_fields") else type(value)(parts)
    if isinstance(value, Mapping):
        return _same_mapping(value, {k: placeholders(value[k], name, graph, param_specs, symbols)
                                     for k in sorted(value, key=str)})
    return value


def rebind(signature, arguments):
    args, kwargs = [], {}
    for pname, param in signature.parameters.items():
        if pname not in arguments:
            continue
        value = arguments[pname]
        if param.kind is inspect.Parameter.VAR_POSITIONAL:
            args.extend(value)
        elif param.kind is inspect.Parameter.VAR_KEYWORD:
            kwargs.update(value)
        elif param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[pname] = value
        else:
            args.append(value)
    return args, kwargs
