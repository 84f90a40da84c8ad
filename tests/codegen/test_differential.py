"""Differential test: for every registered op, generated code == eager execution == the reference
interpreter (graph/evaluate.py).

Each row is a small function that makes the op appear in a traced graph, with example inputs. The
function runs three ways on the same tensors: eagerly, through `ConcreteFunction.__call__` (the
generated Python after all passes), and through `evaluate(cf.graph, ...)`. Values, dtypes, shapes
and anything printed must agree exactly: all three end in the same NumPy kernel, so any difference
is a codegen or pass bug (wrong argument order, lost attribute, bad folding, a dropped effect).

The row must really exercise the op: the traced graph must contain it, and the generated code must
call its kernel (unless the op is in CODE_FREE, with the reason). `test_every_op_has_a_row` fails
when an op is registered without a row here (or a reasoned entry in NO_ROW).
"""
from __future__ import annotations

import contextlib
import dataclasses
import io
import re
from typing import Callable

import numpy as np
import pytest

import eagerflow as tf
import eagerflow._src.ops
from eagerflow._src.core import nest
from eagerflow._src.graph.evaluate import evaluate
from eagerflow._src.ops.io import printing as _io
from eagerflow._src.ops.math import elementwise as _math
from eagerflow._src.ops.registry import OPS, bind
from eagerflow.saved_model.graph_io import register_every_op
from tests.codegen import (differential_rows_breadth, differential_rows_everyday, differential_rows_io,
                           differential_rows_ragged, differential_rows_sparse,
                           differential_rows_strings)
from tests.codegen import differential_rows_signal
from tests.codegen import differential_rows_linalg
from tests.codegen import differential_rows_sets
from tests.codegen import differential_rows_image
from tests.codegen import differential_rows_codecs

eagerflow._src.ops.import_every_op_module()  # every op family registers its ops

# Ops that cannot be a row of their own, and why.
NO_ROW = {
    "Placeholder": "a function input: no kernel (its value is fed); every row traces through Placeholders",
    "IteratorHasNext": "only ever the test of a While over a stream dataset, never a top-level op; "
                       "tests/data/test_streams_in_function.py runs it",
    "WriteSummary": "its effect is an event file, not a value: tests/summary/ runs it eagerly and traced "
                    "and reads the files back",
    # TensorFlow's Optional ops: only SavedModels holding a tf.cond's gradient build them (no public API);
    # tests/saved_model/test_cond_gradients.py runs them in loaded functions against finite differences
    "OptionalFromValue": "built only by loading a saved cond gradient: tests/saved_model/test_cond_gradients.py",
    "OptionalGetValue": "built only by loading a saved cond gradient: tests/saved_model/test_cond_gradients.py",
    "OptionalGradientComponents": "the gradient of a loaded cond's kept values inside a loaded loop's "
                                  "gradient: tests/saved_model/test_cond_gradients.py (loop_grad)",
    "OptionalHasValue": "never built by eagerflow's export; tests/ops/test_optional_ops.py runs it",
    "OptionalNone": "built only by loading a saved cond gradient: tests/ops/test_optional_ops.py",
}

# Ops whose generated code is not a kernel call, and why (the graph must still contain them).
CODE_FREE = {
    "Const": "bound once as a global of the generated module",
    "Identity": "forwarded to its input by passes/simplify.py (an alias at run time)",
    "StopGradient": "forwarded like Identity; only gradients (which read the graph) see it",
    "ReadVariableOp": "generated as an attribute load, `handle._array`, not a kernel call",
    "MatMul": "of matrices: generated as the expression `a @ b` (`.T` for transposes), codegen/pycode.py",
    "If": "inlined as a Python `if` over the branches' code (codegen/pycode.py)",
    "StatelessIf": "inlined as a Python `if` over the branches' code (codegen/pycode.py)",
    "While": "inlined as a Python `while` over the cond and body code (codegen/pycode.py)",
    "LoopHistoryItemGrad": "runs in the code of WhileGrad's body gradient (a kernel attribute), not in the row's",
    "StatelessWhile": "inlined as a Python `while` over the cond and body code (codegen/pycode.py)",
    "WhileGrad": "inlined as a Python `for` over the reversed history (codegen/loop_gradient.py)",
}


@dataclasses.dataclass
class Row:
    op: str
    fn: Callable
    args: tuple = ()
    dims: str = "static"  # "static" | "dynamic" (every dim None) | "unknown" (rank None): trace specs
    seed: int | None = None  # random ops: tf.random.set_seed(seed) before each of the three runs
    raises: type | None = None  # all three runs must raise this instead
    label: str = ""

    def __str__(self):
        return self.op + (f"-{self.label}" if self.label else "")


_ODD = tf.data.Dataset.range(6).filter(lambda v: v % 2 == 1)  # a stream: its pass runs in Python


def _f32(*shape, lo=-2.0, hi=2.0, seed=0):
    return np.random.default_rng(seed + len(shape)).uniform(lo, hi, shape).astype(np.float32)


def _pos(*shape):
    return _f32(*shape, lo=0.5, hi=2.0, seed=3)


def _i32(*values):
    return np.array(values, np.int32)


