"""Binding a ConcreteFunction call to the arguments it was traced with (TensorFlow 2.21's rules).

A ConcreteFunction is one trace: its Python arguments were frozen into the graph. Calling it with
other Python values would silently return the traced result, so a call is checked, as TensorFlow
checks it, in two steps:

1. The structured signature: every parameter of the traced call, Python defaults applied, each
   *required* (no defaults here), `*args` spread into positional-only `args_0, args_1, ...`, and
   `**kwargs` into keyword-only parameters. A tensor parameter takes a tensor (or a value converted
   to one) compatible with its TensorSpec; a Python value must compare equal (`==`) to the traced
   one, so `2`, `2.0` and a scalar tensor holding 2 match `Literal[2]` but `True` and `3` do not;
   lists, tuples, namedtuples and dicts must match in type, length and keys.
2. If that fails, the flat signature: the tensor parameters alone, by position or name
   (`f(x)` for `f(x, n)` traced with `n=2`). This is how TensorFlow lets every Python argument
   be omitted at once; omitting only some of them is an error.

If both fail: `TypeError("Binding inputs to tf.function failed due to `<why>`. Received args: ...
for signature: (x: TensorSpec(...), n: Literal[2]) -> <outputs>.\\nFallback to flat signature also
failed due to: <why>.")`.

Why a separate binder object: it is built once per trace, and the common call (all positional,
one per parameter) goes straight to the per-parameter check without `inspect` (hot path).
"""
from __future__ import annotations

import inspect
import weakref

import numpy as np

from ..core import dtypes as _dt
from ..core.convert import convert_to_tensor
from ..core.tensor import DeviceTensor, EagerTensor, Tensor, TensorSpec

_P = inspect.Parameter
_LITERALS = (bool, int, float, complex, str, bytes, type(None))


class BindError(Exception):
    """Why arguments do not bind; its text is quoted in the TypeError."""


class _WeakValue:
    """A traced Python object held weakly, so a trace does not keep the user's object alive."""

    __slots__ = ("ref", "type_name")

    def __init__(self, ref, type_name):
        self.ref, self.type_name = ref, type_name

    def __repr__(self):
        obj = self.ref()
        return f"{self.type_name}[{obj!r}]" if obj is not None else f"{self.type_name}[<dead>]"


def _is_variable(value):
    return hasattr(type(value), "_as_tensor") and hasattr(value, "handle")


def _is_variable_spec(template):
    return (not isinstance(template, TensorSpec) and not _is_variable(template)
            and hasattr(template, "trainable") and hasattr(template, "dtype"))


# TensorFlow's DataType names where they differ from the dtype's (its run-time messages use them).
_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


class _DtypeMismatch(BindError):
    """The flat signature fits but a tensor has another dtype: TensorFlow fails when the function
    runs, with InvalidArgumentError."""


def _freeze(value):
    """The template kept for one traced argument: specs and structures as they are, literals by
    value, other objects weakly when they allow it. A stand-in with `bind_value` (a dataset or
    iterator argument, trace/placeholders.py) checks and feeds the call's value itself."""
    if hasattr(value, "bind_value"):
        return value
    if isinstance(value, (TensorSpec, Tensor, dict, list, tuple) + _LITERALS) or _is_variable_spec(value):
        if isinstance(value, dict):
            return {k: _freeze(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            parts = [_freeze(v) for v in value]
            return type(value)(*parts) if hasattr(type(value), "_fields") else type(value)(parts)
        return value
    try:
        return _WeakValue(weakref.ref(value), type(value).__name__)
    except TypeError:
        return value


def type_text(template) -> str:
    """A template as TensorFlow prints a trace type: `Literal[2]`, `Dict[['k', Literal[2]]]`."""
    if isinstance(template, TensorSpec) or _is_variable_spec(template) or isinstance(template, _WeakValue) \
            or hasattr(template, "bind_value"):
        return repr(template)
    if isinstance(template, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(template[k])}]" for k in template) + "]"
    if isinstance(template, tuple) and hasattr(type(template), "_fields"):
        return (f"{type(template).__name__}["
                + ", ".join(f"[{f!r}, {type_text(v)}]" for f, v in zip(template._fields, template)) + "]")
    if isinstance(template, (list, tuple)):
        kind = "List" if isinstance(template, list) else "Tuple"
        return f"{kind}[" + ", ".join(type_text(v) for v in template) + "]"
    if isinstance(template, Tensor):
        return repr(TensorSpec(template.shape, template.dtype))
    return f"Literal[{template!r}]"


