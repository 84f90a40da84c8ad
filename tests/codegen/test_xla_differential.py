"""Differential test of the JAX lowerings (jit_compile=True, codegen/xla.py) against the NumPy kernels.

Every row of tests/codegen/test_differential.py (one or more per registered op, with inputs) whose
op has a lowering runs twice: as a plain `tf.function` (the generated NumPy code: the kernels) and
with `jit_compile=True` (one XLA executable). Values, dtypes and shapes must agree; then the
gradient of a weighted sum of the float outputs with respect to the float inputs, taken by a
GradientTape inside each function, must agree too (the gradient ops are lowered like any op).

A row counts for an op only when the op's lowering really ran (a wrapper counts its calls: values
known at trace time fold through the NumPy kernel instead). `test_every_lowered_op_is_exercised`
fails when a lowered op has no such row, so the table cannot silently shrink.
"""
from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402
from eagerflow._src.core import nest  # noqa: E402
from eagerflow._src.ops.lazy_jax import ON_HOST  # noqa: E402
from eagerflow._src.ops.registry import OPS, UNREGISTERED_GRADIENT  # noqa: E402
from tests.codegen.test_differential import ROWS, Row, _f32  # noqa: E402 - also imports every op family
from tests.codegen.differential_rows_everyday import SPD, TALL  # noqa: E402

# Ops the compiler handles itself (codegen/xla.py), not through an OpDef.jax rule.
COMPILER_HANDLED = {"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp", "AssignSubVariableOp",
                    "If", "StatelessIf", "While", "StatelessWhile", "WhileGrad"}
# ... and the higher-order gradient ops around If/While (codegen/xla_higher_order.py): they take and
# give the compiler's own values for variants (kept values, a loop's history), so no single-op row
# can run them; tests/codegen/test_xla_higher_order.py exercises each against TensorFlow's numbers.
COMPILER_HANDLED |= {
    "IfKeptGradient": "the gradient of an If's kept value, under a second tape (tensor `if` tests)",
    "IfKeptSeed": "seeds an If's kept values from that gradient (tensor `if` / tf.cond tests)",
    "LoopHistoryStack": "a compiled loop's stacked history for its differentiable backward loop (tf.range tests)",
    "LoopHistorySeeds": "the gradient of that stacked history, added by WhileGrad's reverse scan (tf.range tests)",
    "LoopHistorySeedStacks": "the stacks a history's gradient holds, for a third order's backward walk",
    "LoopHistoryLength": "where the backward loop starts: a scan's length, or its active steps (maximum_iterations)",
    "LoopHistoryItem": "one iteration's kept values of a cond in a loop body, out of the stacked column",
    "LoopHistoryItemGrad": "the gradient of LoopHistoryItem: a stacked column of zeros but at one iteration",
}.keys()


def _lowered(name):
    op = OPS.get(name)
    return name in COMPILER_HANDLED or (op is not None and op.jax is not None)


_RUNS = {}  # row -> its op, for the rows that ran and matched

# Lowered ops no compiled program contains, and why (their lowering is kept for completeness).
NEVER_COMPILED = {
    "Identity": "forwarded to its input by passes/simplify.py before code generation",
    "StopGradient": "forwarded like Identity; only gradient construction reads it",
    "RangeOfRank": "its input is a rank, always known under XLA: the NumPy kernel folds it at trace time",
    "ReducedShape": "its inputs are a shape and axes, always known under XLA: folded at trace time",
    "ReversedRange": "its input is a rank, always known under XLA: folded at trace time",
}


class _Counting:
    def __init__(self, fn):
        self.fn, self.calls = fn, 0
        self.updates_variables = getattr(fn, "updates_variables", False)  # codegen/xla.py reads it

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.fn(*args, **kwargs)


def _flat(result):
    return [np.asarray(t.numpy()) for t in nest.flatten(result, expand_composites=True) if t is not None]


