"""Finite-difference gradient checks for array and slicing ops (the ops ops/array/basic.py gathers, ops/array/slicing.py).

Most of these ops are linear, so a second-order check of `op(x)` alone is trivially zero. Rows with
`order=2` square the op's output, so the first-order gradient itself runs the op's gradient rule
(StridedSliceGrad, ScatterNd, MirrorPadGrad, Slice, ...) on x and the outer tape differentiates it.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.array.padding import MirrorPadGrad
from eagerflow._src.ops.registry import bind
from eagerflow._src.ops.array.slicing import strided_slice_grad
from tests.gradcheck.harness import GradRow, check_row


def _distinct(*shapes):
    """Inputs whose values are well apart, so sorting and top_k do not flip under perturbation."""
    def make(rng):
        return [rng.permutation(int(np.prod(s))).reshape(s) * 0.3 + rng.uniform(0, 0.1, s) for s in shapes]
    return make


ROWS = [
    # --- slicing ---
    GradRow("StridedSlice/getitem", lambda x: tf.square(x[1:, ::-2, None, -1]), [(3, 4, 2)], order=2),
    GradRow("StridedSlice/ellipsis", lambda x: x[..., 0] * x[0, ...][None, :, 1], [(2, 3, 2)]),
    GradRow("StridedSlice/masks", lambda x: tf.strided_slice(x, [2, 1], [0, 3], [-1, 1], begin_mask=1,
                                                              shrink_axis_mask=2), [(3, 4)]),
    GradRow("StridedSliceGrad", lambda dy: strided_slice_grad([4, 3], [1, 0], [3, 0], [1, 1], tf.square(dy),
                                                              end_mask=2), [(2, 3)], order=2),
    GradRow("Slice", lambda x: tf.square(tf.slice(x, [1, 0], [2, -1])), [(3, 3)], order=2),
    GradRow("GatherV2/axis1", lambda x: tf.square(tf.gather(x, [2, 0, 2], axis=1)), [(2, 3, 2)], order=2),
    GradRow("GatherV2/axis0-2d-indices", lambda x: tf.gather(x, [[1, 1], [0, 2]]), [(3, 2)]),
    GradRow("GatherNd", lambda x: tf.square(tf.gather_nd(x, [[1, 0], [2, 1], [1, 0]])), [(3, 2, 2)], order=2),
    GradRow("GatherNd/boolean_mask", lambda x: tf.boolean_mask(x, [True, False, True]), [(3, 2)]),
    GradRow("ScatterNd", lambda u: tf.square(tf.scatter_nd([[1], [0], [1]], u, [3, 2])), [(3, 2)], order=2),
    GradRow("TensorScatterUpdate", lambda x, u: tf.square(tf.tensor_scatter_nd_update(x, [[1], [2]], u)),
            [(3, 2), (2, 2)], order=2),
    GradRow("TensorScatterAdd", lambda x, u: tf.square(tf.tensor_scatter_nd_add(x, [[0, 1], [0, 1]], u)),
            [(2, 3), (2,)], order=2),
    GradRow("TensorScatterSub", lambda x, u: tf.square(tf.tensor_scatter_nd_sub(x, [[1, 0]], u)), [(2, 3), (1,)],
            order=2),
    GradRow("TensorScatterMax", lambda x, u: tf.tensor_scatter_nd_max(x, [[0, 1], [1, 2]], u) * x[0, 0],
            [(2, 3), (2,)], make=_distinct((2, 3), (2,))),
    GradRow("TensorScatterMin", lambda x, u: tf.tensor_scatter_nd_min(x, [[0, 1], [1, 2]], u) * x[0, 0],
            [(2, 3), (2,)], make=_distinct((2, 3), (2,))),
    GradRow("DynamicStitch", lambda a, b: tf.square(tf.dynamic_stitch([[0, 2], [1, 3]], [a, b])), [(2, 2), (2, 2)],
            order=2),
    GradRow("EnsureShape", lambda x: tf.square(tf.ensure_shape(x, [None, 3])), [(2, 3)], order=2),
    # --- joining and splitting ---
    GradRow("ConcatV2", lambda a, b: tf.square(tf.concat([a, b], 1)), [(2, 2), (2, 3)], order=2),
    GradRow("ConcatV2/negative-axis", lambda a, b: tf.concat([a, b], -2), [(1, 3), (2, 3)]),
    GradRow("Split", lambda x: (lambda p: p[0] * p[1])(tf.split(x, 2, axis=1)), [(2, 4)], order=2),
    GradRow("SplitV", lambda x: tf.concat(tf.split(x, [1, 3, -1], axis=1)[::-1], 1), [(2, 6)]),
    GradRow("SplitV/unused-piece", lambda x: tf.split(x, [2, -1])[1] * 3.0, [(5,)]),
    GradRow("Pack", lambda a, b: tf.stack([a, b], axis=1), [(2, 3), (2, 3)]),
    GradRow("Unpack", lambda x: (lambda p: p[0] * p[2])(tf.unstack(x, axis=1)), [(2, 3)]),
    # --- reshaping ---
    GradRow("Reshape", lambda x: tf.reshape(x, [3, -1]), [(2, 3)]),
    GradRow("Transpose", lambda x: tf.transpose(x, [2, 0, 1]), [(2, 3, 2)]),
    GradRow("Squeeze", lambda x: tf.squeeze(x, [1]), [(3, 1, 2)]),
    GradRow("ExpandDims", lambda x: tf.expand_dims(x, -1), [(2, 3)]),
    GradRow("BroadcastTo", lambda x: tf.broadcast_to(x, [2, 3, 2]), [(3, 1)]),
    GradRow("Tile", lambda x: tf.square(tf.tile(x, [2, 3])), [(2, 2)], order=2),
    GradRow("ReverseV2", lambda x: tf.square(tf.reverse(x, [0, -1])), [(2, 3)], order=2),
    # --- padding ---
    GradRow("Pad", lambda x: tf.square(tf.pad(x, [[1, 0], [2, 1]])), [(2, 3)], order=2),
    GradRow("PadV2", lambda x: tf.pad(x, [[0, 2], [1, 1]], constant_values=1.5), [(2, 2)]),
    GradRow("MirrorPad/REFLECT", lambda x: tf.square(tf.pad(x, [[1, 2], [0, 2]], "REFLECT")), [(3, 3)], order=2),
    GradRow("MirrorPad/SYMMETRIC", lambda x: tf.pad(x, [[2, 1], [3, 0]], "SYMMETRIC"), [(2, 3)]),
    GradRow("MirrorPadGrad", lambda g: bind(MirrorPadGrad, (tf.square(g), tf.constant([[1, 2], [0, 2]])),
                                            {"mode": "SYMMETRIC"}), [(5, 4)], order=2),
    # --- filling, selecting, sequences ---
    GradRow("Identity", lambda x: tf.identity(x) * x, [(2, 2)]),
    GradRow("ZerosLike", lambda x: x + tf.zeros_like(x), [(2, 2)]),
    GradRow("OnesLike", lambda x: x * tf.ones_like(x), [(2, 2)]),
    GradRow("Fill", lambda v: tf.fill([2, 3], v), [()]),
    GradRow("SelectV2", lambda a, b: tf.where([[True, False, True]], a, b), [(2, 3), (1, 3)]),
    GradRow("LinSpace", lambda a, b: tf.linspace(a, b, 5), [(), ()]),
    GradRow("LinSpace/n-d", lambda a, b: tf.linspace(a, b, 4, axis=1), [(2,), (2,)]),
    # --- ordering ---
    GradRow("TopKV2", lambda x: tf.math.top_k(x, 2).values, [(3, 4)], make=_distinct((3, 4))),
    GradRow("TopKV2/second-order", lambda x: tf.square(tf.math.top_k(x, 3).values), [(2, 3)],
            make=_distinct((2, 3)), order=2),
    GradRow("sort/axis0", lambda x: tf.sort(x, axis=0), [(3, 2)], make=_distinct((3, 2))),
    GradRow("sort/descending", lambda x: tf.sort(x, direction="DESCENDING"), [(2, 3)], make=_distinct((2, 3))),
]


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_gradient(row):
    check_row(row)
