"""`tf.einsum` as one `Einsum` op: NumPy's einsum kernel, TensorFlow's shape rules and messages.

The equation is a static attr (as in TensorFlow); it is parsed once per spelling (cached). Unlike
NumPy, TensorFlow does not broadcast a size-1 dimension of a named index against a larger one (only
the dimensions under `...` broadcast), so the kernel checks the arrays' dims before NumPy sees them
(in a traced graph, dims unknown at trace time are checked there, with TensorFlow's message).

Gradients (one or two operands) are einsums themselves: the gradient of operand k contracts the
output gradient with the other operand onto k's indices. Indices that only k has were summed away
in the forward pass; they come back by reshaping to size 1 and broadcasting.
"""
from __future__ import annotations

import functools

import numpy as np

from ...core import dtypes as _dt
from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ...core.tensor import Tensor
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from ..lazy_jax import jnp  # callables that import JAX on first use only

_ELLIPSIS = "..."
_EINSUM_TYPES = R.FLOAT_COMPLEX + (_dt.int32, _dt.int64)


@functools.lru_cache(maxsize=512)
def parse(equation: str, n_inputs: int):
    """`"ij,jk->ik"` -> ((('i','j'), ('j','k')), ('i','k')), `...` kept as one token. Without `->`
    the output is the indices used once, in alphabetical order, after the ellipsis (if any)."""
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = tuple(_tokens(t, equation) for t in lhs.split(","))
    if len(terms) != n_inputs:
        raise ValueError(f'Got {n_inputs} inputs for equation "{equation}", expecting {len(terms)}')
    if arrow:
        out = _tokens(rhs, equation)
        seen = {label for t in terms for label in t}
        for label in out:
            if label not in seen:
                what = "an ellipsis" if label == _ELLIPSIS else f"the label {label}"
                raise ValueError(f"Output subscripts contain {what} not present in the input subscripts.")
    else:
        counts: dict = {}
        for t in terms:
            for label in t:
                counts[label] = counts.get(label, 0) + 1
        lead = (_ELLIPSIS,) if _ELLIPSIS in counts else ()
        out = lead + tuple(sorted(label for label, c in counts.items() if c == 1 and label != _ELLIPSIS))
    return terms, out


def _tokens(term: str, equation: str):
    out, i = [], 0
    while i < len(term):
        if term.startswith(_ELLIPSIS, i):
            out.append(_ELLIPSIS)
            i += 3
        elif term[i].isalpha():
            out.append(term[i])
            i += 1
        else:
            raise ValueError(f"Invalid character {term[i]!r} in einsum equation: {equation!r}")
    if out.count(_ELLIPSIS) > 1:
        raise ValueError(f"Found more than one ellipsis in an einsum term: {equation!r}")
    return tuple(out)


def _explicit(terms, out) -> str:
    return ",".join("".join(t) for t in terms) + "->" + "".join(out)


def _split_dims(term, dims):
    """Pairs (label, dim, axis) for the named indices of one operand, and its ellipsis dims."""
    named = [label for label in term if label != _ELLIPSIS]
    if _ELLIPSIS not in term:
        return list(zip(named, dims, range(len(dims)))), []
    k = term.index(_ELLIPSIS)
    n_ell = len(dims) - len(named)
    pairs = [(label, dims[i], i) for i, label in enumerate(term[:k])]
    pairs += [(label, dims[k + n_ell + j], k + n_ell + j) for j, label in enumerate(term[k + 1:])]
    return pairs, list(dims[k:k + n_ell])


def _check_dims(terms, shapes, graph=False):
    """Label sizes and the broadcast ellipsis shape for operands of these shapes (lists with None
    for unknown dims), raising TensorFlow's errors. Shared by the shape rule (static shapes) and
    the kernel (the arrays' shapes: a dim unknown while tracing is checked when it is known).
    `graph`: in the words of TensorFlow's graph shape function, else of its kernel."""
    sizes: dict = {}
    ellipsis = TensorShape([])
    for i, (term, dims) in enumerate(zip(terms, shapes)):
        named = sum(1 for label in term if label != _ELLIPSIS)
        if _ELLIPSIS not in term and len(dims) != named:
            raise InvalidArgumentError(None, None, (
                f"Shape must be rank {named} but is rank {len(dims)}\n\t for {i}th input and equation: "
                f"{','.join(''.join(t) for t in terms)}->" if graph else
                f"Expected input {i} to have rank {named} but got: {len(dims)}"))
        if _ELLIPSIS in term and len(dims) < named:
            raise InvalidArgumentError(None, None, f"Input {i} to einsum has rank {len(dims)} but its subscripts "
                                                   f"'{''.join(term)}' name {named} dimension(s)")
        pairs, ell = _split_dims(term, dims)
        for label, d, axis in pairs:
            known = sizes.get(label)
            if known is not None and d is not None and known != d:
                if graph:
                    raise InvalidArgumentError(None, None, f"Dimensions must be equal, but are {known} and {d}")
                raise InvalidArgumentError(None, None, f"Expected dimension {known} at axis {axis} of the input "
                                                       f"shaped {R.fmt_dims(TensorShape(dims))} but got dimension {d}")
            if known is None:
                sizes[label] = d
        ellipsis = R.broadcast_shape(ellipsis, TensorShape(ell))
    return sizes, ellipsis


