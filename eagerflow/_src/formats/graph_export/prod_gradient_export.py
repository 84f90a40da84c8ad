"""ProdOfOthers(x, axes) (the gradient of tf.reduce_prod) written as the TensorFlow ops TensorFlow's own
Prod gradient builds: the reduced axes moved to the front and flattened into one, then the exclusive
cumulative products from both ends multiplied (exact with zeros, no division), and the result put
back in x's layout."""
from __future__ import annotations

from ...core import dtypes as _dt
from .node_chain import NodeChain


def export_prod_of_others(builder, op):
    x, axes = op.inputs
    node = NodeChain(builder, op)
    i32 = _dt.int32
    rank = node("Rank", [x], i32)
    flat_axes = node("Reshape", [node("Cast", [axes], i32, {"SrcT": axes.dtype, "DstT": i32}), node.const([-1])], i32)
    reduced = node("FloorMod", [node("AddV2", [flat_axes, rank], i32), rank], i32)
    every = node("Range", [node.const(0), rank, node.const(1)], i32)
    kept, _ = node("ListDiff", [every, reduced], [i32, i32], {"out_idx": i32})
    perm = node("ConcatV2", [reduced, kept, node.const(0)], i32)
    shape = node("Shape", [x], i32, {"out_type": i32})
    reduced_size = node("Prod", [node("GatherV2", [shape, reduced, node.const(0)], i32), node.const(0)], i32)
    kept_size = node("Prod", [node("GatherV2", [shape, kept, node.const(0)], i32), node.const(0)], i32)
    permuted = node("Transpose", [x, perm], x.dtype)
    matrix = node("Reshape", [permuted, node("Pack", [reduced_size, kept_size], i32, {"axis": 0})], x.dtype)
    before = node("Cumprod", [matrix, node.const(0)], x.dtype, {"exclusive": True})
    after = node("Cumprod", [matrix, node.const(0)], x.dtype, {"exclusive": True, "reverse": True})
    product = node("Reshape", [node("Mul", [before, after], x.dtype), node("Shape", [permuted], i32, {"out_type": i32})],
                   x.dtype)
    node("Transpose", [product, node("InvertPermutation", [perm], i32)], x.dtype, out=op.outputs[0])