def _close(expected, got, what, rtol=2e-5, atol=2e-6):
    assert len(expected) == len(got), f"{what}: {len(got)} outputs, the kernels gave {len(expected)}"
    for i, (e, g) in enumerate(zip(expected, got)):
        assert e.dtype == g.dtype, f"{what}: output {i} dtype {g.dtype}, the kernels give {e.dtype}"
        assert e.shape == g.shape, f"{what}: output {i} shape {g.shape}, the kernels give {e.shape}"
        if e.dtype.kind in "fc":
            low = e.dtype.itemsize <= 2  # float16: XLA rounds differently
            np.testing.assert_allclose(g, e, rtol=1e-3 if low else rtol, atol=1e-3 if low else atol,
                                       err_msg=f"{what}: output {i}")
        else:
            assert np.array_equal(g, e), f"{what}: output {i}\n{g}\n!=\n{e}"


def _unsupported(fn, tensors):
    from eagerflow._src.codegen.xla import unsupported_ops
    cf = tf.function(fn).get_concrete_function(*tensors)
    return [t for t, _ in unsupported_ops(cf.executable.program)]  # the program the trace compiled


# Decompositions: XLA and NumPy may pick opposite signs for a singular/eigen vector (a column of Q,
# U, V), both right. Their rows compare the factors up to those signs (_canonical_signs) and the
# matrix they rebuild; these rows add functions of the factors that no sign choice changes, so their
# gradients compare exactly too.
_DECOMPOSITIONS = {"Qr", "Svd", "SelfAdjointEigV2"}


def _rebuilt_svd(x):
    s, u, v = tf.linalg.svd(x)
    return s, tf.matmul(u * s[None, :], v, transpose_b=True), tf.matmul(u, u, transpose_b=True)


def _rebuilt_eigh(x):
    e, v = tf.linalg.eigh(x)
    return e, tf.matmul(v * e[None, :], v, transpose_b=True), tf.square(v)


_SIGN_FREE_ROWS = [
    Row("Qr", lambda x: tf.matmul(*tf.linalg.qr(x)), (TALL,), label="rebuilt"),
    Row("Qr", lambda x: tf.linalg.qr(x, full_matrices=True).q @ tf.linalg.qr(x, full_matrices=True).r, (TALL,),
        label="full-rebuilt"),
    Row("Svd", _rebuilt_svd, (TALL,), label="rebuilt"),
    Row("Svd", _rebuilt_svd, (TALL.T.copy(),), label="wide-rebuilt"),
    Row("SelfAdjointEigV2", _rebuilt_eigh, (SPD,), label="rebuilt"),
    Row("SelfAdjointEigV2", tf.linalg.eigvalsh, (SPD,), label="values"),
]



# TensorLists (ops/control/lists_jax.py): a list is one dense buffer under XLA. These rows put the list ops
# where that matters: in loops (the element shape found by looking into the body), under a data-
# dependent If, behind tf.map_fn / tf.scan, and read at an index known only at run time.
def _written_in_loop(x):
    ta = tf.TensorArray(tf.float32, size=3)  # element shape unknown until the loop's first write
    for t in tf.range(3):
        ta = ta.write(t, tf.sin(x[t]) * x[t])
    return ta.stack()


def _read_in_loop(x):
    ta = tf.TensorArray(tf.float32, size=3).unstack(x)
    acc = tf.zeros([4])
    for t in tf.range(3):
        acc = acc * 0.5 + ta.read(t)
    return acc, ta.gather(tf.constant([2, 0]))


def _written_under_if(x):
    ta = tf.TensorArray(tf.float32, size=3)
    if tf.reduce_sum(x) > 0.0:
        ta = ta.write(0, x[0] * 2.0)
    else:
        ta = ta.write(2, x[1])
    return ta.stack(), ta.size()


def _concat_in_loop(x):
    ta = tf.TensorArray(tf.float32, size=3, element_shape=[2, 2])
    for t in tf.range(3):
        ta = ta.write(t, tf.reshape(x[t] * x[t], [2, 2]))
    return ta.concat()