def _equal(value, template) -> bool:
    """TensorFlow's literal test: `value == traced`, as a truth value (a scalar tensor holding the
    same number counts; anything that cannot answer does not)."""
    try:
        return bool(value == template)
    except Exception:
        return False


def _as_tensor_for(value, spec):
    if isinstance(value, Tensor):
        return value
    try:
        return convert_to_tensor(value, dtype=spec.dtype)
    except Exception:
        name = _TF_TYPE_NAMES.get(spec.dtype.name, spec.dtype.name)
        raise BindError(f"Cannot convert {value!r} to EagerTensor of dtype {name}") from None


def _is_subtype(spec, template) -> bool:
    """A TensorSpec given where `template` is expected (get_concrete_function under an
    input_signature): same dtype and name, each dimension equal or left open by the template."""
    if spec.dtype is not template.dtype or spec.name != template.name:
        return False
    if template.shape.rank is None:
        return True
    if spec.shape.rank != template.shape.rank:
        return False
    return all(t is None or s == t for s, t in zip(spec.shape.as_list(), template.shape.as_list()))


def match(value, template, flat):
    """Checks one argument against its template; appends the tensors it feeds to `flat`."""
    if isinstance(template, TensorSpec) and template.dtype is _dt.resource:  # a handle parameter
        handle = value.handle if _is_variable(value) else value
        if not (isinstance(handle, Tensor) and handle.dtype is _dt.resource):
            raise BindError(f"Can not cast {value!r} to {template!r}")
        flat.append(handle)
    elif isinstance(template, TensorSpec) and isinstance(value, TensorSpec):
        if not _is_subtype(value, template):
            raise BindError(f"Can not cast {value!r} to {template!r}")
    elif isinstance(template, TensorSpec):
        t = _as_tensor_for(value, template)
        if t.dtype is not template.dtype or not template.shape.is_compatible_with(t.shape):
            # the value as TensorFlow shows it: a spec under the template's name
            raise BindError(f"Can not cast {TensorSpec(t.shape, t.dtype, name=template.name)!r} to {template!r}")
        flat.append(t)
    elif hasattr(template, "bind_value"):  # a dataset, iterator or composite argument's stand-in
        fits = template.bind_value(value, flat)  # True, False or why not
        if fits is not True:
            raise BindError(fits if isinstance(fits, str) else f"Can not cast {value!r} to {template!r}")
    elif _is_variable_spec(template):
        if not _is_variable(value) or value.dtype is not template.dtype \
                or not template.shape.is_compatible_with(value.shape):
            raise BindError(f"Can not cast {value!r} to {template!r}")
        flat.append(value.handle)
    elif isinstance(template, dict):
        if not isinstance(value, dict):
            raise BindError(f"Can not cast {value!r} to a Dict type.")
        if set(value) != set(template):
            raise BindError(f"{value!r} has different keys with the TraceType {type_text(template)}.")
        for k in sorted(template, key=str):  # the order the trace made placeholders in
            match(value[k], template[k], flat)
    elif isinstance(template, (list, tuple)):
        if type(value) is not type(template):
            if hasattr(type(template), "_fields"):
                raise BindError(f"Cannot cast {value!r} to type {type(template)!r}.")
            raise BindError(f"Can not cast {value!r} to {type(template).__name__} type.")
        if len(value) != len(template):
            raise BindError(f"Expected {value!r} to have length of {len(template)}")
        for v, t in zip(value, template):
            match(v, t, flat)
    elif isinstance(template, _WeakValue):  # a Variable frozen in the trace matches itself only
        obj = template.ref()
        if obj is None or not (value is obj or (not _is_variable(obj) and _equal(value, obj))):
            raise BindError(f"Can not cast {value!r} to {template!r}")
    elif isinstance(template, Tensor):  # a tensor given to get_concrete_function: frozen in the graph
        if not (value is template or (isinstance(value, Tensor) and np.array_equal(
                np.asarray(getattr(value, "_value", None)), np.asarray(getattr(template, "_value", None))))):
            raise BindError(f"Can not cast {value!r} to {type_text(template)}")
    elif not _equal(value, template):
        raise BindError(f"Can not cast {value!r} to Literal[{template!r}]")