def _einsum_infer(inputs, attrs):
    terms, out = parse(attrs["equation"], len(inputs))
    dtype = R.check_same_dtype("Einsum", inputs)
    R.check_dtype_in("Einsum", dtype, _EINSUM_TYPES, "inputs")
    if any(x.shape.rank is None for x in inputs):
        return [Spec(TensorShape(None), dtype)]
    sizes, ellipsis = _check_dims(terms, [list(x.shape) for x in inputs], R.graph_shape_check(inputs))
    if _ELLIPSIS not in out and ellipsis.rank:
        raise InvalidArgumentError(None, None, f"Output contains {ellipsis.rank} broadcasting dimension(s) but no "
                                               f"ellipsis (...) was found in the output subscripts.")
    dims: list = []
    for label in out:
        dims.extend(list(ellipsis) if label == _ELLIPSIS else [sizes.get(label)])
    return [Spec(TensorShape(dims), dtype)]


def _einsum_kernel(*xs, equation):
    terms, out = parse(equation, len(xs))
    # NumPy would broadcast a size-1 named dim against a larger one; TensorFlow refuses (and a
    # traced graph learns its unknown dims only here).
    _check_dims(terms, [list(x.shape) for x in xs])
    return np.asarray(np.einsum(_explicit(terms, out), *xs), dtype=xs[0].dtype)


def _einsum_grad(op, g):
    terms, out = parse(op.attrs["equation"], len(op.inputs))
    if len(terms) > 2:
        raise NotImplementedError("einsum gradients are defined for one or two operands")
    return tuple(_operand_grad(k, terms, out, op.inputs, g) for k in range(len(terms)))


def _operand_grad(k, terms, out, inputs, g):
    from ..array import basic as array
    term, x = terms[k], inputs[k]
    named = [label for label in term if label != _ELLIPSIS]
    if len(set(named)) != len(named):
        raise NotImplementedError(f"einsum gradient with a repeated index in one operand ({''.join(term)!r})")
    if _ELLIPSIS in term and _ELLIPSIS not in out:
        raise NotImplementedError("einsum gradient where the output drops the ellipsis")
    others = [(terms[j], inputs[j]) for j in range(len(terms)) if j != k]
    present = set(out).union(*[set(t) for t, _ in others])
    kept = tuple(label for label in term if label in present or label == _ELLIPSIS)
    eq = ",".join("".join(t) for t in [out] + [t for t, _ in others]) + "->" + "".join(kept)
    from ..math.elementwise import conj  # complex: TensorFlow's g * conj(derivative); a no-op for real inputs
    partial = einsum(eq, g, *[conj(o) for _, o in others])
    if _ELLIPSIS in term:
        partial = _undo_ellipsis_broadcast(partial, x, term, kept)
    if kept != term:  # indices only this operand had: size 1 again, then broadcast back
        from ..math.reduce import ReducedShape
        summed = [i for i, label in enumerate(_axes_of(term, x)) if label not in present]
        ones_shape = bind(ReducedShape, (array.shape(x), as_tensor(np.array(summed, np.int32))))
        partial = array.broadcast_to(array.reshape(partial, ones_shape), array.shape(x))
    return partial


def _axes_of(term, x):
    """The label of every axis of `x` (ellipsis axes labelled `...`)."""
    rank = x.shape.rank
    if _ELLIPSIS not in term:
        return list(term)
    k = term.index(_ELLIPSIS)
    return list(term[:k]) + [_ELLIPSIS] * (rank - len(term) + 1) + list(term[k + 1:])


def _undo_ellipsis_broadcast(partial, x, term, kept):
    """Sums the gradient over ellipsis dimensions that were broadcast against other operands."""
    from ..array.basic import SumToShape
    xs, ps = x.shape, partial.shape
    if not xs.is_fully_defined() or ps.rank is None:
        return partial
    labels = _axes_of(term, x)
    ell = [d for label, d in zip(labels, xs.as_list()) if label == _ELLIPSIS]
    by_label = {label: d for label, d in zip(labels, xs.as_list()) if label != _ELLIPSIS}
    target = []
    for label in kept:
        target.extend(ell if label == _ELLIPSIS else [by_label[label]])
    if ps.as_list() == target:
        return partial
    if ps.rank != len(target) and kept[0] != _ELLIPSIS:
        raise NotImplementedError("einsum gradient with a broadcast ellipsis that is not leading")
    return bind(SumToShape, (partial, as_tensor(np.array(target, np.int32))))


Einsum = defop("Einsum", inputs=("inputs",), kernel=_einsum_kernel, infer=_einsum_infer, grad=_einsum_grad,
               doc="Einstein summation over any number of operands (gradients for one or two).")


def einsum(equation, *inputs, **kwargs):
    """`tf.einsum` / `tf.linalg.einsum`: e.g. `einsum("bij,bjk->bik", a, b)`; `...` broadcasts."""
    kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for einsum: {', '.join(kwargs)}")
    tensors = [x if isinstance(x, Tensor) else None for x in inputs]
    hint = next((t.dtype for t in tensors if t is not None), None)
    tensors = [t if t is not None else as_tensor(x, hint) for t, x in zip(tensors, inputs)]
    attrs = {"equation": equation}
    try:
        if state.graph is None:  # NumPy would broadcast named size-1 dims: check first (a graph's op does)
            _einsum_infer(tensors, attrs)
    except InvalidArgumentError as err:
        if "[Op:" in err.message:
            raise
        raise InvalidArgumentError(None, None, f"{err.message} [Op:Einsum]") from None
    return bind(Einsum, tuple(tensors), attrs)

# --- JAX lowering (jit_compile=True, codegen/xla.py) ---


def _jax_einsum(*xs, equation):
    terms, out = parse(equation, len(xs))
    return jnp.einsum(_explicit(terms, out), *xs).astype(xs[0].dtype)


Einsum.jax = _jax_einsum
