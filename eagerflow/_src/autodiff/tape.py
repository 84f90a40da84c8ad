"""GradientTape: records the ops that touch watched tensors, then runs their gradient rules backward.

Records come from `ops/registry.py:bind` (eager and graph alike). Gradient rules are built from
ordinary ops, so while one tape computes a gradient, an outer tape records that computation:
nested tapes give second and higher derivatives, and inside `tf.function` the gradient becomes
part of the graph.

Identity: tensors and variable handles are tracked by `id()`; the tape keeps a reference to every
tracked object, so an id cannot be reused while the tape lives.
"""
from __future__ import annotations

import contextlib
import enum
import logging

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.context import state
from ..core.tensor import Tensor
from . import slices as _slices
from .gradient_arguments import check_gradient_arguments, check_jacobian_target

_log = logging.getLogger("eagerflow")


class UnconnectedGradients(enum.Enum):
    """What `gradient` returns for a source the target does not depend on."""
    NONE = "none"
    ZERO = "zero"


def check_unconnected(value) -> UnconnectedGradients:
    """`unconnected_gradients` as the enum: a member or its value ("none", "zero"); else TF's ValueError."""
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}") from None


def _handle_of(source):
    """The object a tape tracks for a source: a variable's resource handle, or the tensor itself."""
    handle = getattr(source, "handle", None)
    if handle is not None and hasattr(type(source), "_as_tensor"):
        return handle
    return source


