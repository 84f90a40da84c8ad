"""`tf.custom_gradient` and `tf.recompute_grad`: a function whose gradient is the user's.

How it fits the one-op-definition design: the decorated function runs as usual, then its results
pass through one `IdentityN` op whose inputs are (results..., arguments..., variable handles...) and
whose outputs are the results. Its gradient rule calls the user's `grad_fn` and hands the gradients
to the arguments and variable handles; the results themselves get none, so nothing flows back
through the ops the function ran. The same op, with the same rule, serves tapes (eager and inside
a trace), `tf.gradients`, and the backward function of a `tf.function` called under a tape.

Traps, each as TensorFlow 2.21 does it:
- A tape that records the results but none of the arguments (a `grad_fn` decorated again, whose
  argument is an unwatched upstream gradient) sees an Identity instead, so gradients reach what the
  function closed over through its ordinary ops (TF: second derivative 2.0 in that case).
- `grad_fn` closes over tensors of the graph it was traced in. When the rule runs in another graph
  (the backward function of a `tf.function` called under a tape), the function is run again there
  on that graph's tensors to get a `grad_fn` over them: the forward ops are recomputed, as
  `tf.recompute_grad` does on purpose.
"""
from __future__ import annotations

import functools
import inspect
import weakref

from ..core import nest
from ..core.context import state
from ..core.convert import convert_to_tensor
from ..core.tensor import Tensor
from ..ops.registry import OpRecord, Spec, bind, defop


class _VariableWatcher:
    """Sits on the tape stack while the function runs and collects the trainable variables it
    reads (TensorFlow's VariableWatcher); records nothing."""

    recording = True
    watch_accessed_variables = True

    def __init__(self):
        self.variables = {}

    def should_record(self, inputs):
        return False

    def record(self, record):
        pass

    def _watch_variable(self, variable):
        self.variables.setdefault(id(variable), variable)


class _Call:
    """What the gradient rule needs from one call: the user's grad_fn, the variables it takes
    gradients for, and enough to run the function again in another graph."""

    __slots__ = ("fn", "args", "kwargs", "grad_fn", "variables", "n_results", "n_args", "_graph", "__weakref__")

    def __init__(self, fn, args, kwargs, grad_fn, variables, n_results, graph):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.grad_fn, self.variables = grad_fn, variables
        self.n_results, self.n_args = n_results, len(args)
        self._graph = None if graph is None else weakref.ref(graph)

    def traced_in(self, graph) -> bool:
        own = None if self._graph is None else self._graph()
        return own is graph

    def __repr__(self):
        return f"<custom gradient of {getattr(self.fn, '__name__', self.fn)}>"


def _accepts_variables(grad_fn) -> bool:
    try:
        params = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


def _run(fn, args, kwargs):
    """(results, grad_fn, variables read) of one run of the decorated function."""
    watcher = _VariableWatcher()
    state.tapes.append(watcher)
    try:
        result, grad_fn = fn(*args, **kwargs)
    finally:
        state.tapes.remove(watcher)
    # A variable passed as an argument is an input (its gradient is grad_fn's for that argument, as
    # in TensorFlow), not one of the `variables` grad_fn is asked about.
    passed = {id(a) for a in nest.flatten((args, kwargs)) if hasattr(type(a), "_as_tensor")}
    variables = [v for v in watcher.variables.values() if id(v) not in passed]
    if variables and not _accepts_variables(grad_fn):
        raise TypeError(f"@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                        f"uses variables: {variables}")
    return result, grad_fn, variables


def _call_with_custom_gradient(fn, args, kwargs):
    if kwargs and state.graph is not None:
        raise ValueError("The custom_gradient decorator currently supports keywords arguments only when eager "
                         "execution is enabled.")
    inputs = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in args]
    result, grad_fn, variables = _run(fn, args, kwargs)
    flat = [r if isinstance(r, Tensor) else convert_to_tensor(r) for r in nest.flatten(result, expand_composites=True)]
    call = _Call(fn, args, kwargs, grad_fn, variables, len(flat), state.graph)
    op_inputs = flat + inputs + [v.handle for v in variables]
    saved = state.tapes
    state.tapes = []  # the tapes get the records below, chosen per tape
    try:
        outputs = bind(IdentityN, op_inputs, {"_custom": call})
    finally:
        state.tapes = saved
    for tape in saved:
        if not tape.recording:
            continue
        if tape.should_record(op_inputs[len(flat):]):
            tape.record(OpRecord(IdentityN, tuple(op_inputs), {"_custom": call}, tuple(outputs)))
        elif tape.should_record(flat):  # only the results are watched: an Identity, as in TensorFlow
            tape.record(OpRecord(IdentityN, tuple(op_inputs), {"_custom": None}, tuple(outputs)))
    return nest.pack_sequence_as(result, outputs, expand_composites=True)