_LIST_ROWS = [
    Row("TensorListSetItem", _written_in_loop, (_f32(3, 4),), label="loop-unknown-shape"),
    Row("TensorListGetItem", _read_in_loop, (_f32(3, 4),), label="loop-read"),
    Row("TensorListSetItem", _written_under_if, (_f32(3, 4),), label="if"),
    Row("TensorListSetItem", lambda x: _written_under_if(-x), (_f32(3, 4),), label="if-else"),
    Row("TensorListConcatV2", _concat_in_loop, (_f32(3, 4),), label="loop"),
    Row("TensorListSplit", lambda x: tf.TensorArray(tf.float32, size=2).split(x, [3, 3]).concat() * 2.0, (_f32(6),),
        label="equal-lengths"),
    Row("TensorListStack", lambda x: tf.map_fn(lambda r: tf.reduce_sum(tf.sin(r) * r), x), (_f32(3, 4),),
        label="map_fn"),
    Row("TensorListStack", lambda x: tf.scan(lambda a, r: a * 0.5 + tf.sin(r), x), (_f32(3, 4),), label="scan"),
    Row("TensorListScatterIntoExistingList", lambda x: tf.TensorArray(tf.float32, size=4).scatter(
        tf.constant([3, 1]), x).read(3) * 3.0, (_f32(2, 4),), label="read"),
]

_XLA_ROWS = [row for row in ROWS + _SIGN_FREE_ROWS + _LIST_ROWS if _lowered(row.op) and row.raises is None]

# Rows XLA refuses as TensorFlow 2.21's XLA does (the NumPy kernels run them): row -> (class, key words).
XLA_REFUSES = {
    # TF 2.21, `ta.split(x, [5, 7])` under jit_compile=True: UnimplementedError "All lengths have to be the same"
    "TensorListSplit": (tf.errors.UnimplementedError, "All lengths have to be the same"),
}


def _canonical_signs(op, arrays):
    """Each decomposition's factors with every vector's sign fixed (its largest entry positive),
    and the matching rows of R flipped: equal for any two correct sign choices."""
    out = [np.array(a) for a in arrays]
    columns = {"Qr": [0], "Svd": [1, 2], "SelfAdjointEigV2": [1]}[op]
    if any(out[i].size == 0 for i in columns):
        return out
    picks = np.take_along_axis(out[columns[0]], np.abs(out[columns[0]]).argmax(axis=-2)[..., None, :], axis=-2)
    flip = np.where(picks < 0, -1, 1).astype(out[columns[0]].dtype)  # [..., 1, k]
    for i in columns:
        k = flip.shape[-1]
        out[i][..., :k] *= flip
    if op == "Qr":
        k = flip.shape[-1]
        out[1][..., :k, :] *= np.swapaxes(flip, -1, -2)
    return out


def _seed(row):
    """Random rows: the same global seed before each trace, so both functions get the same op
    seeds; compiled random ops draw on the host from the same streams (ops/lazy_jax.py ON_HOST)."""
    if row.seed is not None:
        tf.random.set_seed(row.seed)


def _count_lowerings(monkeypatch):
    """Wraps every lowering in a call counter; returns {op name: counter}."""
    counters = {}
    for name, op in OPS.items():
        if op.jax is ON_HOST:  # the kernel itself runs, called back from the executable
            counters[name] = _Counting(op.kernel)
            monkeypatch.setattr(op, "kernel", counters[name])
        elif op.jax is not None:
            counters[name] = _Counting(op.jax)
            monkeypatch.setattr(op, "jax", counters[name])
    return counters


def _record(counters):
    for name, counter in counters.items():
        if counter.calls:
            _RAN.add(name)


_RAN = set()  # ops whose lowering ran in a row that then matched the kernels


@pytest.fixture
def _no_static_shape_folding(monkeypatch):
    """Shape queries of known shapes would fold away in passes/fold.py before lowering."""
    from eagerflow._src.passes import fold
    monkeypatch.setattr(fold, "_FROM_STATIC_SHAPE", {})