def _checker(template):
    """`match` specialised to one template: an eager tensor for a fully known TensorSpec is checked
    by dtype and shape tuple, without the general walk (the ConcreteFunction call hot path)."""
    if isinstance(template, TensorSpec) and template.dtype is not _dt.resource and template.shape.is_fully_defined():
        dtype, dims = template.dtype, tuple(template.shape.as_list())

        def check(value, flat):
            if (type(value) is EagerTensor or type(value) is DeviceTensor) and value._dtype is dtype \
                    and value._value.shape == dims:
                flat.append(value)
            else:
                match(value, template, flat)
        return check
    return lambda value, flat: match(value, template, flat)


class CallBinder:
    """The argument check of one ConcreteFunction; `bind(args, kwargs)` returns the flat tensors
    the generated code takes, or raises TensorFlow's TypeError."""

    def __init__(self, name, param_specs, outputs_text, python_signature=None, traced_args=(), traced_kwargs=None,
                 flat_positional=None):
        """`param_specs`: [(name, TensorSpec)] of the graph's parameters (the flat signature);
        without the Python signature and traced arguments, the flat signature is the signature.
        `flat_positional`: how many of the flat parameters may come by position (None: all;
        TensorFlow's loaded signatures take one when they have one input, else none)."""
        self._name = name
        self._flat_positional = len(param_specs) if flat_positional is None else flat_positional
        self._param_specs = list(param_specs)
        self._flat_names = [n for n, _ in param_specs]
        self._outputs_text = outputs_text  # a callable: only an error needs the text
        if python_signature is None:
            python_signature = inspect.Signature([_P(n, _P.POSITIONAL_OR_KEYWORD) for n in self._flat_names])
            traced_args = [spec for _, spec in param_specs]
        bound = python_signature.bind(*traced_args, **(traced_kwargs or {}))
        bound.apply_defaults()
        params = []  # [(name, kind, template)] in call order
        for pname, value in bound.arguments.items():
            kind = python_signature.parameters[pname].kind
            if kind is _P.VAR_POSITIONAL:
                params.extend((f"{pname}_{i}", _P.POSITIONAL_ONLY, _freeze(v)) for i, v in enumerate(value))
            elif kind is _P.VAR_KEYWORD:
                params.extend((k, _P.KEYWORD_ONLY, _freeze(v)) for k, v in value.items())
            else:
                params.append((pname, kind, _freeze(value)))
        if any(kind is _P.POSITIONAL_ONLY for _, kind, _ in params):  # a spread *args: all before it too
            last = max(i for i, (_, kind, _) in enumerate(params) if kind is _P.POSITIONAL_ONLY)
            params = [(n, _P.POSITIONAL_ONLY if i <= last else k, t) for i, (n, k, t) in enumerate(params)]
        self._params = params
        self._checks = [_checker(t) for _, _, t in params]
        self._signature = inspect.Signature([_P(n, k) for n, k, _ in params])
        # A call passing exactly one positional value per parameter needs no `inspect` binding.
        self._n_positional = len(params) if all(k is not _P.KEYWORD_ONLY for _, k, _ in params) else -1

    @property
    def parameters(self):
        """[(name, kind name, trace type text)], for pretty_printed_signature."""
        return [(n, k.name, type_text(t)) for n, k, t in self._params]

    def structured_input_signature(self):
        """(args, kwargs) of the traced call as TensorFlow reports them: each TensorSpec named by
        its own name or else by its path (`x`, `a_x`, `a_y_0`), Python values as they were."""
        def named(template, path):
            if isinstance(template, TensorSpec):
                return TensorSpec(template.shape, template.dtype, template.name or path)
            if isinstance(template, dict):
                return {k: named(v, f"{path}_{k}") for k, v in template.items()}
            if isinstance(template, (list, tuple)):
                parts = [named(v, f"{path}_{i}") for i, v in enumerate(template)]
                return type(template)(*parts) if hasattr(type(template), "_fields") else type(template)(parts)
            if isinstance(template, _WeakValue):
                return template.ref()
            return template
        args, kwargs = [], {}
        for name, kind, template in self._params:
            if kind is _P.KEYWORD_ONLY:
                kwargs[name] = named(template, name)
            else:
                args.append(named(template, name))
        return tuple(args), kwargs

    def allow_defaults(self, names):
        """Lets calls leave out the parameters in `names`: their traced values (an
        input_signature left them to their Python defaults) are what they default to."""
        params = []
        for n, k, t in self._params:
            default = (t.ref() if isinstance(t, _WeakValue) else t) if n in names else _P.empty
            params.append(_P(n, k, default=default))
        self._signature = inspect.Signature(params)

    def bind_structured(self, args, kwargs):
        """The structured signature only (no flat fallback): the flat tensors, or BindError."""
        flat = []
        if not kwargs and len(args) == self._n_positional:
            for value, check in zip(args, self._checks):
                check(value, flat)
            return flat
        try:
            bound = self._signature.bind(*args, **kwargs)
        except TypeError as err:
            raise BindError(str(err)) from None
        bound.apply_defaults()
        for (_, _, template), value in zip(self._params, bound.arguments.values()):
            match(value, template, flat)
        return flat

    def bind(self, args, kwargs):
        flat = []
        try:
            if not kwargs and len(args) == self._n_positional:
                for value, check in zip(args, self._checks):
                    check(value, flat)
                return flat
            if not kwargs and len(args) == len(self._flat_names) < len(self._params):
                # Every Python argument left out: only the flat signature can fit (all parameters
                # are required in the structured one), so it is tried first; on failure the full
                # path below builds the exact message.
                try:
                    return self.bind_flat(args, kwargs)
                except BindError:
                    pass
            try:
                bound = self._signature.bind(*args, **kwargs)
            except TypeError as err:
                raise BindError(str(err)) from None
            for (_, _, template), value in zip(self._params, bound.arguments.values()):
                match(value, template, flat)
            return flat
        except BindError as structured:
            try:
                return self.bind_flat(args, kwargs)
            except _DtypeMismatch as mismatch:
                from ..core.errors import InvalidArgumentError
                raise InvalidArgumentError(None, None, str(mismatch)) from None
            except BindError as fallback:
                raise TypeError(
                    f"Binding inputs to tf.function failed due to `{structured}`. Received args: {args!r} and "
                    f"kwargs: {kwargs!r} for signature: {self.signature_text()}.\n"
                    f"Fallback to flat signature also failed due to: {fallback}") from None

    def bind_flat(self, args, kwargs):
        """The tensors-only signature (`f(x)`): positional or by name, each a tensor or variable."""
        names = self._flat_names
        summary = f"{self._name}({', '.join(names)})"
        if len(args) > self._flat_positional:
            raise BindError(f"{summary} takes {self._flat_positional} positional arguments, got {len(args)}.")
        args, kwargs = list(args), dict(kwargs)
        for name in names[len(args):]:
            if name not in kwargs:
                missing = sorted(set(names) - set(names[:len(args)]) - set(kwargs))
                raise BindError(f"{summary} missing required arguments: {', '.join(missing)}.")
            args.append(kwargs.pop(name))
        if kwargs:
            for key in kwargs:
                if key in names:
                    raise BindError(f"{summary} got two values for '{key}'.")
            raise BindError(f"{summary} got unexpected keyword arguments: {', '.join(sorted(kwargs))}.")
        flat = []
        for i, value in enumerate(args):
            if _is_variable(value):
                value = value.handle
            elif not isinstance(value, Tensor):
                raise BindError(f"{summary}: expected argument #{i}(zero-based) to be a Tensor; got "
                                f"{type(value).__name__} ({value}).")
            spec = self._param_specs[i][1]
            if value.dtype is not spec.dtype:
                expected, got = (_TF_TYPE_NAMES.get(d.name, d.name) for d in (spec.dtype, value.dtype))
                raise _DtypeMismatch(f"cannot compute {self._name} as input #{i}(zero-based) was expected to be "
                                     f"a {expected} tensor but is a {got} tensor")
            if spec.dtype is not _dt.resource and not spec.shape.is_compatible_with(value.shape):
                raise BindError(f"{summary}: expected argument #{i}(zero-based) to fit {spec!r}; got "
                                f"{TensorSpec(value.shape, value.dtype)!r}.")
            flat.append(value)
        return flat

    def signature_text(self) -> str:
        return f"{self.parameters_text()} -> {self._outputs_text()}"

    def parameters_text(self, defaults=()) -> str:
        """`(x: TensorSpec(...), n: Literal[2], /)`; parameters named in `defaults` (an
        input_signature left them to their Python defaults) end in ` = <captured_default_value>`."""
        parts, seen_keyword_only = [], False
        for i, (name, kind, template) in enumerate(self._params):
            if kind is _P.KEYWORD_ONLY and not seen_keyword_only:
                seen_keyword_only = True
                parts.append("*")
            parts.append(f"{name}: {type_text(template)}"
                         + (" = <captured_default_value>" if name in defaults else ""))
            if kind is _P.POSITIONAL_ONLY and (i + 1 == len(self._params)
                                               or self._params[i + 1][1] is not _P.POSITIONAL_ONLY):
                parts.append("/")
        return f"({', '.join(parts)})"