def _grad(f, argnums=(0,)):
    """A function returning the gradients of sum(f(*args)) wrt the chosen args: it puts the
    backward ops of f (ReluGrad, Conv2DBackpropInput, ...) into the traced graph."""
    def g(*args):
        with tf.GradientTape() as tape:
            for i in argnums:
                tape.watch(args[i])
            y = tf.reduce_sum(f(*args))
        grads = tape.gradient(y, [args[i] for i in argnums])
        return grads[0] if len(grads) == 1 else grads
    return g


def _grad3(f):
    """Third derivative (of the sum of the second): three nested tapes."""
    def g(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            z = tf.reduce_sum(_grad2(f)(x))
        return outer.gradient(z, x)
    return g


def _grad2(f):
    """Second derivative (of the sum of the first) through nested tapes: grad-of-grad ops."""
    def g(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.reduce_sum(f(x))
            dy = inner.gradient(y, x)
            z = tf.reduce_sum(dy * dy)
        return outer.gradient(z, x)
    return g


_VARS = {}


def _var(key, init):
    if key not in _VARS:
        _VARS[key] = tf.Variable(init)
    return _VARS[key]


def _assigns(x):
    v = _var("assign", np.zeros(3, np.float32))
    v.assign(tf.constant([1.0, 2.0, 3.0]))  # start from the same value in every run
    v.assign_add(x)
    v.assign_sub(x * 0.5)
    return v.read_value()


def _initializes_once(x):
    """A variable created in a trace from its arguments: the first run sets it, later runs keep it."""
    from eagerflow._src.state.initial_value import initialize_in_graph
    v = _var("init_once", np.zeros(3, np.float32))
    v._array = None  # uninitialized again before each way of running the row
    initialize_in_graph(v, x)
    initialize_in_graph(v, x * 2.0)  # no effect: already set
    return v.read_value()


def _scatter(method):
    """A row per scatter op: rows 2 and 0 of a reset variable updated from x (row 2 twice)."""
    def f(x):
        v = _var("scatter", np.ones((3, 2), np.float32))
        v.assign(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        getattr(v, method)(tf.IndexedSlices(tf.reshape(x, [3, 2]) + 3.0, tf.constant([2, 0, 2])))
        return v.read_value()
    return f


def _scatter_nd(method):
    def f(x):
        v = _var("scatter_nd", np.ones((3, 2), np.float32))
        v.assign(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        getattr(v, method)([[0, 1], [2, 0], [0, 1]], x)
        getattr(v, method)([[1]], tf.reshape(x[:2], [1, 2]))
        return v.read_value()
    return f


def _slice_assigns(x):
    v = _var("slices", np.zeros((2, 3), np.float32))
    v.assign(tf.zeros([2, 3]))
    v[0].assign(x)
    v[1, ::2].assign(x[1:] * 2.0)
    v[:, -1].assign(5.0)
    return v.read_value()


def _counts(x):
    v = _var("count", np.int32(0))
    v.assign(0)
    return v.count_up_to(3), v.count_up_to(3), v.read_value()


@tf.custom_gradient
def _custom_square(x):
    return x * x, lambda dy: dy * 2.0 * x


def _adam_update(g):
    from eagerflow._src.ops.registry import bind
    from eagerflow._src.ops.variables.training_ops import AdamUpdate
    var, m, v = (_var(k, np.zeros(3, np.float32)) for k in ("adam_var", "adam_m", "adam_v"))
    for holder, start in ((var, [1.0, -2.0, 0.5]), (m, [0.1, 0.0, -0.2]), (v, [0.01, 0.0, 0.04])):
        holder.assign(tf.constant(start))  # the same state in every run
    scalars = [tf.constant(c, tf.float32) for c in (0.81, 0.998, 0.01, 0.1, 0.001, 1e-7)]
    bind(AdamUpdate, (var.handle, m.handle, v.handle, *scalars, g))
    return var.read_value() + m.read_value() * 10.0 + v.read_value() * 100.0


def _inner_stateless():
    return tf.function(lambda x: tf.sin(x) * 2.0).get_concrete_function(tf.TensorSpec([3]))


def _inner_stateful():
    return tf.function(lambda x: tf.random.uniform([3], seed=4) + x).get_concrete_function(tf.TensorSpec([3]))


def _checked_double(x):
    """x * 2 behind a stateful assert: makes the enclosing branch or loop body stateful."""
    tf.debugging.assert_less(x, 1e6)
    return x * 2.0


def _call(make):
    from eagerflow._src.ops.control.call import call_function

    def f(x):
        return call_function(make(), [x])
    return f


def _resize_v1(op_name, align_corners):
    """TF1's resize ops with align_corners=True, or with half_pixel_centers=False (pixel corners at
    integer coordinates): the semantics tf.image.resize (TF2) never picks, upsampling to 7x5."""
    from eagerflow._src.ops.image import resizing as image

    def f(x):
        return bind(getattr(image, op_name), (x, tf.constant([7, 5])),
                    {"align_corners": align_corners, "half_pixel_centers": False})
    return f


def _img(n=1, h=4, w=4, c=2):
    return _f32(n, h, w, c, seed=5)


X = _f32(2, 3)
Y = _f32(2, 3, seed=1)
P = _pos(2, 3)
B = np.array([[True, False, True], [False, False, True]])
B2 = np.array([[True, True, False], [False, True, True]])
I = np.array([[5, -3, 12], [7, 0, -9]], np.int32)
I2 = np.array([[3, 6, -5], [2, 4, 1]], np.int32)
SMALL_INT = np.array([[2, -3, 4], [7, 1, -2]], np.int32)
NONZERO_INT = np.array([[3, -2, 5], [2, 4, -1]], np.int32)
CX = (X + 1j * Y).astype(np.complex64)  # complex inputs: the complex formulas, not the real ones
CY = (Y - 0.5j * X).astype(np.complex64)
M = tf.math

def _ta(size, **kwargs):
    from eagerflow._src.control_flow.tensor_array import TensorArray
    return TensorArray(tf.float32, size=size, **kwargs)


def _list_read_out_of_range():
    """The op itself (an eager TensorArray checks indices in Python, with its own message)."""
    from eagerflow._src.ops.control import lists
    from eagerflow._src.ops.registry import bind
    lst = bind(lists.TensorListReserve, (tf.constant([2]), tf.constant(2)), {"element_dtype": tf.float32})
    return bind(lists.TensorListGetItem, (lst, tf.constant(5), tf.constant([2])), {"element_dtype": tf.float32})


ROWS = [
    # --- elementwise binary ---
    Row("AddV2", tf.add, (X, Y)),
    Row("Sub", tf.subtract, (X, Y)),
    Row("Mul", tf.multiply, (X, Y)),
    Row("RealDiv", tf.divide, (X, P)),
    Row("DivNoNan", M.divide_no_nan, (X, np.array([[1, 0, 2], [0, 3, 1]], np.float32))),
    Row("FloorDiv", M.floordiv, (I, NONZERO_INT)),
    Row("FloorMod", M.floormod, (I, NONZERO_INT)),
    Row("Pow", tf.pow, (P, Y)),
    Row("Maximum", tf.maximum, (X, Y)),
    Row("Minimum", tf.minimum, (X, Y)),
    Row("SquaredDifference", M.squared_difference, (X, Y)),
    Row("SquaredDifference", M.squared_difference, (CX, CY), label="complex"),
    Row("Equal", tf.equal, (I, np.array([[5, 0, 12], [1, 0, -9]], np.int32))),
    Row("NotEqual", tf.not_equal, (I, I2)),
    Row("Less", tf.less, (X, Y)),
    Row("LessEqual", tf.less_equal, (I, I2)),
    Row("Greater", tf.greater, (X, Y)),
    Row("GreaterEqual", tf.greater_equal, (I, I2)),
    Row("LogicalAnd", tf.logical_and, (B, B2)),
    Row("LogicalOr", tf.logical_or, (B, B2)),
    Row("LogicalXor", M.logical_xor, (B, B2)),
    Row("LogicalNot", tf.logical_not, (B,)),
    Row("BitwiseAnd", _math.bitwise_and, (I, I2)),
    Row("BitwiseOr", _math.bitwise_or, (I, I2)),
    Row("BitwiseXor", _math.bitwise_xor, (I, I2)),
    Row("Invert", _math.invert, (I,)),
    # --- elementwise unary ---
    Row("Neg", tf.negative, (X,)),
    Row("Abs", tf.abs, (X,)),
    Row("Sign", tf.sign, (X,)),
    Row("Exp", tf.exp, (X,)),
    Row("Expm1", M.expm1, (X,)),
    Row("Log", M.log, (P,)),
    Row("Log1p", M.log1p, (P,)),
    Row("Sqrt", tf.sqrt, (P,)),
    Row("Rsqrt", M.rsqrt, (P,)),
    Row("Square", tf.square, (X,)),
    Row("Reciprocal", M.reciprocal, (P,)),
    Row("Sin", tf.sin, (X,)),
    Row("Cos", tf.cos, (X,)),
    Row("Tan", M.tan, (X * 0.5,)),
    Row("Tanh", tf.tanh, (X,)),
    Row("Sigmoid", tf.sigmoid, (X,)),
    Row("Sigmoid", tf.sigmoid, (CX,), label="complex"),
    Row("Sign", lambda x: bind(_math.Sign, (x,)), (CX,), label="complex"),  # the raw op: tf.sign composes z/|z|
    Row("ComplexAbs", tf.sign, (CX,), label="via-sign"),
    Row("ComplexAbs", tf.abs, (CX,)),
    Row("Real", M.real, (CX,)),
    Row("Imag", M.imag, (CX,)),
    Row("Conj", M.conj, (CX,)),
    Row("Erf", M.erf, (X,)),
    Row("Round", tf.round, (X * 3,)),
    Row("Floor", tf.floor, (X,)),
    Row("Ceil", M.ceil, (X,)),
    Row("IsNan", M.is_nan, (np.array([1.0, np.nan, np.inf], np.float32),)),
    Row("IsInf", M.is_inf, (np.array([1.0, np.nan, -np.inf], np.float32),)),
    Row("IsFinite", M.is_finite, (np.array([1.0, np.nan, np.inf], np.float32),)),
    Row("Cast", lambda x: tf.cast(x, tf.int32), (X * 3,)),
    Row("AddN", lambda a, b: tf.add_n([a, b, a]), (X, Y)),
    Row("ClipByValue", lambda x, lo, hi: tf.clip_by_value(x, lo, hi),
        (X, np.float32(-0.5), np.float32(0.5))),
    Row("MatMul", lambda a, b: tf.matmul(a, b, transpose_b=True), (X, Y)),
    Row("BatchMatMulV2", tf.matmul, (_f32(2, 2, 3), _f32(2, 3, 4, seed=1))),
    Row("BatchMatMulV2", lambda a, b: tf.matmul(a, b, adjoint_a=True),
        ((_f32(2, 3, 2) + 1j * _f32(2, 3, 2, seed=2)).astype(np.complex64), _f32(2, 3, 4, seed=1).astype(np.complex64)),
        label="complex-adjoint"),
    Row("MatMul", lambda a, b: tf.matmul(a, b, adjoint_b=True), (CX, CY), label="complex-adjoint"),
    Row("SumToShape", _grad(tf.add, (0, 1)), (_f32(2, 1), _f32(1, 3, seed=1))),
    # --- arrays ---
    Row("Const", lambda x: x + tf.constant([1.0, 2.0, 3.0]), (X,)),
    Row("Shape", tf.shape, (X,), dims="dynamic"),
    Row("Size", tf.size, (X,), dims="dynamic"),
    Row("Rank", tf.rank, (X,), dims="unknown"),
    Row("Reshape", lambda x: tf.reshape(x, [3, -1]), (X,)),
    Row("Transpose", lambda x: tf.transpose(x, [1, 0]), (X,)),
    Row("InvertPermutation", eagerflow._src.ops.array.basic.invert_permutation, (_i32(2, 0, 3, 1),)),
    Row("ReversedRange", tf.transpose, (_f32(2, 3, 4),), dims="unknown"),
    Row("ZerosLike", tf.zeros_like, (X,)),
    Row("OnesLike", tf.ones_like, (I,)),
    Row("Fill", lambda d, v: tf.fill(d, v), (_i32(2, 3), np.float32(1.5))),
    Row("Identity", tf.identity, (X,)),
    Row("StopGradient", tf.stop_gradient, (X,)),
    Row("SelectV2", tf.where, (B, X, Y)),
    Row("Where", tf.where, (B,)),
    Row("BroadcastTo", lambda x: tf.broadcast_to(x, [2, 2, 3]), (X,)),
    Row("Pack", lambda a, b: tf.stack([a, b], axis=1), (X, Y)),
    Row("Unpack", lambda x: tf.unstack(x, axis=1), (X,)),
    Row("ConcatV2", lambda a, b: tf.concat([a, b], axis=-1), (X, Y)),
    Row("Split", lambda x: tf.split(x, 3, axis=1), (X,)),
    Row("SplitV", lambda x: tf.split(x, [1, 2], axis=1), (X,)),
    Row("Squeeze", lambda x: tf.squeeze(x, [1]), (_f32(2, 1, 3),)),
    Row("ExpandDims", lambda x: tf.expand_dims(x, 1), (X,)),
    Row("Tile", lambda x, m: tf.tile(x, m), (X, _i32(2, 1))),
    Row("Pad", lambda x: tf.pad(x, [[1, 0], [0, 2]]), (X,)),
    Row("PadV2", lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=7.0), (X,)),
    Row("MirrorPad", lambda x: tf.pad(x, [[1, 1], [2, 0]], mode="REFLECT"), (X,)),
    Row("MirrorPadGrad", _grad(lambda x: tf.pad(x, [[1, 1], [2, 0]], mode="SYMMETRIC")), (X,)),
    Row("ReverseV2", lambda x: tf.reverse(x, [1]), (X,)),
    Row("Range", tf.range, (np.int32(1), np.int32(11), np.int32(3))),
    Row("LinSpace", lambda a, b: tf.linspace(a, b, 5), (np.float32(0.0), np.float32(2.0))),
    Row("OneHot", lambda i: tf.one_hot(i, 4, on_value=2.0, off_value=-1.0), (_i32(0, 3, 1),)),
    Row("TopKV2", lambda x: tf.math.top_k(x, k=2), (X,)),
    # --- reductions ---
    Row("ProdOfOthers", _grad(lambda x: tf.reduce_prod(x, axis=1)), (X,)),
    Row("ReducedShape", _grad(lambda x: tf.reduce_sum(x, axis=1)), (X,), dims="dynamic"),
    Row("Sum", lambda x: tf.reduce_sum(x, axis=0), (X,)),
    Row("Mean", lambda x: tf.reduce_mean(x, axis=1, keepdims=True), (X,)),
    Row("Max", tf.reduce_max, (X,)),
    Row("Min", lambda x: tf.reduce_min(x, axis=-1), (I,)),
    Row("Prod", lambda x: tf.reduce_prod(x, axis=0), (X,)),
    Row("Any", lambda b: tf.reduce_any(b, axis=1), (B,)),
    Row("All", tf.reduce_all, (B2,)),
    Row("RangeOfRank", tf.reduce_sum, (X,), dims="unknown"),
    Row("ArgMax", lambda x: tf.argmax(x, axis=1), (X,)),
    Row("ArgMin", lambda x: tf.argmin(x, axis=0, output_type=tf.int32), (X,)),
    Row("Cumsum", lambda x: tf.cumsum(x, axis=1, exclusive=True, reverse=True), (X,)),
    # --- slicing ---
    Row("StridedSlice", lambda x: x[1:, ::-2], (X,)),
    Row("StridedSliceGrad", _grad(lambda x: x[:, 1:] * 2.0), (X,), dims="dynamic"),
    Row("Slice", lambda x: tf.slice(x, [0, 1], [2, 2]), (X,)),
    Row("GatherV2", lambda x, i: tf.gather(x, i, axis=1), (X, _i32(2, 0, 2))),
    Row("GatherNd", tf.gather_nd, (X, np.array([[1, 2], [0, 0]], np.int32))),
    Row("ScatterNd", lambda i, u: tf.scatter_nd(i, u, [4]), (np.array([[1], [3]], np.int32), _f32(2))),
    # --- state, effects ---
    Row("ReadVariableOp", lambda x: x * _var("read", np.float32(3.0)), (X,)),
    Row("AssignVariableOp", _assigns, (_f32(3),)),
    Row("AssignAddVariableOp", _assigns, (_f32(3),)),
    Row("AssignSubVariableOp", _assigns, (_f32(3),)),
    Row("AssignVariableIfUninitialized", _initializes_once, (_f32(3),)),
    Row("IdentityN", _custom_square, (_f32(3),)),
    Row("ResourceScatterUpdate", _scatter("scatter_update"), (_f32(6),)),
    Row("ResourceScatterAdd", _scatter("scatter_add"), (_f32(6),)),
    Row("ResourceScatterSub", _scatter("scatter_sub"), (_f32(6),)),
    Row("ResourceScatterMul", _scatter("scatter_mul"), (_f32(6),)),
    Row("ResourceScatterDiv", _scatter("scatter_div"), (_f32(6),)),
    Row("ResourceScatterMax", _scatter("scatter_max"), (_f32(6),)),
    Row("ResourceScatterMin", _scatter("scatter_min"), (_f32(6),)),
    Row("ResourceScatterNdUpdate", _scatter_nd("scatter_nd_update"), (_f32(3),)),
    Row("ResourceScatterNdAdd", _scatter_nd("scatter_nd_add"), (_f32(3),)),
    Row("ResourceScatterNdSub", _scatter_nd("scatter_nd_sub"), (_f32(3),)),
    Row("ResourceScatterNdMax", _scatter_nd("scatter_nd_max"), (_f32(3),)),
    Row("ResourceScatterNdMin", _scatter_nd("scatter_nd_min"), (_f32(3),)),
    Row("ResourceCountUpTo", _counts, (_f32(1),)),
    Row("ResourceStridedSliceAssign", _slice_assigns, (_f32(3),)),
    Row("IdentityN", _grad(_custom_square), (_f32(3),), label="grad"),
    Row("AdamUpdate", _adam_update, (_f32(3),)),
    Row("StringFormat", lambda x: _io.string_format("x={} and {}", [x, x * 2]), (I,)),
    Row("PrintV2", lambda x: (tf.print("value:", x, summarize=2), x + 1)[1], (I,)),
    Row("Assert", lambda x: (tf.debugging.Assert(tf.reduce_all(x > -5.0), [x]), x * 2.0)[1], (X,)),
    Row("Assert", lambda x: (tf.debugging.Assert(tf.reduce_all(x > 0.0), [x]), x * 2.0)[1], (X,),
        raises=tf.errors.InvalidArgumentError, label="fails"),
    Row("CheckNumerics", lambda x: tf.debugging.check_numerics(x, "bad"), (X,)),
    Row("CheckNumerics", lambda x: tf.debugging.check_numerics(tf.math.log(x), "bad"), (X,),
        raises=tf.errors.InvalidArgumentError, label="fails"),
    Row("Einsum", lambda a, b: tf.einsum("ij,kj->ik", a, b), (X, Y)),
    # --- images, convolutions, pooling ---
    Row("ResizeBilinear", lambda x: tf.image.resize(x, [6, 3]), (_img(),)),
    Row("ResizeBilinearGrad", _grad(lambda x: tf.image.resize(x, [6, 3])), (_img(),)),
    Row("ResizeNearestNeighbor", lambda x: tf.image.resize(x, [6, 3], method="nearest"), (_img(),)),
    Row("ResizeNearestNeighborGrad", _grad(lambda x: tf.image.resize(x, [6, 3], method="nearest")), (_img(),)),
    Row("ResizeBilinear", _resize_v1("ResizeBilinear", True), (_img(),), label="align_corners"),
    Row("ResizeBilinearGrad", _grad(_resize_v1("ResizeBilinear", True)), (_img(),), label="align_corners"),
    Row("ResizeBilinear", _resize_v1("ResizeBilinear", False), (_img(),), label="corner_centers"),
    Row("ResizeNearestNeighbor", _resize_v1("ResizeNearestNeighbor", True), (_img(),), label="align_corners"),
    Row("ResizeNearestNeighbor", _resize_v1("ResizeNearestNeighbor", False), (_img(),), label="corner_centers"),
    Row("ResizeNearestNeighborGrad", _grad(_resize_v1("ResizeNearestNeighbor", True)), (_img(),),
        label="align_corners"),
    Row("ResizeBicubic", lambda x: tf.image.resize(x, [6, 3], method="bicubic"), (_img(),)),
    Row("ResizeBicubicGrad", _grad(lambda x: tf.image.resize(x, [6, 3], method="bicubic")), (_img(),)),
    Row("ResizeArea", lambda x: tf.image.resize(x, [2, 5], method="area"), (_img(),)),
    Row("ScaleAndTranslate", lambda x: tf.image.resize(x, [3, 2], antialias=True), (_img(),)),
    Row("ScaleAndTranslateGrad", _grad(lambda x: tf.image.resize(x, [3, 2], antialias=True)), (_img(),)),
    Row("Conv2D", lambda x, w: tf.nn.conv2d(x, w, strides=1, padding="SAME"), (_img(), _f32(2, 2, 2, 3, seed=2))),
    Row("Conv2DBackpropInput", _grad(lambda x, w: tf.nn.conv2d(x, w, 2, "VALID"), (0,)),
        (_img(), _f32(2, 2, 2, 3, seed=2))),
    Row("Conv2DBackpropFilter", _grad(lambda x, w: tf.nn.conv2d(x, w, 1, "SAME"), (1,)),
        (_img(), _f32(2, 2, 2, 3, seed=2))),
    Row("MaxPool", lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), (_img(),)),
    Row("MaxPoolGrad", _grad(lambda x: tf.nn.max_pool2d(x, 2, 1, "SAME")), (_img(),)),
    Row("MaxPoolWithArgmax", lambda x: tf.nn.max_pool_with_argmax(x, 2, [1, 2], "SAME", include_batch_in_index=True),
        (_img(2),)),
    Row("MaxPoolGradWithArgmax", _grad(lambda x: tf.nn.max_pool_with_argmax(x, 2, 1, "SAME")[0]), (_img(2),)),
    Row("MaxPoolGradGrad", _grad2(lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID") ** 2), (_img(),)),
    Row("AvgPool", lambda x: tf.nn.avg_pool2d(x, 2, 1, "SAME"), (_img(),)),
    Row("AvgPoolGrad", _grad(lambda x: tf.nn.avg_pool2d(x, 2, 2, "VALID")), (_img(),)),
    # --- random (seeded: the three runs restart the same stream) ---
    Row("RandomStandardNormal", lambda: tf.random.normal([2, 3], seed=1), seed=11),
    Row("RandomUniform", lambda: tf.random.uniform([4], seed=2), seed=11),
    Row("TruncatedNormal", lambda: tf.random.truncated_normal([5], seed=3), seed=11),
    Row("RandomUniformInt", lambda: tf.random.uniform([5], 0, 10, dtype=tf.int32, seed=4), seed=11),
    Row("RandomShuffle", lambda x: tf.random.shuffle(x, seed=5), (np.arange(6, dtype=np.int32),), seed=11),
    Row("Multinomial", lambda x: tf.random.categorical(x, 4, seed=6), (X,), seed=11),
    # --- tf.data: a shuffle's order drawn in the graph; a stream's run-time pass (data/stream.py) ---
    Row("ShuffleOrder", lambda: tf.data.Dataset.range(8).shuffle(3, seed=7).reduce(
        tf.constant(0, tf.int64), lambda s, v: s * 10 + v), seed=11),
    Row("IteratorOpenPass", lambda x: next(iter(_ODD)) + x, (np.array([1, 2], np.int64),)),
    Row("IteratorGetNext", lambda x: next(iter(_ODD)) * x, (np.array([1, 2], np.int64),)),
    # --- nn ---
    Row("Relu", tf.nn.relu, (X,)),
    Row("ReluGrad", _grad(tf.nn.relu), (X,)),
    Row("Relu6", tf.nn.relu6, (X * 5,)),
    Row("Elu", tf.nn.elu, (X,)),
    Row("Selu", tf.nn.selu, (X,)),
    Row("Softplus", tf.nn.softplus, (X,)),
    Row("LeakyRelu", lambda x: tf.nn.leaky_relu(x, alpha=0.3), (X,)),
    Row("Softmax", tf.nn.softmax, (X,)),
    Row("LogSoftmax", tf.nn.log_softmax, (X,)),
    Row("SoftmaxCrossEntropyWithLogits", lambda lab, x: tf.nn.softmax_cross_entropy_with_logits(lab, x),
        (np.array([[0, 1, 0], [0.5, 0, 0.5]], np.float32), X)),
    Row("SparseSoftmaxCrossEntropyWithLogits",
        lambda lab, x: tf.nn.sparse_softmax_cross_entropy_with_logits(lab, x), (_i32(2, 0), X)),
    Row("L2Loss", tf.nn.l2_loss, (X,)),
    Row("BiasAdd", tf.nn.bias_add, (X, _f32(3, seed=4))),
    Row("BiasAddGrad", _grad(tf.nn.bias_add, (1,)), (X, _f32(3, seed=4))),
    # --- control flow: tf.cond (If / StatelessIf) and tf.while_loop (While / StatelessWhile) ---
    Row("StatelessIf", lambda x, p: tf.cond(p, lambda: x * 2.0, lambda: x - 1.0), (X, np.array(True)), label="true"),
    Row("StatelessIf", lambda x, p: tf.cond(p, lambda: x * 2.0, lambda: x - 1.0), (X, np.array(False)),
        label="false"),
    Row("If", lambda x, p: tf.cond(p, lambda: _checked_double(x), lambda: x - 1.0), (X, np.array(True))),
    Row("StatelessWhile", lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * 2.0), (0, x))[1],
        (X,)),
    Row("While", lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, _checked_double(y)), (0, x))[1],
        (X,)),
    Row("WhileGrad", _grad(lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, tf.sin(y)),
                                                   (0, x))[1]), (X,)),
    Row("LoopHistoryStack", _grad2(lambda x: tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, y * x),
                                                           (0, x))[1]), (_pos(3),)),
    Row("LoopHistoryLength", _grad2(lambda x: tf.while_loop(lambda i, y: tf.reduce_sum(y) < 30.0, lambda i, y: (
        i + 1, y * (x + 1.0)), (0, x), maximum_iterations=4)[1]), (_pos(3),)),
    Row("LoopHistorySeedStacks", _grad3(lambda x: tf.while_loop(lambda i, y: i < 2, lambda i, y: (
        i + 1, y * x), (0, x))[1]), (np.array([1.0, 2.0, 0.5], np.float32),)),  # exact: 108 x^2
    Row("LoopHistorySeeds", _grad2(lambda x: tf.while_loop(lambda i, y: i < 2, lambda i, y: (i + 1, tf.sin(y * x)),
                                                           (0, x))[1]), (_pos(3),)),
    # --- a cond's gradient reads the values its forward kept (control_flow/cond_gradient.py) ---
    Row("IfKeptValue", _grad(lambda x, p: tf.cond(p, lambda: tf.sin(x) * x, lambda: x * x)), (X, np.array(True))),
    Row("IfKeptGradient", _grad2(lambda x: tf.cond(tf.reduce_sum(x) > 0.0, lambda: tf.sin(x) * x, lambda: x * x)),
        (_pos(3),)),
    Row("IfKeptSeed", _grad2(lambda x: tf.cond(tf.reduce_sum(x) < 0.0, lambda: x * x, lambda: tf.exp(x) * x)),
        (_pos(3),)),
    Row("LoopHistoryItem", _grad2(lambda x: tf.while_loop(
        lambda i, y: i < 2, lambda i, y: (i + 1, tf.cond(tf.reduce_sum(y) > 0.0, lambda: y * x, lambda: y)),
        (0, x))[1]), (_pos(3),)),
    Row("LoopHistoryItemGrad", _grad2(lambda x: tf.while_loop(
        lambda i, y: i < 2, lambda i, y: (i + 1, tf.cond(tf.reduce_sum(y) < 0.0, lambda: y, lambda: tf.square(y) * x)),
        (0, x))[1]), (_pos(3),)),
    # --- calls of traced functions as one op ---
    Row("PartitionedCall", _call(_inner_stateless), (_f32(3),)),
    Row("StatefulPartitionedCall", _call(_inner_stateful), (_f32(3),), seed=11),
    # --- TensorList ops behind tf.TensorArray (ops/control/lists.py) ---
    Row("TensorListReserve", lambda x: _ta(3).write(1, x).stack(), (_f32(2),)),
    Row("TensorListSetItem", lambda x: _ta(2).write(0, x).write(1, x * 2.0).stack(), (_f32(2),)),
    Row("TensorListGetItem", lambda x: _ta(2, clear_after_read=False).unstack(x).read(1), (X,)),
    Row("TensorListStack", lambda x: _ta(2).unstack(x).stack(), (X,)),
    Row("TensorListFromTensor", lambda x: _ta(2).unstack(x).read(0), (X,)),
    Row("TensorListGather", lambda x: _ta(2).unstack(x).gather([1, 1, 0]), (X,)),
    Row("TensorListScatterIntoExistingList", lambda x: _ta(3).scatter([2, 0], x).stack(), (X,)),
    Row("TensorListConcatV2", lambda x: _ta(2).unstack(x).concat(), (X,)),
    Row("TensorListSplit", lambda x: _ta(2).split(x, [1, 2]).concat(), (_f32(3),)),
    Row("TensorListLength", lambda x: _ta(1, dynamic_size=True).unstack(x).size(), (X,)),
    Row("TensorListGetItem", _list_read_out_of_range, raises=tf.errors.InvalidArgumentError, label="out-of-range"),
]
ROWS += differential_rows_everyday.rows(Row)  # tf.linalg / tf.math additions (issue 9), in their own file
ROWS += differential_rows_strings.rows(Row)  # tf.strings
ROWS += differential_rows_breadth.rows(Row)  # tf.nn / tf.math / tf.random breadth, in their own file
ROWS += differential_rows_io.rows(Row)  # tf.io
ROWS += differential_rows_codecs.rows(Row)  # tf.io / tf.audio image and sound files
ROWS += differential_rows_signal.rows(Row)  # tf.signal
ROWS += differential_rows_linalg.rows(Row)  # tf.linalg: expm, sqrtm, logm, lu, eig, banded solve, eigh_tridiagonal
ROWS += differential_rows_sparse.rows(Row)  # tf.sparse
ROWS += differential_rows_ragged.rows(Row)  # tf.ragged, tf.strings.split
ROWS += differential_rows_sets.rows(Row)  # tf.bitcast, tf.sets
from tests.codegen import differential_rows_ctc  # noqa: E402
ROWS += differential_rows_ctc.rows(Row)  # tf.nn CTC losses, tf.linalg.experimental.conjugate_gradient
from tests.codegen import differential_rows_lookup  # noqa: E402
ROWS += differential_rows_lookup.rows(Row)  # VocabularyLookup (Keras StringLookup / IntegerLookup)
ROWS += differential_rows_lookup.bucketize_rows(Row)  # Bucketize (a Keras Discretization in TensorFlow's files)
ROWS += differential_rows_lookup.fused_batch_norm_rows(Row)  # FusedBatchNormV3 (tf.keras 2 BatchNormalization)
ROWS += differential_rows_lookup.gradient_op_rows(Row)  # TensorFlow's gradient ops in saved training steps
ROWS += differential_rows_lookup.saved_custom_gradient_rows(Row)  # a custom gradient TensorFlow saved
ROWS += differential_rows_lookup.text_token_rows(Row)  # UnicodeCharSplit, StringNGrams (TextVectorization)
from tests.codegen import differential_rows_lookup_tables  # noqa: E402
ROWS += differential_rows_lookup_tables.rows(Row)  # tf.lookup StaticHashTable / StaticVocabularyTable
ROWS += differential_rows_lookup_tables.mutable_rows(Row)  # MutableHashTable's insert / remove
ROWS += differential_rows_image.rows(Row)  # tf.image colour spaces, hue and saturation
from tests.codegen import differential_rows_errmath  # noqa: E402
ROWS += differential_rows_errmath.rows(Row)  # tf.io byte codecs, tf.strings Unicode and ngrams, tf.nn 3-D windows


