"""StructuredValue data (TensorFlow's struct.proto): how a SavedModel records a function's
argument structure, input signature and output structure, and a tf.function's FullArgSpec."""
from __future__ import annotations

import inspect

from ..._src.core.tensor import Tensor, TensorSpec
from ..._src.formats.graph_export.attr_values import ExportError, shape_proto
from ..._src.formats.dtypes import datatype_number as datatype
from ..restored_specs import named_parameter


def spec_value(spec, name=None):
    """A TensorSpec (or a symbolic tensor, by its shape and dtype) as a tensor_spec_value."""
    value = {"shape": shape_proto(spec.shape), "dtype": datatype(spec.dtype)}
    name = getattr(spec, "name", None) if name is None and isinstance(spec, TensorSpec) else name
    if name:
        value["name"] = name
    return {"tensor_spec_value": value}


def encode(value, where, tensor_name=None):
    """A Python structure of specs, tensors and literals; `tensor_name(path)` names tensors."""
    if isinstance(value, TensorSpec):
        return spec_value(value)
    if isinstance(value, Tensor):
        return spec_value(value, tensor_name)
    if value is None:
        return {"none_value": {}}
    if isinstance(value, bool):
        return {"bool_value": value}
    if isinstance(value, int):
        return {"int64_value": value}
    if isinstance(value, float):
        return {"float64_value": value}
    if isinstance(value, str):
        return {"string_value": value}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        fields = {k: encode(v, where, k if tensor_name is not None else None) for k, v in value.items()}
        if list(value) == sorted(value):
            return {"dict_value": {"fields": fields}}
        return {"dict_value": {"fields": fields, "eagerflow_key_order": list(value)}}
    if isinstance(value, tuple) and hasattr(type(value), "_fields"):
        return {"named_tuple_value": {"name": type(value).__name__, "values": [
            {"key": k, "value": encode(v, where)} for k, v in zip(value._fields, value)]}}
    if isinstance(value, tuple):
        return {"tuple_value": {"values": [encode(v, where) for v in value]}}
    if isinstance(value, list):
        return {"list_value": {"values": [encode(v, where) for v in value]}}
    raise ExportError(f"{where} holds {value!r}, which TensorFlow's SavedModel structure cannot record")


def canonical_inputs(traced_parameters, where):
    """((positional templates), {keyword-only templates}): the canonicalized input signature, each
    TensorSpec named as TensorFlow names a traced function's placeholders (its own name, else its
    parameter's path: `x`, `a_0`, `c_k`), which `saved_model_cli show --all` prints."""
    args, kwargs = [], {}
    for name, kind, template in traced_parameters:
        if kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[name] = named_parameter(template, name)
        else:
            args.append(named_parameter(template, name))
    return {"tuple_value": {"values": [encode(tuple(args), where), encode(kwargs, where)]}}


def fullargspec(signature):
    """A tf.function's Python signature as the FullArgSpec named tuple TensorFlow records."""
    args, kwonly, defaults, kwdefaults = [], [], [], {}
    varargs = varkw = None
    for p in (signature.parameters.values() if signature is not None else ()):
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            args.append(p.name)
            if p.default is not p.empty:
                defaults.append(p.default)
        elif p.kind is p.VAR_POSITIONAL:
            varargs = p.name
        elif p.kind is p.VAR_KEYWORD:
            varkw = p.name
        else:
            kwonly.append(p.name)
            if p.default is not p.empty:
                kwdefaults[p.name] = p.default
    fields = [("args", [encode(a, "") for a in args]), ("varargs", varargs), ("varkw", varkw),
              ("defaults", tuple(defaults) if defaults else None), ("kwonlyargs", kwonly),
              ("kwonlydefaults", kwdefaults or None), ("annotations", {})]
    values = []
    for key, value in fields:
        if key in ("args",):
            encoded = {"list_value": {"values": value}}
        else:
            encoded = _literal(value)
        values.append({"key": key, "value": encoded})
    return {"named_tuple_value": {"name": "FullArgSpec", "values": values}}


def _literal(value):
    try:
        return encode(value, "a default argument")
    except ExportError:
        return {"none_value": {}}  # an object default: a loaded function needs that argument passed
