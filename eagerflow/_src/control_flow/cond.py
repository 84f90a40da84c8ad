"""tf.cond, tf.case, tf.switch_case: eagerly a Python `if`; in a graph an `If`/`StatelessIf` op.

In a graph both branches are traced (their Python runs once each, as in TensorFlow) into
sub-graphs; the op's inputs are the predicate and every outer value either branch captured. At run
time the op runs only the taken branch's generated code.

Gradient: an If over the two branches' gradient sub-graphs. When a recording tape sees the If,
the taken branch also returns the values it computed (the op's last output, `kept`), and the
gradient reads them instead of running the branch again (control_flow/cond_gradient.py): a random
draw or a side effect inside a branch happens once. Without a tape nothing extra is kept.
"""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from ..core.tensor import EagerTensor, Tensor
from ..core.variant import VariantValue
from ..ops.operands import as_tensor
from ..ops.registry import Spec, bind, defop
from ..ops.shape_rules import tf_type_word
from . import subgraph
from .cond_gradient import NOTHING_KEPT, gradient_branch


def _if_kernel(pred, *values, then_branch, else_branch, output_specs, keep_intermediates=False):
    branch = then_branch if pred else else_branch
    if not keep_intermediates:
        return (*branch.run((), values), NOTHING_KEPT)
    outs = branch.with_intermediates().run((), values)  # everything: the kernel path is not the hot one
    n = len(output_specs)
    return (*outs[:n], VariantValue((None, tuple(outs[n:]))))


def _if_infer(inputs, attrs):
    return [Spec(shape, dtype) for shape, dtype in attrs["output_specs"]] + [Spec(TensorShape([]), _dt.variant)]


def _if_grad(op, *grads):
    """An If over the branches' gradient sub-graphs; gradients for every differentiable input."""
    pred, externals = op.inputs[0], list(op.inputs[1:])
    wanted = [i for i, t in enumerate(externals) if t.dtype.is_differentiable or t.dtype is _dt.resource]
    if not wanted:
        return [None] * len(op.inputs)
    n = len(op.outputs) - 1
    kept, kept_seeds = op.outputs[n], grads[n]  # kept_seeds: a higher-order gradient reached the kept values
    seeds = [g if g is not None else _zeros_like(o) for g, o in zip(grads[:n], op.outputs[:n])]
    then_g = gradient_branch(op.attrs["then_branch"], externals, kept, seeds, kept_seeds, wanted)
    else_g = gradient_branch(op.attrs["else_branch"], externals, kept, seeds, kept_seeds, wanted)
    outs = iter(build_if(pred, then_g, else_g))
    by_input = {i: next(outs) for i in wanted}
    return [None] + [by_input.get(i) for i in range(len(externals))]


def _zeros_like(t):
    from ..ops.array.basic import zeros_like
    return zeros_like(t)


def _keep_intermediates(attrs):
    return {**attrs, "keep_intermediates": True}


If = defop("If", inputs=("cond", "input"), kernel=_if_kernel, infer=_if_infer, grad=_if_grad,
           multi_output=True, stateful=True, sparse_output_grads=True, record_attrs=_keep_intermediates,
           doc="A conditional whose branches have side effects.")
StatelessIf = defop("StatelessIf", inputs=("cond", "input"), kernel=_if_kernel, infer=_if_infer, grad=_if_grad,
                    multi_output=True, sparse_output_grads=True, record_attrs=_keep_intermediates,
                    doc="A conditional over two side-effect-free branches.")


def build_if(pred, then_b, else_b):
    """Binds an If/StatelessIf over two traced branches with matching outputs; returns the
    branches' outputs (the op's last output, what it kept for its gradient, is left out)."""
    externals, stateful = subgraph.share_externals(then_b, else_b)
    specs = [(a.shape.most_specific_compatible_shape(b.shape), a.dtype) for a, b in zip(then_b.outputs, else_b.outputs)]
    attrs = {"then_branch": then_b, "else_branch": else_b, "output_specs": specs}
    return bind(If if stateful else StatelessIf, (pred, *externals), attrs)[:-1]  # not `kept`


