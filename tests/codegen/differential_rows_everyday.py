"""Differential rows (generated code == eager == reference interpreter) for the tf.linalg and
tf.math ops of issue 9 point 5, kept beside test_differential.py so its table stays one file per job.
`rows(Row)` builds them with that test's Row class."""
import numpy as np

import eagerflow as tf

_RNG = np.random.default_rng(11)
SQUARE = (_RNG.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)).astype(np.float32)
SPD = (SQUARE @ SQUARE.T).astype(np.float32)
BATCH = (_RNG.uniform(-1, 1, (2, 3, 3)) + 3 * np.eye(3)).astype(np.float32)
RHS = _RNG.uniform(-1, 1, (3, 2)).astype(np.float32)
TALL = _RNG.uniform(-1, 1, (4, 3)).astype(np.float32)
UNIT = _RNG.uniform(-0.9, 0.9, (2, 3)).astype(np.float32)
POS = _RNG.uniform(1.2, 3.0, (2, 3)).astype(np.float32)
DATA = _RNG.uniform(-2, 2, (4, 2)).astype(np.float32)


_GEN = tf.random.Generator.from_seed(7)


def _generator_draw(method, *args, **kwargs):
    """A draw after resetting the generator: each of the table's three runs sees the same state."""
    def draw(x):
        _GEN.reset_from_seed(7)
        return getattr(_GEN, method)(*args, **kwargs) + tf.cast(tf.reduce_sum(x) * 0, kwargs.get("dtype", tf.float32))
    return draw


