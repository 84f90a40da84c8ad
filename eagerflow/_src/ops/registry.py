"""OpDef and `bind`: every op is defined once and runs eagerly or is recorded into a graph.

An OpDef holds everything about one TensorFlow op type: its name (`MatMul`), input names (used for
graph node names such as `AddV2/y`), a NumPy kernel, a shape-and-dtype rule (`infer`) that works on
partially known shapes, and a gradient rule written with other ops (so gradients trace and nest).

`bind` is the single eager-vs-graph dispatch point: it asks the context once. ops/ never imports
graph/ or trace/: a graph is anything with `add_operation(opdef, inputs, attrs)`.

The eager path is the hot path (target: a few microseconds over the NumPy call). It has ONE
validation point: the first time an (op, input dtypes, input ranks, attributes) combination runs
eagerly, the op's shape-and-dtype rule runs too (so a dtype the op does not accept raises
TensorFlow's error eagerly, as it does while tracing) and the kernel's output dtypes are checked
against the rule's; the verdict is cached per op (ops/validation.py), so a repeated call pays one
dict lookup. The kernel's NumPy errors are turned into TensorFlow errors only when they happen, by
`kernel_error`, which generated code shares (trace/runtime_errors.py).
"""
from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

import numpy as np

from ..core import dtypes as _dt
from ..core.context import state
from ..core.tensor import EagerTensor, wrap_array
from .fp_errors import NO_FP_WARNINGS, busy, quiet_call, run_quiet
from .validation import eager_key, first_eager_run, raise_kernel_error

_from_numpy = _dt.from_numpy
_BY_NP = _dt._BY_NP
_new = object.__new__


class _NoGradient:
    """Marks an op whose outputs carry no gradient (comparisons, argmax, shape queries, ...)."""

    def __repr__(self):
        return "NO_GRADIENT"


NO_GRADIENT = _NoGradient()


class _UnregisteredGradient:
    """Marks an op TensorFlow registers no gradient function for (ResizeArea): where NO_GRADIENT
    gives None, differentiating through this op raises TensorFlow's LookupError, in its eager
    wording on a tape, in its graph wording (naming the op) for a graph's op."""

    def __call__(self, op, *grads):
        op_type = op.opdef.name
        name = getattr(op, "name", None)
        if name is None:
            raise LookupError(f"gradient registry has no entry for: {op_type}")
        raise LookupError(
            f"No gradient defined for operation'{name}' (op type: {op_type}). In general every operation must have "
            f"an associated `@tf.RegisterGradient` for correct autodiff, which this op is lacking. If you want to "
            f"pretend this operation is a constant in your program, you may insert `tf.stop_gradient`. This can be "
            f"useful to silence the error in cases where you know gradients are not needed, e.g. the forward pass "
            f"of tf.custom_gradient. Please see more details in https://www.tensorflow.org/api_docs/python/tf/"
            f"custom_gradient.")

    def __repr__(self):
        return "UNREGISTERED_GRADIENT"


UNREGISTERED_GRADIENT = _UnregisteredGradient()


class Spec(NamedTuple):
    """What a shape rule returns for one output."""
    shape: object  # TensorShape
    dtype: _dt.DType