def _spec(array, dims):
    dtype = tf.as_dtype(array.dtype)
    if dims == "unknown":
        return tf.TensorSpec(None, dtype)
    if dims == "dynamic":
        return tf.TensorSpec([None] * array.ndim, dtype)
    return tf.TensorSpec(array.shape, dtype)


def _run(row, call, tensors):
    """(flat output arrays, printed text) of one way of running the row, or the error it raised."""
    if row.seed is not None:
        tf.random.set_seed(row.seed)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if row.raises is not None:
            with pytest.raises(row.raises) as info:
                call(*tensors)
            return info.value, out.getvalue() + err.getvalue()
        result = call(*tensors)
    flat = [np.asarray(t.numpy()) for t in nest.flatten(result, expand_composites=True) if t is not None]
    return flat, out.getvalue() + err.getvalue()


def _assert_same(expected, got, how):
    assert len(expected) == len(got), f"{how}: {len(got)} outputs, eager gave {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        assert e.dtype == g.dtype, f"{how}: output {i} dtype {g.dtype}, eager {e.dtype}"
        assert e.shape == g.shape, f"{how}: output {i} shape {g.shape}, eager {e.shape}"
        if e.dtype.kind in "fc":
            np.testing.assert_array_equal(g, e, err_msg=f"{how}: output {i}")  # nan == nan here
        else:
            assert np.array_equal(g, e), f"{how}: output {i}\n{g}\n!=\n{e}"


