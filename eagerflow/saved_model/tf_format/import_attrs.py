"""Attributes TensorFlow writes on a node that eagerflow's kernel for the op does not take.

TensorFlow's ops carry attributes for devices and for its own bookkeeping (`use_cudnn_on_gpu`,
`grad_a`, a While's `parallel_iterations`, ...); an exported model holds them whatever it computes.
Dropping one is right only when the value written cannot change what the op computes on a CPU, so
each name here comes with the test for such values; any other value, or an attribute not listed, is
refused, naming the op type, the node and the attribute, rather than computing something else."""
from __future__ import annotations

import inspect

from .tf_values import BadValue


def _any(value):
    return True


# attribute name -> whether this value leaves the op's result unchanged on a CPU
HARMLESS = {
    "use_cudnn_on_gpu": _any, "grad_a": _any, "grad_b": _any, "grad_x": _any, "grad_y": _any,
    "validate_shape": _any, "use_locking": _any, "output_shapes": _any, "parallel_iterations": _any,
    "config": _any, "config_proto": _any, "executor_type": _any, "sparse_gradient": _any,
    "Truncate": lambda v: v is False,
    "incompatible_shape_error": lambda v: v is True,
    "bad_indices_policy": lambda v: v in ("", "DEFAULT", "ERROR"),
    "data_format": lambda v: v in ("NHWC", "NWC", "NDHWC"),
    "explicit_paddings": lambda v: not any(v),
    "dilations": lambda v: all(d == 1 for d in v),
}


def kernel_parameters(opdef):
    """(names of the attributes the kernel takes, whether it takes any other as keywords)."""
    try:
        params = inspect.signature(opdef.kernel).parameters.values()
    except (TypeError, ValueError):  # a NumPy ufunc: no attributes at all
        return frozenset(), False
    names = frozenset(p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD))
    return names, any(p.kind is p.VAR_KEYWORD for p in params)


def kept_attributes(opdef, op_type, node_name, attrs):
    """`attrs` less the ones the kernel does not take and whose values are harmless; BadValue for one
    that would change the result."""
    names, takes_any = kernel_parameters(opdef)
    if takes_any:
        return attrs
    kept = {}
    for key, value in attrs.items():
        if key in names:
            kept[key] = value
            continue
        harmless = HARMLESS.get(key)
        if harmless is None or not harmless(value):
            raise BadValue(f"{op_type} node {node_name!r} has attribute {key!r} = {_show(value)}, which changes "
                           f"what the op computes; eagerflow's {op_type} does not implement it")
    return kept


def with_defaults(op_type, node, attrs, types):
    """`attrs` with the attributes TensorFlow left out of the node (at their defaults) that eagerflow's
    kernel names as parameters filled in with TensorFlow's default values."""
    from .tf_attr_defaults import DEFAULTS
    defaults = DEFAULTS.get(op_type)
    if not defaults:
        return attrs
    from ..._src.formats.protos import attr_value_pb2
    from ..._src.ops.registry import OPS
    from .tf_values import attr_of
    names, _ = kernel_parameters(OPS[op_type])
    filled = dict(attrs)
    for key, raw in defaults.items():
        if key not in node.attr and key in names and key in types:
            filled[key] = attr_of(attr_value_pb2.AttrValue.FromString(raw), types[key])
    return filled


def _show(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
