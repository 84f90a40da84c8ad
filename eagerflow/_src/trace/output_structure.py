"""A traced function's outputs as the user's Python returned them: `output_packer` builds, once per
trace, the function that rebuilds the output structure from the generated code's flat outputs (fast
paths for one tensor and flat tuples, lists and dicts: the cached-call hot path runs it on every
call), and `output_type_text` prints that structure as TensorFlow prints a trace's output type.
"""
from __future__ import annotations

from ..core import nest
from ..core.tensor import Tensor, TensorSpec


def output_packer(template):
    """A function rebuilding the user's output structure from the flat output tensors; the common
    shapes (one tensor, a flat tuple or list) skip the generic nest walk on the hot path."""
    if template is None:
        return lambda outs: None
    if isinstance(template, Tensor):
        return lambda outs: outs[0]
    if type(template) is tuple and all(isinstance(t, Tensor) for t in template):
        return tuple
    if type(template) is list and all(isinstance(t, Tensor) for t in template):
        return list
    if type(template) is dict and all(isinstance(t, Tensor) for t in template.values()):
        # A flat dict (Keras' train_step logs): the flat order is nest's (sorted keys), the result
        # keeps the traced dict's key order, as nest.pack_sequence_as builds it.
        keys = list(template)
        where = nest.flatten({k: i for i, k in enumerate(keys)},
                             expand_composites=True)  # template position per flat slot
        slot = [0] * len(keys)
        for flat_index, position in enumerate(where):
            slot[position] = flat_index
        return lambda outs: {k: outs[i] for k, i in zip(keys, slot)}
    leaves = nest.flatten(template, expand_composites=True)
    if any(leaf is None for leaf in leaves):  # `None` outputs are not graph outputs: put them back
        holes = [leaf is None for leaf in leaves]

        def pack_with_nones(outs):
            it = iter(outs)
            return nest.pack_sequence_as(template, [None if hole else next(it) for hole in holes],
                                         expand_composites=True)
        return pack_with_nones
    return lambda outs: nest.pack_sequence_as(template, outs, expand_composites=True)


def output_type_text(structure, specs):
    """The output structure as TensorFlow prints its trace type: TensorSpecs for the tensors (in
    flat order, `specs`), `Literal[None]` for None, `Tuple[...]`/`List[...]`/`Dict[[key, ...]]`."""
    it = iter(specs)

    def text(node):
        if node is None:
            return "Literal[None]"
        if isinstance(node, TensorSpec):  # a loaded function's named output
            return repr(node)
        if isinstance(node, Tensor):
            return repr(next(it))
        if hasattr(type(node), "_type_spec"):  # a composite (SparseTensor): its spec, its tensors skipped
            for _ in node.__tf_flatten__():
                next(it)
            return repr(node._type_spec)
        if isinstance(node, dict):  # flat order is sorted keys; printed in the dict's own order
            keys = sorted(node, key=str)
            parts = dict(zip(keys, [text(node[k]) for k in keys]))
            return "Dict[" + ", ".join(f"[{k!r}, {parts[k]}]" for k in node) + "]"
        if isinstance(node, tuple) and hasattr(type(node), "_fields"):
            return (f"{type(node).__name__}["
                    + ", ".join(f"[{f!r}, {text(v)}]" for f, v in zip(node._fields, node)) + "]")
        if isinstance(node, (list, tuple)):
            return f"{'Tuple' if isinstance(node, tuple) else 'List'}[" + ", ".join(text(v) for v in node) + "]"
        return f"Literal[{node!r}]"
    return text(structure)