def _op_types(graph):
    """Op types in a graph and in its control-flow ops' sub-graphs (a cond gradient's ops live in
    the gradient If's branches)."""
    types = set()
    for op in graph.get_operations():
        types.add(op.type)
        for value in op.attrs.values():
            sub = getattr(value, "graph", None)
            if sub is not None and sub is not graph and hasattr(sub, "get_operations"):
                types |= _op_types(sub)
    return types


@pytest.fixture
def _no_static_shape_folding(monkeypatch):
    """Each row must run its op's kernel: shape queries of known shapes would otherwise fold away
    (passes/fold.py), which tests/passes/test_fold.py covers."""
    from eagerflow._src.passes import fold
    monkeypatch.setattr(fold, "_FROM_STATIC_SHAPE", {})


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_generated_code_matches_eager_and_reference_interpreter(row, _no_static_shape_folding):
    tensors = [tf.constant(a) for a in row.args]
    with np.errstate(all="ignore"):
        eager, eager_text = _run(row, row.fn, tensors)
        if row.seed is not None:
            tf.random.set_seed(row.seed)  # traced attributes take their seeds from the same state
        cf = tf.function(row.fn).get_concrete_function(*[_spec(a, row.dims) for a in row.args])
        graph_types = _op_types(cf.graph)
        assert row.op in graph_types, f"the row does not trace to a {row.op} op: {sorted(graph_types)}"
        if row.op not in CODE_FREE:
            assert re.search(rf"\bk_{row.op}(_\d+)?\(", cf.code), f"generated code never calls {row.op}:\n{cf.code}"
        generated, generated_text = _run(row, cf, tensors)
        structure = cf.graph.structured_outputs
        reference, reference_text = _run(row, lambda *ts: evaluate(cf.graph, list(ts), structure), tensors)
    if row.raises is not None:  # pytest.raises checked the class; the message must agree too
        first_line = str(eager).split("\n")[0].split(" [Op:")[0]
        for err in (generated, reference):
            assert first_line in str(err)
        return
    _assert_same(eager, generated, "generated code")
    _assert_same(eager, reference, "graph/evaluate.py")
    assert generated_text == eager_text and reference_text == eager_text


def test_every_op_has_a_row():
    register_every_op()  # the lazily imported modules' ops too, whatever this process has loaded so far
    covered = {row.op for row in ROWS} | set(NO_ROW)
    missing = sorted(name for name in OPS if name not in covered)
    assert not missing, (f"ops without a differential row in {__file__}: {missing}. Add a Row (or an entry "
                         f"with its reason in NO_ROW).")
    unknown = sorted(covered - set(OPS))
    assert not unknown, f"rows for ops that are not registered: {unknown}"


def test_rows_cover_effects_and_errors():
    """Rows with effects compare printed text, and failing rows compare errors: keep both kinds."""
    assert any(row.raises for row in ROWS)
    assert {"PrintV2", "Assert", "AssignAddVariableOp"} <= {row.op for row in ROWS}