class OpDef:
    """One op type. `kernel(*arrays, **attrs)` returns an array (or a tuple when `multi_output`);
    `infer(inputs, attrs)` takes tensors (eager or symbolic: `.shape`, `.dtype`) and returns a
    list of Spec; `grad(op, *output_grads)` returns one gradient (or None) per input."""

    __slots__ = ("name", "kernel", "infer", "grad", "inputs", "multi_output", "stateful", "doc",
                 "sparse_output_grads", "record_attrs", "checked", "quiet", "jax", "elementwise", "effects")

    def __init__(self, name, kernel, infer, grad, inputs, multi_output, stateful, doc, sparse_output_grads=False,
                 record_attrs=None, jax=None):
        self.name = name
        self.kernel = kernel
        self.infer = infer
        self.grad = grad
        self.inputs = inputs
        self.multi_output = multi_output
        self.stateful = stateful
        self.doc = doc
        # True when `grad` accepts None for outputs nothing depended on (no zeros are built for them).
        self.sparse_output_grads = sparse_output_grads
        # attrs -> attrs to use when a recording tape will record the op (None: the same); how a
        # loop learns to keep the history its gradient needs.
        self.record_attrs = record_attrs
        # Eager validation verdicts: keys of the (input dtypes, ranks, attributes) combinations whose
        # rule already passed (ops/validation.py builds the keys and fills this).
        self.checked = {}
        # Whether the kernel may raise NumPy floating-point warnings, run silenced (ops/fp_errors.py).
        self.quiet = name not in NO_FP_WARNINGS
        # The op's JAX lowering for jit_compile=True (codegen/xla.py): called as the kernel is,
        # `jax(*arrays, **attrs)`, on jax arrays; None: the op cannot be compiled. Usually set on
        # the line after the defop, `Op.jax = lambda x: jnp.exp(x)` (ops/lazy_jax.py).
        self.jax = jax
        # For a non-ufunc kernel that computes element i of its result from element i of its inputs
        # (broadcasting size-1 operands) and keeps no reference: the number of passes NumPy makes
        # over the data in it (0: not such a kernel). It may then run on one tile of a large array
        # at a time (codegen/tiling.py; a kernel of several passes gains even alone). Set after the
        # defop, like `jax`. Ufunc kernels need no flag.
        self.elementwise = 0
        # What running the op does outside the process's tensors: a subset of EFFECTS, or a function
        # of the attributes returning one (PrintV2 writes a file only for a file:// stream). Loaders
        # refuse such ops unless the caller opts in; constant folding never runs them. Set after the
        # defop, like `jax`: `ReadFile.effects = FILES`.
        self.effects = frozenset()

    @property
    def differentiable(self) -> bool:
        return self.grad is not NO_GRADIENT

    @property
    def may_run_early(self) -> bool:
        """Whether the op may run before its call, on values known early (constant folding, static values,
        XLA's trace-time evaluation and trip counts): not stateful, and no effect outside the process."""
        return not (self.stateful or self.effects)

    def __repr__(self):
        return f"<OpDef {self.name}>"


OPS: dict[str, OpDef] = {}
FILES, PYTHON = frozenset({"files"}), frozenset({"python"})  # reads or writes files; runs Python code
EFFECTS = FILES | PYTHON  # (no op reaches the network or runs a shell)


def effects_of(opdef, attrs) -> frozenset:
    """The op's effects with these attributes (see OpDef.effects)."""
    effects = opdef.effects
    return effects(attrs) if callable(effects) else effects


def defop(name: str, *, kernel: Callable, infer: Callable, grad, inputs: Sequence[str] = ("x",),
          multi_output: bool = False, stateful: bool = False, doc: str = "",
          sparse_output_grads: bool = False, record_attrs=None, jax=None) -> OpDef:
    """Defines and registers an op. `grad` is required: a rule, or NO_GRADIENT said explicitly."""
    if name in OPS:
        raise ValueError(f"Op {name!r} is defined twice")
    if grad is None:
        raise ValueError(f"Op {name!r}: pass a gradient rule or NO_GRADIENT explicitly")
    if getattr(infer, "op_name", None) == "?":  # a fresh rule from a shape_rules factory
        infer.op_name = name
    op = OpDef(name, kernel, infer, grad, tuple(inputs), multi_output, stateful, doc, sparse_output_grads,
               record_attrs, jax)
    OPS[name] = op
    return op


class OpRecord:
    """What a tape keeps of one executed op; graph Operations offer the same attributes."""

    __slots__ = ("opdef", "inputs", "attrs", "outputs")

    def __init__(self, opdef, inputs, attrs, outputs):
        self.opdef = opdef
        self.inputs = inputs
        self.attrs = attrs
        self.outputs = outputs

    @property
    def type(self) -> str:
        return self.opdef.name

    def get_attr(self, name):
        return self.attrs[name]


_NO_ATTRS: dict = {}
_ONE_INPUT = object()  # marks the second argument of a one-input call on the hot path


