"""`input_signature`: its validation when tf.function is created, and binding calls to it.

TensorFlow 2.21's rules, restated:
- the signature is a list or tuple (else TypeError "input_signature must be either a tuple or a
  list, got <class ...>."), its leaves TensorSpecs, possibly nested in tuples, lists and dicts;
- it covers the positional parameters in order: one without a default left uncovered is "input_signature
  missing type constraint for y", specs beyond the parameters (and no *args) "input_signature contains
  N extra type constraints."; a keyword-only parameter must have a default;
- parameters it does not cover keep their Python defaults, frozen as literals in the trace: a call
  may pass the same value again, another value is "Can not cast 5.0 to Literal[3.0]";
- a call binds argument by argument (trace/call_binding.py `match`): Python and NumPy values are
  converted to the spec's dtype, tensors must have it, shapes must fit; a failure is TypeError
  "Binding inputs to tf.function failed due to `<why>`. Received args: ... for signature: (...).";
- `get_concrete_function(spec...)` binds the same way, a TensorSpec fitting only when it is a
  subtype of the signature's (same dtype and name, each dimension equal or left open by the signature).

Why a module of its own: trace/function.py is the calling logic; this is the one place that knows
what an input_signature means, used both at decoration time and per call.
"""
from __future__ import annotations

import inspect

from ..core import nest
from ..core.tensor import TensorSpec
from .call_binding import BindError, CallBinder, match

_P = inspect.Parameter


def _is_spec(leaf) -> bool:
    return isinstance(leaf, TensorSpec) or type(leaf).__name__.endswith("Spec")


def validate(input_signature, python_signature):
    """`input_signature` as a tuple, or TensorFlow's TypeError for one that cannot describe the
    parameters of `python_signature`."""
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(f"input_signature must be either a tuple or a list, got {type(input_signature)}.")
    invalid = [leaf for leaf in nest.flatten(list(input_signature), expand_composites=True) if not _is_spec(leaf)]
    if invalid:
        raise TypeError(f"input_signature must be a possibly nested sequence of TensorSpec objects, got invalid "
                        f"args {invalid!r} with types {[type(leaf) for leaf in invalid]!r}.")
    remaining = len(input_signature)
    for name, param in python_signature.parameters.items():
        if param.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD):
            if remaining:
                remaining -= 1
            elif param.default is _P.empty:
                raise TypeError(f"input_signature missing type constraint for {name}")
        elif param.kind is _P.VAR_POSITIONAL:
            remaining = 0
        elif param.kind is _P.KEYWORD_ONLY and param.default is _P.empty:
            raise TypeError(f"Since input_signature is defined, keyword-only parameter `{name}` must have a "
                            f"default value")
    if remaining:
        raise TypeError(f"input_signature contains {remaining} extra type constraints.")
    return tuple(input_signature)


def for_function(input_signature, python_signature, name, decorated_in_class):
    """(the validated input_signature, its SignatureBinder) for a new Function; (None, None) without
    one. A method decorated in its class (`decorated_in_class` and a first parameter `self`) has a
    signature describing the parameters after `self`: it is checked here and again, and bound, when
    `__get__` makes the instance's Function, so it gets no binder yet."""
    if input_signature is None:
        return None, None
    checked = python_signature
    if decorated_in_class and next(iter(checked.parameters), None) == "self":
        checked = checked.replace(parameters=list(checked.parameters.values())[1:])
    validated = validate(input_signature, checked)
    binder = SignatureBinder(name, python_signature, validated) if checked is python_signature else None
    return validated, binder


class SignatureBinder:
    """Binds calls (and get_concrete_function's arguments) to one input_signature; `bind` returns
    the flat tensors in the order of the signature's placeholders."""

    def __init__(self, name, python_signature, input_signature):
        self._binder = CallBinder(name, [], lambda: "", python_signature, input_signature, {})
        covered = python_signature.bind_partial(*input_signature).arguments
        self._defaults = {n for n, p in python_signature.parameters.items()
                          if n not in covered and p.kind not in (_P.VAR_POSITIONAL, _P.VAR_KEYWORD)}
        self._binder.allow_defaults(self._defaults)

    def bind(self, args, kwargs):
        try:
            return self._binder.bind_structured(args, kwargs)
        except BindError as err:
            culprit = self._culprit(args, kwargs)
            culprit = f" Parameter {culprit!r} does not fit its spec." if culprit else ""
            raise TypeError(
                f"Binding inputs to tf.function failed due to `{err}`.{culprit} Received args: {tuple(args)!r} and "
                f"kwargs: {kwargs!r} for signature: {self._binder.parameters_text(self._defaults)}.") from None

    def _culprit(self, args, kwargs):
        """The parameter whose value did not fit (our addition to TensorFlow's message), or None
        when the call does not even bind by position and name."""
        try:
            bound = self._binder._signature.bind(*args, **kwargs)
        except TypeError:
            return None
        bound.apply_defaults()
        for (name, _, template), value in zip(self._binder._params, bound.arguments.values()):
            try:
                match(value, template, [])
            except BindError:
                return name
        return None