def _check_matching(then_b, else_b):
    """TensorFlow's errors for branches whose outputs cannot be merged: a different number of
    tensors is its AssertionError listing the two counts; a different structure (a list is not a
    tuple, dict keys differ) or dtype is its TypeError."""
    flat_then = nest.flatten(then_b.structure, expand_composites=True)
    flat_else = nest.flatten(else_b.structure, expand_composites=True)
    if len(flat_then) != len(flat_else):
        raise AssertionError([len(flat_then), len(flat_else)])
    header = ("true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure "
              f"of return values.\n\ntrue_fn output: {then_b.structure}\nfalse_fn output: {else_b.structure}\n\n"
              "Error details:\n")
    try:
        nest.assert_same_structure(then_b.structure, else_b.structure, check_types=True, expand_composites=True)
    except (ValueError, TypeError) as err:
        raise TypeError(header + str(err)) from None
    for a, b, user_a, user_b in zip(then_b.outputs, else_b.outputs, flat_then, flat_else):
        if a.dtype is not b.dtype:
            raise TypeError(header + f"{user_a} and {user_b} have different types")


def cond(pred, true_fn=None, false_fn=None, name=None):
    """`tf.cond`: `true_fn()` if `pred` else `false_fn()`; both traced when `pred` is symbolic.
    Eagerly only the taken branch runs, and a tape records its ops as any others (its gradient
    reads the recorded values: nothing to keep)."""
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    if not isinstance(pred, Tensor):
        pred = as_tensor(pred)
    if isinstance(pred, EagerTensor):  # eager: plain Python control flow, on the truth of pred as TensorFlow's
        return true_fn() if bool(pred._value) else false_fn()
    if pred.dtype is not _dt.bool_:  # TensorFlow's refusal when it builds the conditional's Switch node
        raise InvalidArgumentError(
            None, None, f"Input 'pred' passed {tf_type_word(pred.dtype)} expected bool while building NodeDef "
                        f"'cond/switch_pred' using Op<name=Switch; signature=data:T, pred:bool -> output_false:T, "
                        f"output_true:T; attr=T:type>")
    if pred.shape.rank not in (None, 0):
        raise ValueError(f"pred must be a scalar, got shape {pred.shape}")
    then_b = subgraph.trace(lambda: true_fn(), [], "cond_true")
    else_b = subgraph.trace(lambda: false_fn(), [], "cond_false")
    _check_matching(then_b, else_b)
    outs = build_if(pred, then_b, else_b)
    if not nest.is_nested(then_b.structure, expand_composites=True):
        return outs[0]
    return nest.pack_sequence_as(then_b.structure, outs, expand_composites=True)


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """`tf.case`: the first pair whose predicate holds (nested conds, as TensorFlow builds it)."""
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    if not pairs:
        if default is None:  # TensorFlow takes the last pair apart for its default
            raise ValueError("not enough values to unpack (expected 2, got 0)")
        return default()
    if default is None:
        *pairs, (last_pred, last_fn) = pairs
        default = last_fn
    result = default
    for pred, fn in reversed(pairs):
        result = (lambda p, f, rest: (lambda: cond(p, f, rest)))(pred, fn, result)
    return result()


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`tf.switch_case`: `branch_fns[branch_index]()`, `default` (or the last branch) out of range."""
    fns = [fn for _, fn in sorted(branch_fns.items())] if isinstance(branch_fns, dict) else list(branch_fns)
    if not fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if default is None:
        default = fns[-1]
    index = as_tensor(branch_index)
    if not index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got <dtype: '{index.dtype.name}'>")
    if isinstance(index, EagerTensor):
        i = int(index)
        return fns[i]() if 0 <= i < len(fns) else default()
    from ..ops.math.elementwise import equal
    pairs = [(equal(index, i), fn) for i, fn in enumerate(fns)]
    return case(pairs, default=default)