def _identity_n_kernel(*values, _custom):
    return tuple(values[:len(values) if _custom is None else _custom.n_results])


def _identity_n_infer(inputs, attrs):
    call = attrs["_custom"]
    n = len(inputs) if call is None else call.n_results
    return [Spec(t.shape, t.dtype) for t in inputs[:n]]


def _identity_n_grad(op, *out_grads):
    call = op.attrs["_custom"]
    n_results = len(op.outputs)
    if call is None:  # an Identity: gradients pass straight to the results
        return tuple(out_grads) + (None,) * (len(op.inputs) - n_results)
    from ..ops.array.basic import zeros_like
    upstream = [g if g is not None else zeros_like(o) for g, o in zip(out_grads, op.outputs)]
    grad_fn, variables = call.grad_fn, call.variables
    if not call.traced_in(state.graph):  # see the module docstring: run the function again here
        args = list(op.inputs[n_results:n_results + call.n_args])
        args = [a if isinstance(t, Tensor) else t for a, t in zip(args, call.args)]
        _, grad_fn, variables = _run(call.fn, args, call.kwargs)
    if variables:
        input_grads, variable_grads = grad_fn(*upstream, variables=variables)
        variable_grads = list(variable_grads)
        if len(variable_grads) != len(variables):
            raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
    else:
        input_grads, variable_grads = grad_fn(*upstream), []
    flat = nest.flatten(input_grads, expand_composites=True)
    if len(flat) != call.n_args:
        raise ValueError(f"custom_gradient function expected to return {call.n_args} gradients, but returned "
                         f"{len(flat)} instead.")
    grads = [None if g is None else (g if isinstance(g, Tensor) else convert_to_tensor(g, dtype_hint=x.dtype))
             for g, x in zip(flat + variable_grads, op.inputs[n_results:])]
    return (None,) * n_results + tuple(grads)


IdentityN = defop("IdentityN", inputs=(), kernel=_identity_n_kernel, infer=_identity_n_infer,
                  grad=_identity_n_grad, multi_output=True, sparse_output_grads=True,
                  doc="The results of a @tf.custom_gradient function; its gradient is the user's grad_fn.")


class _CustomGradient:
    """The decorated function (TensorFlow's `Bind`): callable, and bound like a method on classes."""

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self._fn = fn

    def __get__(self, instance, owner):
        if instance is None:
            return self
        return _CustomGradient(self._fn.__get__(instance, owner))

    def __call__(self, *args, **kwargs):
        return _call_with_custom_gradient(self._fn, args, kwargs)


def custom_gradient(f=None):
    """`@tf.custom_gradient`: `f(*args)` returns `(y, grad_fn)`; `grad_fn(*dy)` returns one gradient
    per argument, or with `variables=` (when f reads trainable variables) `(arg_grads, var_grads)`.

    >>> @custom_gradient
    ... def log1pexp(x):
    ...     e = exp(x)
    ...     return log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))
    """
    if f is None:
        return custom_gradient
    return _CustomGradient(f)


def recompute_grad(f):
    """`tf.recompute_grad`: f's activations are not kept; its gradient runs f again under a tape.
    (Values and gradients equal f's own; the saving is memory, which matters less here.)"""
    @custom_gradient
    def inner(*args, **kwargs):
        result = f(*args, **kwargs)

        def grad_fn(*dresult, variables=None):
            from .tape import GradientTape
            tensors = [a if isinstance(a, Tensor) else convert_to_tensor(a) for a in args]
            with GradientTape() as tape:
                tape.watch(tensors)
                again = f(*tensors, **kwargs)
            grads = tape.gradient(again, tensors + list(variables or []), output_gradients=list(dresult))
            n = len(tensors)
            return (grads[:n], grads[n:]) if variables else grads[:n]
        return result, grad_fn

    functools.update_wrapper(inner, f)
    return inner

# Its JAX lowering (jit_compile=True, codegen/xla.py): the results pass through.
IdentityN.jax = _identity_n_kernel