def bind(op: OpDef, inputs, attrs=_NO_ATTRS, name=None):
    """Runs `op` on already-converted tensors: eagerly, or by adding it to the graph being built
    (`name` is the graph node name; TensorFlow's default is the op type).
    Returns one tensor, or a list of tensors for a multi-output op."""
    st = state
    tapes = st.tapes  # NOTE: read once (a thread-local attribute); tapes enter and leave this same list
    if tapes and op.record_attrs is not None and any(t.recording and t.should_record(inputs) for t in tapes):
        attrs = op.record_attrs(attrs)
    graph = st.graph
    if graph is not None:
        result = graph.add_operation(op, inputs, attrs, name)
    elif attrs or not 0 < len(inputs) < 3:
        result = _run_general(op, inputs, attrs)
    else:
        # NOTE: the eager hot path (see bench/ "eager op overhead"): one or two inputs, no
        # attributes. The verdict key is (dtypes..., ranks...), looked up once; its value says
        # whether NumPy's floating-point warnings must be switched off (ops/fp_errors.py). No
        # verdict yet (KeyError), or a value without `ndim` (AttributeError): `_run_general`.
        if len(inputs) == 2:
            x, y = inputs
            xv, yv = x._value, y._value
            try:
                quiet = op.checked[(x._dtype, y._dtype, xv.ndim, yv.ndim)]
            except (KeyError, AttributeError):
                quiet = None
        else:
            x = inputs[0]
            xv, yv = x._value, _ONE_INPUT
            try:
                quiet = op.checked[(x._dtype, xv.ndim)]
            except (KeyError, AttributeError):
                quiet = None
        if quiet is None:
            result = _run_general(op, inputs, attrs)
        else:
            # NOTE: explicit arguments, no `*args`: a star call into run_quiet costs ~75 ns more.
            kernel = op.kernel
            try:
                if yv is not _ONE_INPUT:
                    out = run_quiet(kernel, xv, yv) if quiet else kernel(xv, yv)
                else:
                    out = run_quiet(kernel, xv) if quiet else kernel(xv)
            except Exception as exc:  # turn NumPy's complaint into TensorFlow's error for this op
                if not (quiet and isinstance(exc, RuntimeError) and busy(exc)):
                    raise_kernel_error(op, inputs, attrs, exc)
                try:  # the quiet context is in use (another thread, or a kernel running ops)
                    out = quiet_call(kernel, *[t._value for t in inputs])
                except Exception as exc2:
                    raise_kernel_error(op, inputs, attrs, exc2)
            if op.multi_output:
                result = [wrap_array(o) for o in out]
            else:  # NOTE: wrap_array inlined: one call less on the eager hot path
                result = _new(EagerTensor)
                result._value = out
                try:
                    result._dtype = _BY_NP[out.dtype]
                except (KeyError, AttributeError):
                    out = result._value = np.asarray(out)
                    result._dtype = _from_numpy(out.dtype)
    if tapes and op.grad is not NO_GRADIENT:
        _record(op, inputs, attrs, result)
    return result


def _run_general(op, inputs, attrs):
    """An eager call off the hot path: attributes, other arities, or no verdict yet."""
    key = eager_key(inputs, attrs)
    quiet = op.checked.get(key)
    if quiet is None:
        return first_eager_run(op, inputs, attrs, key)
    try:
        out = (quiet_call if quiet else _call)(op.kernel, *[t._value for t in inputs], **attrs)
    except Exception as exc:
        raise_kernel_error(op, inputs, attrs, exc)
    return [wrap_array(o) for o in out] if op.multi_output else wrap_array(out)


def _call(fn, *args, **kwargs):
    return fn(*args, **kwargs)


def _record(op, inputs, attrs, result):
    outputs = result if op.multi_output else [result]
    record = None
    for tape in state.tapes:
        if tape.recording and tape.should_record(inputs):
            if record is None:
                record = OpRecord(op, tuple(inputs), attrs, tuple(outputs))
            tape.record(record)


def static_value(tensor):
    """The value of a tensor if it is known without running anything (an eager tensor, or a graph
    constant); None otherwise. Shape rules use it for shape-like inputs (Reshape's `shape`)."""
    getter = getattr(tensor, "_static_value", None)
    return getter() if getter is not None else None