@pytest.mark.parametrize("row", _XLA_ROWS, ids=str)
def test_lowering_matches_kernel(row, monkeypatch, _no_static_shape_folding):
    tensors = [tf.constant(a) for a in row.args]
    missing = _unsupported(row.fn, tensors)
    if missing:
        pytest.skip(f"the row's graph also needs ops without a lowering: {missing}")
    if str(row) in XLA_REFUSES:
        _seed(row)
        _flat(tf.function(row.fn)(*tensors))  # the kernels run it
        error, words = XLA_REFUSES[str(row)]
        with pytest.raises(error, match=words):
            tf.function(row.fn, jit_compile=True)(*tensors)
        return
    with np.errstate(all="ignore"):
        _seed(row)
        expected = _flat(tf.function(row.fn)(*tensors))
        counters = _count_lowerings(monkeypatch)
        _seed(row)
        got = _flat(tf.function(row.fn, jit_compile=True)(*tensors))
    if row.op in _DECOMPOSITIONS and not row.label:  # the factors themselves: up to signs
        expected, got = _canonical_signs(row.op, expected), _canonical_signs(row.op, got)
    _close(expected, got, "jit_compile=True")
    _RUNS[str(row)] = row.op
    _record(counters)


def _gradient_fn(fn, n_inputs, float_positions):
    def with_gradient(*ts):
        with tf.GradientTape(persistent=True) as tape:
            for i in float_positions:
                tape.watch(ts[i])
            outs = [o for o in nest.flatten(fn(*ts), expand_composites=True) if o is not None and o.dtype.is_floating]
            # weights 2, 3, 1, 2, ... over the elements: a gradient that is not the same everywhere
            loss = tf.add_n([tf.reduce_sum(o * tf.reshape(tf.cast(tf.range(1, tf.size(o) + 1) % 3 + 1, o.dtype),
                                                          tf.shape(o))) for o in outs])
        grads = tape.gradient(loss, [ts[i] for i in float_positions])
        return [g for g in grads if g is not None]
    return with_gradient


@pytest.mark.parametrize("row", _XLA_ROWS, ids=str)
def test_lowered_gradient_matches_kernel(row, monkeypatch, _no_static_shape_folding):
    op = OPS.get(row.op)
    float_positions = [i for i, a in enumerate(row.args) if np.asarray(a).dtype.kind == "f"]
    if not float_positions or (op is not None and (not op.differentiable or op.grad is UNREGISTERED_GRADIENT)):
        pytest.skip("no float input or no gradient")
    if str(row) in XLA_REFUSES:
        pytest.skip("XLA refuses the row's forward function (test_lowering_matches_kernel checks how)")
    tensors = [tf.constant(a) for a in row.args]
    fn = _gradient_fn(row.fn, len(tensors), float_positions)
    with np.errstate(all="ignore"):
        try:
            _seed(row)
            expected = _flat(tf.function(fn)(*tensors))
        except Exception as exc:  # noqa: BLE001 - rows whose outputs carry no float gradient
            pytest.skip(f"no gradient through this row: {type(exc).__name__}")
        if not expected:
            pytest.skip("nothing to differentiate")
        missing = _unsupported(fn, tensors)
        if missing:
            pytest.skip(f"the gradient graph needs ops without a lowering: {missing}")
        counters = _count_lowerings(monkeypatch)
        _seed(row)
        got = _flat(tf.function(fn, jit_compile=True)(*tensors))
    _close(expected, got, "gradient under jit_compile=True", rtol=1e-4, atol=1e-5)
    _record(counters)


def test_every_lowered_op_is_exercised():
    """Every op with a lowering has a row in which the lowering ran (and matched the kernel)."""
    lowered = sorted(name for name, op in OPS.items() if op.jax is not None)
    if len(_RUNS) < len(_XLA_ROWS) // 2:  # run alone (-k): run the rows first
        pytest.skip("run with the whole file: this test reads what the row tests recorded")
    missing = [name for name in lowered if name not in _RAN and name not in NEVER_COMPILED]
    assert not missing, f"lowered ops no differential row exercised: {missing}"