class GradientTape:
    """Records operations for automatic differentiation (TensorFlow's `tf.GradientTape`).

    >>> w1 = Variable([[2.0]]); w2 = Variable([[3.0]])
    >>> with GradientTape(persistent=True) as tape:
    ...     y = matmul(w2, square(w1))
    >>> tape.gradient(y, w1)   # 2 * w1 * w2 = [[12.]]
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._tracked = {}  # id -> object, for everything whose gradient can flow
        self._records = []
        self._recording = False
        self._used = False
        self._watched_variables = {}

    # --- context management ---
    def __enter__(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active tape.")
        self._push()
        return self

    def __exit__(self, *exc):
        if self._recording:
            self._pop()
        return False

    def _push(self):
        state.tapes.append(self)
        self._recording = True

    def _pop(self):
        if self in state.tapes:
            state.tapes.remove(self)
        self._recording = False

    # --- what bind() calls ---
    @property
    def recording(self) -> bool:
        return self._recording

    @property
    def watch_accessed_variables(self) -> bool:
        return self._watch_accessed_variables

    def should_record(self, inputs) -> bool:
        tracked = self._tracked
        for t in inputs:
            if id(t) in tracked:
                return True
        return False

    def record(self, record) -> None:
        self._records.append(record)
        tracked = self._tracked
        for out in record.outputs:
            if out.dtype.is_differentiable:
                tracked[id(out)] = out

    # --- public API ---
    def watch(self, tensor):
        """Tracks a tensor (or variable, or nested structure of them) as a differentiation source."""
        for t in nest.flatten(tensor, expand_composites=True):
            handle = _handle_of(t)
            if not isinstance(handle, Tensor):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not tf.Tensor or "
                                 f"tf.Variable or ExtensionType.")
            if not (t.dtype.is_differentiable or handle.dtype is _dt.resource):
                _log.warning("The dtype of the watched tensor must be floating (e.g. tf.float32), got %r", t.dtype)
                continue
            self._tracked[id(handle)] = handle
            if handle is not t:
                self._watched_variables[id(t)] = t

    def _watch_variable(self, variable):
        """Called when a trainable variable is read while this tape records."""
        if self._watch_accessed_variables and variable.dtype.is_differentiable:
            self._tracked[id(variable.handle)] = variable.handle
            self._watched_variables[id(variable)] = variable

    def watched_variables(self):
        return tuple(self._watched_variables.values())

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stops recording: ops run inside are invisible to this tape."""
        if not self._recording:
            raise ValueError("Tape must be recording.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forgets everything recorded so far (and everything watched)."""
        self._records.clear()
        self._tracked.clear()
        self._watched_variables.clear()

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(sources), with the structure of `sources`. A non-persistent tape allows one call."""
        self._check_usable()
        if self._recording and not self._persistent:
            self._pop()  # TensorFlow stops a non-persistent tape here too
        result = self._gradient(target, sources, output_gradients, unconnected_gradients, keep_slices=True)
        if not self._persistent:
            self._used = True
            self._records = []
        return result

    def _check_usable(self):
        if self._used:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one set of "
                               "gradients (or jacobians)")

    def _gradient(self, target, sources, output_gradients, unconnected_gradients, keep_slices=False):
        unconnected = check_unconnected(unconnected_gradients)
        flat_sources = nest.flatten(sources, expand_composites=True)
        flat_targets = nest.flatten(target, expand_composites=True)
        check_gradient_arguments(target, flat_targets, flat_sources)
        flat_targets = [t if isinstance(t, Tensor) else _read_if_variable(t) for t in flat_targets]
        source_handles = [_handle_of(s) for s in flat_sources]
        if output_gradients is not None:
            output_gradients = nest.flatten(output_gradients, expand_composites=True)
            if len(output_gradients) != len(flat_targets):
                raise ValueError("output_gradients must have the same structure as target")
        # A persistent tape asked inside its own context records the gradient computation too (as in
        # TensorFlow), so a gradient of that gradient is a higher derivative; another tape records it
        # on outer tapes only.
        was_recording = self._recording and not self._persistent
        records = list(self._records) if self._recording else self._records
        if was_recording:
            self._pop()
        try:
            grads = backprop(records, flat_targets, source_handles, output_gradients, keep_slices)
        finally:
            if was_recording:
                self._push()
        out = []
        for src, handle in zip(flat_sources, source_handles):
            g = grads.get(id(handle))
            if g is None and unconnected is UnconnectedGradients.ZERO:
                from ..ops.array.basic import zeros_like
                g = zeros_like(handle if isinstance(src, Tensor) else src.value())
            out.append(g)
        return nest.pack_sequence_as(sources, out, expand_composites=True)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """Full Jacobian: result[s] has shape target.shape + source.shape."""
        from ..ops.array import basic as A
        from ..ops.array import joining as J
        self._check_usable()
        check_jacobian_target(target)
        target = target if isinstance(target, Tensor) else _read_if_variable(target)
        flat_sources = nest.flatten(sources, expand_composites=True)
        n = target.shape.num_elements()
        if n is None:
            raise ValueError("jacobian needs a target of known shape in this version")
        if n == 0:  # no rows to seed: one zero seed tells connected sources (zeros) from the rest (None)
            out = self._empty_jacobians(target, flat_sources, list(target.shape), unconnected_gradients)
            return nest.pack_sequence_as(sources, out, expand_composites=True)
        rows = [[] for _ in flat_sources]
        for i in range(n):
            seed = A.reshape(_unit_vector(i, n, target.dtype), A.shape(target))
            gs = self._gradient(target, flat_sources, [seed], unconnected_gradients)
            for k, (g, s) in enumerate(zip(gs, flat_sources)):
                rows[k].append(g if g is not None else None)
        out = []
        for k, s in enumerate(flat_sources):
            if all(g is None for g in rows[k]):
                out.append(None)
                continue
            filled = [g if g is not None else A.zeros_like(_value_of(s)) for g in rows[k]]
            stacked = J.stack(filled) if filled else A.zeros(list(target.shape) + list(s.shape), s.dtype)
            out.append(A.reshape(stacked, list(target.shape) + list(s.shape)))
        if not self._persistent:
            self._used = True
        return nest.pack_sequence_as(sources, out, expand_composites=True)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobian: result[b] = d target[b] / d source[b], shape
        [batch] + target.shape[1:] + source.shape[1:]; examples must be independent."""
        from ..ops.array import basic as A
        from ..ops.array import joining as J
        self._check_usable()
        tshape, sshape = target.shape, source.shape
        for shape in (tshape, sshape):  # TensorFlow's check and words, the target first
            if shape.rank is not None and shape.rank < 2:
                raise ValueError(f"Shape {shape} must have rank at least 2")
        if tshape.rank is None or not tshape[1:].is_fully_defined():
            raise ValueError("batch_jacobian needs a target of rank >= 1 with known inner dimensions")
        if tshape[0] is not None and sshape[0] is not None and tshape[0] != sshape[0]:
            raise ValueError(f"Need first dimension of target shape ({tshape}) and source shape ({sshape}) "
                             f"to match.")
        if tshape[0] is None or sshape[0] is None:  # known only when it runs: checked then, as TensorFlow does
            from ..ops.debugging.checks import assert_equal
            assert_equal(A.shape(target)[0], A.shape(_value_of(source))[0])
        inner = tshape[1:].num_elements()
        from ..ops.array.joining import concat
        if inner == 0:  # as in jacobian: zeros of [batch] + target.shape[1:] + source.shape[1:]
            source_shape = A.shape(_value_of(source))
            shape = concat([source_shape[:1], list(tshape[1:]), source_shape[1:]], 0)
            return self._empty_jacobians(target, [source], shape, unconnected_gradients)[0]
        columns = []
        for j in range(inner):
            seed = A.broadcast_to(A.reshape(_unit_vector(j, inner, target.dtype), [1] + list(tshape[1:])),
                                  A.shape(target))
            (g,) = self._gradient(target, [source], [seed], unconnected_gradients)
            columns.append(g)
        if not self._persistent:
            self._used = True
        if all(c is None for c in columns):
            return None
        columns = [c if c is not None else A.zeros_like(_value_of(source)) for c in columns]
        stacked = J.stack(columns, axis=1)  # [batch, inner, source...]
        batch = A.shape(source)[:1]
        return A.reshape(stacked, concat([batch, list(tshape[1:]), A.shape(source)[1:]], 0))

    def _empty_jacobians(self, target, flat_sources, shape, unconnected_gradients):
        """Jacobians of a target with no elements: zeros of `shape` (+ the source's shape) for each
        source the target depends on, None (or zeros, as asked) for the others, as TensorFlow does."""
        from ..ops.array import basic as A
        seed = A.zeros_like(target)
        grads = self._gradient(target, flat_sources, [seed], unconnected_gradients)
        if not self._persistent:
            self._used = True
        out = []
        for g, s in zip(grads, flat_sources):
            if g is None:
                out.append(None)
            elif isinstance(shape, list):
                out.append(A.zeros(shape + list(_value_of(s).shape), g.dtype))
            else:  # batch_jacobian: the shape is already complete (a run-time shape tensor)
                out.append(A.zeros(shape, g.dtype))
        return out


def _unit_vector(i, n, dtype):
    """The i-th standard basis vector of length n: the output gradient that picks one element."""
    from ..core.convert import convert_to_tensor
    e = np.zeros(n, dtype=dtype.np_dtype)
    e[i] = 1
    return convert_to_tensor(e)


def _read_if_variable(x):
    if hasattr(type(x), "_as_tensor"):
        return x._as_tensor()
    raise ValueError(f"Target {x!r} is not a tensor")


def _value_of(source):
    return source if isinstance(source, Tensor) else source.value()


def backprop(records, targets, sources, output_gradients=None, keep_slices=False):
    """Reverse-mode accumulation over `records`. Returns {id(source): gradient}.

    Only records on a path from a source to a target run their gradient rule. Gradients arriving
    at one tensor from several consumers are summed as TensorFlow aggregates them (slices.py).
    A source's gradient may be a tf.IndexedSlices (a gather's) when `keep_slices` is set, as
    `GradientTape.gradient` and `tf.gradients` return it; other callers get tensors.
    """
    from ..ops.array import basic as A

    # Forward pass: which tensors depend on a source.
    reach = {id(s) for s in sources}
    useful = []
    for rec in records:
        if any(id(t) in reach for t in rec.inputs):
            useful.append(rec)
            for out in rec.outputs:
                reach.add(id(out))
    pending: dict[int, list] = {}
    for i, t in enumerate(targets):
        if not t.dtype.is_differentiable:
            continue
        seed = output_gradients[i] if output_gradients is not None else None
        if seed is None:  # a constant: outer tapes need not record it (TF's seeds are not recorded either)
            saved_tapes, state.tapes = state.tapes, []
            try:
                seed = A.ones_like(t)
            finally:
                state.tapes = saved_tapes
        elif not isinstance(seed, Tensor):
            from ..core.convert import convert_to_tensor
            seed = convert_to_tensor(seed, dtype=t.dtype)
        pending.setdefault(id(t), []).append(seed)

    def total(key):
        gs = pending.get(key)
        if not gs:
            return None
        if len(gs) > 1:
            gs[:] = [_slices.aggregate(gs)]
        return gs[0]

    for rec in reversed(useful):
        out_grads = [total(id(o)) for o in rec.outputs]
        if all(g is None for g in out_grads):
            continue
        if len(out_grads) > 1 and not rec.opdef.sparse_output_grads:  # zeros for outputs nothing needs
            out_grads = [g if g is not None else A.zeros_like(o) for g, o in zip(out_grads, rec.outputs)]
        in_grads = _slices.through(rec, out_grads)
        if in_grads is None:
            out_grads = [_slices.dense(g) for g in out_grads]
            # Which inputs lead back to a source: rules that can skip work (control flow) read it.
            saved_needs, state.grad_needs = state.grad_needs, tuple(id(t) in reach for t in rec.inputs)
            try:
                in_grads = rec.opdef.grad(rec, *out_grads)
            finally:
                state.grad_needs = saved_needs
        if not isinstance(in_grads, (tuple, list)):
            in_grads = (in_grads,)
        if len(in_grads) != len(rec.inputs):
            raise ValueError(f"Gradient rule of {rec.opdef.name} returned {len(in_grads)} gradients for "
                             f"{len(rec.inputs)} inputs")
        for inp, g in zip(rec.inputs, in_grads):
            if g is None or id(inp) not in reach:
                continue
            if not (inp.dtype.is_differentiable or inp.dtype is _dt.resource):
                continue
            pending.setdefault(id(inp), []).append(g)
    found = {id(s): total(id(s)) for s in sources}
    return found if keep_slices else {key: _slices.dense(g) for key, g in found.items()}