def rows(Row):
    M, L = tf.math, tf.linalg
    return [
        Row("MatrixInverse", L.inv, (BATCH,)),
        Row("MatrixInverse", lambda x: L.inv(x), (np.ones((2, 2), np.float32),), raises=tf.errors.InvalidArgumentError,
            label="singular"),
        Row("MatrixDeterminant", L.det, (BATCH,)),
        Row("LogMatrixDeterminant", lambda x: tuple(L.slogdet(x)), (BATCH,)),
        Row("MatrixSolve", L.solve, (SQUARE, RHS)),
        Row("MatrixSolve", lambda a, b: L.solve(a, b, adjoint=True), (SQUARE, RHS), label="adjoint", dims="dynamic"),
        Row("MatrixTriangularSolve", lambda a, b: L.triangular_solve(a, b, lower=False), (SQUARE, RHS)),
        Row("Cholesky", L.cholesky, (SPD,)),
        Row("Qr", lambda x: tuple(L.qr(x)), (TALL,)),
        Row("Svd", L.svd, (TALL,)),
        Row("Svd", lambda x: L.svd(x, compute_uv=False), (TALL,), label="values"),
        Row("SelfAdjointEigV2", L.eigh, (SPD,)),
        Row("MatrixDiagV3", lambda d: L.diag(d, k=1), (UNIT,)),
        Row("MatrixDiagPartV3", lambda x: L.diag_part(x, k=-1), (TALL,)),
        Row("MatrixSetDiagV3", lambda x, d: L.set_diag(x, d), (SQUARE, UNIT[0])),
        Row("MatrixDiagV3", lambda d: L.diag(d, k=(-1, 0), align="LEFT_LEFT"), (UNIT,), label="band"),
        Row("MatrixDiagPartV3", lambda x: L.diag_part(x, k=(-1, 1), padding_value=7), (TALL,), label="band"),
        Row("MatrixBandPart", lambda x: L.band_part(x, 1, 0), (BATCH,)),
        Row("Lgamma", M.lgamma, (POS,)),
        Row("Digamma", M.digamma, (POS,)),
        Row("Polygamma", M.polygamma, (np.ones((2, 3), np.float32), POS)),
        Row("Erfc", M.erfc, (UNIT,)),
        Row("Sinh", M.sinh, (UNIT,)),
        Row("Cosh", M.cosh, (UNIT,)),
        Row("Asin", M.asin, (UNIT,)),
        Row("Acos", M.acos, (UNIT,)),
        Row("Atan", M.atan, (UNIT,)),
        Row("Asinh", M.asinh, (UNIT,)),
        Row("Acosh", M.acosh, (POS,)),
        Row("Atanh", M.atanh, (UNIT,)),
        Row("Atan2", M.atan2, (UNIT, POS)),
        Row("Xlogy", M.xlogy, (UNIT, POS)),
        Row("Cumprod", lambda x: M.cumprod(x, axis=1, exclusive=True, reverse=True), (POS,)),
        Row("SegmentSum", lambda x: M.segment_sum(x, tf.constant([0, 0, 1, 3])), (DATA,)),
        Row("UnsortedSegmentSum", lambda x: M.unsorted_segment_sum(x, tf.constant([2, -1, 0, 2]), 3), (DATA,)),
        Row("DenseBincount", lambda a: M.bincount(a, minlength=6), (np.array([1, 1, 4, 0], np.int32),)),
        Row("SegmentMax", lambda x: M.segment_max(x, tf.constant([0, 0, 2, 2])), (DATA,)),
        Row("SegmentMin", lambda x: M.segment_min(x, tf.constant([0, 1, 1, 1])), (DATA,)),
        Row("UnsortedSegmentMax", lambda x: M.unsorted_segment_max(x, tf.constant([2, -1, 0, 2]), 4), (DATA,)),
        Row("UnsortedSegmentMin", lambda x: M.unsorted_segment_min(x, tf.constant([1, 1, 0, -1]), 2), (DATA,)),
        Row("Rint", M.rint, (np.array([0.5, 1.5, -2.5, 0.2], np.float32),)),
        Row("InTopKV2", lambda p: M.in_top_k(tf.constant([1, 0, 2, 1]), p, 2), (DATA[:, :1] * np.ones(3, np.float32),)),
        Row("SegmentProd", lambda x: M.segment_prod(x, tf.constant([0, 0, 2, 2])), (DATA,)),
        Row("UnsortedSegmentProd", lambda x: M.unsorted_segment_prod(x, tf.constant([1, -1, 1, 0]), 3), (DATA,)),
        Row("CumulativeLogsumexp", lambda x: M.cumulative_logsumexp(x, axis=1, exclusive=True, reverse=True), (POS,)),
        Row("Conj", M.conj, (np.array([1 + 2j, -3j], np.complex64),)),
        Row("Cross", L.cross, (np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((2, 3), np.float32))),
        Row("TensorScatterUpdate", lambda x, u: tf.tensor_scatter_nd_update(x, [[0, 1], [3, 0]], u),
            (DATA, UNIT[0, :2])),
        Row("TensorScatterUpdate", lambda x, u: tf.tensor_scatter_nd_update(x, [[2]], u), (DATA, UNIT[:1, :2]),
            label="rows"),
        Row("TensorScatterAdd", lambda x, u: tf.tensor_scatter_nd_add(x, [[1, 1], [1, 1]], u), (DATA, UNIT[0, :2])),
        Row("TensorScatterSub", lambda x, u: tf.tensor_scatter_nd_sub(x, [[0, 0], [2, 1]], u), (DATA, UNIT[0, :2])),
        Row("TensorScatterMax", lambda x, u: tf.tensor_scatter_nd_max(x, [[0, 0], [2, 1]], u), (DATA, UNIT[0, :2])),
        Row("TensorScatterMin", lambda x, u: tf.tensor_scatter_nd_min(x, [[0, 0], [2, 1]], u), (DATA, UNIT[0, :2])),
        Row("TensorScatterUpdate", lambda x, u: tf.tensor_scatter_nd_update(x, [[4, 0]], u), (DATA, UNIT[0, :1]),
            raises=tf.errors.InvalidArgumentError, label="out-of-range"),
        Row("EagerPyFunc", lambda x: tf.py_function(lambda a: a * 2.0 + tf.sin(a), [x], tf.float32), (UNIT,)),
        Row("PyFunc", lambda x: tf.numpy_function(lambda a: (a * 2).astype(np.float32), [x], tf.float32), (UNIT,)),
        Row("PyFuncStateless", lambda x: tf.numpy_function(lambda a: np.sin(a), [x], tf.float32, stateful=False),
            (UNIT,)),
        Row("StatefulStandardNormalV2", _generator_draw("normal", [2, 3]), (UNIT,)),
        Row("StatefulUniform", _generator_draw("uniform", [4]), (UNIT,)),
        Row("StatefulTruncatedNormal", _generator_draw("truncated_normal", [3]), (UNIT,)),
        Row("StatefulUniformInt", _generator_draw("uniform", [5], 2, 9, dtype=tf.int32),
            (np.array([1, 2], np.int32),)),
        Row("StatefulUniformFullInt", _generator_draw("uniform_full_int", [2], dtype=tf.int64),
            (np.array([1, 2], np.int64),)),
        Row("Unique", lambda x: tuple(tf.unique(x)), (np.array([4, 2, 4, 1, 2], np.int32),)),
        Row("UniqueWithCounts", lambda x: tuple(tf.unique_with_counts(x, out_idx=tf.int64)),
            (np.array([1.5, 0.5, 1.5], np.float32),)),
        Row("LowerBound", lambda a, v: tf.searchsorted(a, v), (np.sort(DATA.T, axis=1), UNIT[:, :2])),
        Row("UpperBound", lambda a, v: tf.searchsorted(a, v, side="right"),
            (np.array([0, 3, 3, 9], np.int32), np.array([3, -1, 9, 10], np.int32))),
        Row("LowerBound", lambda a, v: tf.searchsorted(a, v), (DATA[:, :1].T, UNIT[:, :2]),
            raises=tf.errors.InvalidArgumentError, label="leading-dims", dims="dynamic"),
        Row("EnsureShape", lambda x: tf.ensure_shape(x, [None, 2]), (DATA,), dims="dynamic"),
        Row("TruncateDiv", tf.truncatediv, (np.array([-7, 7, -8, 9], np.int32), np.array([2, -2, 3, 3], np.int32))),
        Row("TruncateDiv", tf.truncatediv, (DATA, np.float32(0.7)), label="float"),
        Row("TruncateMod", tf.truncatemod, (np.array([-7, 7, -8, 9], np.int64), np.array([3, 3, -3, 4], np.int64))),
        Row("TruncateMod", tf.truncatemod, (DATA, np.float32(0.7)), label="float"),
        Row("TruncateDiv", tf.truncatediv, (np.array([1, 2], np.int32), np.array([1, 0], np.int32)),
            raises=tf.errors.InternalError, label="by-zero"),
        Row("DynamicStitch", lambda a, b: tf.dynamic_stitch([[0, 2], [1, 2]], [a, b]), (DATA[:2], DATA[2:])),
        Row("DynamicStitch", lambda a: tf.dynamic_stitch([[3, 0], [1]], [a, a[:1] * 2]), (UNIT[0, :2],),
            label="gap-and-overwrite"),
        Row("DynamicStitch", lambda a: tf.dynamic_stitch([[0, -1]], [a]), (UNIT[0, :2],),
            raises=tf.errors.InvalidArgumentError, label="negative"),
        Row("Timestamp", lambda x: x + tf.cast(tf.timestamp() > 1e9, tf.float32), (DATA,)),
    ]
