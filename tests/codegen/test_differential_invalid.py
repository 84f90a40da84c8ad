"""Differential test on invalid inputs too: eager execution, generated code and the reference
interpreter (graph/evaluate.py) agree on every call, valid or not.

Hypothesis draws an op, input dtypes and shapes, wrong ones included (bool into relu, float
indices into one_hot, mismatched sizes and ranks, mixed dtypes). Each call runs eagerly, then is
traced with every dimension unknown (so size errors surface at run time, where the three paths must
agree) and run as generated code and through the reference interpreter:

* eager succeeds: all three give identical values (dtype, shape, bits);
* eager raises: if tracing refuses the call (a dtype or rank TensorFlow also refuses while building
  the graph, with its graph-mode TypeError/ValueError), nothing more to compare; otherwise generated
  code and the interpreter raise the same class as eager, with the same message (TensorFlow's, less
  the per-mode suffix: eager's " [Op:AddV2]", a graph's node and source line);
* tracing refuses only calls that eager refuses too.
"""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import eagerflow as tf
from eagerflow._src.graph.evaluate import evaluate

DTYPES = [tf.float32, tf.float64, tf.int32, tf.int64, tf.uint8, tf.bool]

# name -> (arity, function of tensors)
OPS = {
    "exp": (1, tf.exp), "log": (1, tf.math.log), "sqrt": (1, tf.sqrt), "abs": (1, tf.abs),
    "negative": (1, tf.negative), "square": (1, tf.square), "sigmoid": (1, tf.sigmoid), "relu": (1, tf.nn.relu),
    "elu": (1, tf.nn.elu), "softmax": (1, tf.nn.softmax), "l2_loss": (1, tf.nn.l2_loss),
    "reduce_sum": (1, tf.reduce_sum), "reduce_max": (1, lambda x: tf.reduce_max(x, axis=0)),
    "cumsum": (1, tf.math.cumsum), "argmax": (1, tf.argmax), "top_k": (1, lambda x: tf.math.top_k(x, 1).values),
    "one_hot": (1, lambda x: tf.one_hot(x, 3)), "logical_not": (1, tf.math.logical_not),
    "is_nan": (1, tf.math.is_nan), "cast": (1, lambda x: tf.cast(x, tf.float32)),
    "add": (2, tf.add), "subtract": (2, tf.subtract), "multiply": (2, tf.multiply), "maximum": (2, tf.maximum),
    "pow": (2, tf.pow), "floormod": (2, tf.math.floormod), "equal": (2, tf.equal), "less": (2, tf.less),
    "logical_and": (2, tf.math.logical_and), "matmul": (2, tf.matmul), "add_n": (2, lambda x, y: tf.add_n([x, y])),
    "concat": (2, lambda x, y: tf.concat([x, y], 0)), "gather": (2, lambda x, y: tf.gather(x, y)),
    "where": (3, tf.where),
}

_shapes = st.lists(st.integers(1, 3), min_size=0, max_size=3).map(tuple)


def _value(dtype, shape, rng):
    if dtype is tf.bool:
        return rng.integers(0, 2, shape).astype(bool)
    if dtype.is_integer:
        return rng.integers(0, 3, shape).astype(dtype.as_numpy_dtype)
    return rng.uniform(0.5, 2.0, shape).astype(dtype.as_numpy_dtype)


@st.composite
def calls(draw):
    name = draw(st.sampled_from(sorted(OPS)))
    arity, fn = OPS[name]
    first = draw(st.sampled_from(DTYPES))
    same = draw(st.booleans())  # mostly one dtype for all inputs, as most ops want
    dtypes = [first if same or i == 0 else draw(st.sampled_from(DTYPES)) for i in range(arity)]
    base = draw(_shapes)
    shapes = [base if draw(st.booleans()) else draw(_shapes) for _ in range(arity)]
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    return name, fn, [_value(d, s, rng) for d, s in zip(dtypes, shapes)]


def _core(message: str) -> str:
    """TensorFlow's message without the per-mode parts: eager's op tag; a graph's "Graph execution
    error:" heading with the node's "Detected at ... defined at" frames, and its node and op lines."""
    if message.startswith("Graph execution error:\n\n"):
        message = message[len("Graph execution error:\n\n"):]
        if message.startswith("Detected at node "):
            message = message.split("\n\n", 1)[1]
    return message.split(" [Op:")[0].split("\n\t [[")[0]


def _outcome(call, tensors):
    try:
        result = call(*tensors)
    except Exception as err:  # noqa: BLE001 - comparing what each path raises is the point
        message = err.message if isinstance(err, tf.errors.OpError) else str(err)
        return ("raises", type(err), _core(message))
    flat = tf.nest.flatten(result, expand_composites=True)
    return ("values", [np.asarray(t.numpy()) for t in flat])


def _assert_same_values(expected, got, how):
    assert len(expected) == len(got), how
    for e, g in zip(expected, got):
        assert e.dtype == g.dtype and e.shape == g.shape, f"{how}: {g.dtype}{g.shape} vs eager {e.dtype}{e.shape}"
        np.testing.assert_array_equal(g, e, err_msg=how)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(calls())
def test_eager_generated_code_and_interpreter_agree_on_valid_and_invalid_inputs(call):
    name, fn, arrays = call
    tensors = [tf.constant(a) for a in arrays]
    eager = _outcome(fn, tensors)
    specs = [tf.TensorSpec([None] * a.ndim, tf.as_dtype(a.dtype)) for a in arrays]
    try:
        cf = tf.function(fn).get_concrete_function(*specs)
    except (TypeError, ValueError, tf.errors.OpError) as err:
        assert eager[0] == "raises", f"{name}: tracing refused a call eager accepts: {err!r}"
        return
    structure = cf.graph.structured_outputs
    for how, run in (("generated code", cf), ("graph/evaluate.py", lambda *ts: evaluate(cf.graph, list(ts),
                                                                                          structure))):
        got = _outcome(run, tensors)
        assert got[0] == eager[0], f"{name} {how}: {got} but eager {eager}"
        if eager[0] == "raises":
            assert got[1] is eager[1], f"{name} {how}: {got[1].__name__} but eager {eager[1].__name__}: {got[2]}"
            assert got[2] == eager[2], f"{name} {how}:\n{got[2]!r}\neager:\n{eager[2]!r}"
        else:
            _assert_same_values(eager[1], got[1], f"{name} {how}")
