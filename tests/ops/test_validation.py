"""The one eager validation point (ops/validation.py): the op's rule runs on the first sighting of
each (op, dtypes, ranks, attributes) combination, so a bad call fails eagerly as it fails traced.

Expected classes and messages are TensorFlow 2.21's, taken from running each call eagerly and inside
tf.function: eagerly an InvalidArgumentError ("Value for attr 'T' of bool is not in the list of
allowed values: ..."), traced a TypeError raised at op construction ("Value passed to parameter
'features' has DataType bool not in list of allowed values: ...").
"""
from __future__ import annotations

import gc
import re
import weakref

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.core.errors import InternalError
from eagerflow._src.ops.nn import basic as _nn
from eagerflow._src.ops import validation
from eagerflow._src.ops.registry import OpDef, Spec, bind, static_value

IAE = tf.errors.InvalidArgumentError

# (call, eager message start, traced message start): TensorFlow 2.21's texts.
BAD_CALLS = {
    "one_hot-float-indices": (
        lambda: tf.one_hot(tf.constant([0.0, 1.5]), 3),
        "Value for attr 'TI' of float is not in the list of allowed values: ",
        "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: "),
    "relu-bool": (
        lambda: tf.nn.relu(tf.constant([True, False])),
        "Value for attr 'T' of bool is not in the list of allowed values: ",
        "Value passed to parameter 'features' has DataType bool not in list of allowed values: "),
    "top_k-bool": (
        lambda: tf.math.top_k(tf.constant([True, False]), 1),
        "Value for attr 'T' of bool is not in the list of allowed values: ",
        "Value passed to parameter 'input' has DataType bool not in list of allowed values: "),
    "where-float-condition": (
        lambda: tf.where(tf.constant([1.0, 0.0]), tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
        "cannot compute SelectV2 as input #0(zero-based) was expected to be a bool tensor but is a float tensor "
        "[Op:SelectV2]",
        "Input 'condition' of 'SelectV2' Op has type float32 that does not match expected type of bool."),
    "l2_loss-int": (
        lambda: tf.nn.l2_loss(tf.constant([1])),
        "Value for attr 'T' of int32 is not in the list of allowed values: ",
        "Value passed to parameter 't' has DataType int32 not in list of allowed values: "),
    "softmax-int": (
        lambda: tf.nn.softmax(tf.constant([1])),
        "Value for attr 'T' of int32 is not in the list of allowed values: ",
        "Value passed to parameter 'logits' has DataType int32 not in list of allowed values: "),
    "add_n-bool": (
        lambda: tf.add_n([tf.constant([True]), tf.constant([True])]),
        "Value for attr 'T' of bool is not in the list of allowed values: ",
        "Value passed to parameter 'inputs' has DataType bool not in list of allowed values: "),
    "gather-float-indices": (
        lambda: tf.gather(tf.constant([1.0, 2.0]), tf.constant([0.0])),
        "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, int64",
        "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: int16, int32, int64"),
    "scatter_nd-float-indices": (
        lambda: tf.scatter_nd(tf.constant([[0.0]]), tf.constant([1.0]), [2]),
        "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, int64",
        "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: int16, int32, int64"),
    "matmul-bool": (
        lambda: tf.matmul(tf.constant([[True]]), tf.constant([[True]])),
        "Value for attr 'T' of bool is not in the list of allowed values: ",
        "Value passed to parameter 'a' has DataType bool not in list of allowed values: "),
}


@pytest.mark.parametrize("case", list(BAD_CALLS), ids=str)
def test_bad_dtype_raises_tensorflows_error_eagerly(case):
    call, eager_text, _ = BAD_CALLS[case]
    with pytest.raises(IAE) as info:
        call()
    assert type(info.value) is IAE  # the public class, not a private subclass
    assert info.value.message.startswith(eager_text)


@pytest.mark.parametrize("case", list(BAD_CALLS), ids=str)
def test_bad_dtype_raises_tensorflows_error_traced(case):
    call, _, graph_text = BAD_CALLS[case]
    with pytest.raises(TypeError, match="^" + re.escape(graph_text)):
        tf.function(call)()


@pytest.mark.parametrize("case", list(BAD_CALLS), ids=str)
def test_repeated_bad_call_keeps_failing(case):
    """A refusal is never cached as a verdict."""
    call = BAD_CALLS[case][0]
    for _ in range(3):
        with pytest.raises(IAE):
            call()


def test_one_hot_float_index_no_longer_gives_a_zero_row():
    with pytest.raises(IAE, match="'TI' of float"):
        tf.one_hot(tf.constant([1.5]), 3)
    assert tf.one_hot(tf.constant([1]), 3).numpy().tolist() == [[0.0, 1.0, 0.0]]


def test_eager_dtype_names_are_tensorflows():
    """Eager TensorFlow lists dtypes by their C++ names (half, float, double)."""
    with pytest.raises(IAE) as info:
        tf.nn.relu(tf.constant([True]))
    allowed = info.value.message.split("allowed values: ")[1].split("\n")[0].split(", ")
    assert {"half", "float", "double", "int32", "uint8"} <= set(allowed)
    assert "float32" not in allowed


def _counting_rule(op, monkeypatch):
    calls = []
    rule = op.infer

    def counted(inputs, attrs):
        calls.append(1)
        return rule(inputs, attrs)
    monkeypatch.setattr(op, "infer", counted)
    monkeypatch.setattr(op, "checked", {})
    return calls


def test_rule_runs_once_per_dtype_and_rank(monkeypatch):
    calls = _counting_rule(_nn.Relu, monkeypatch)
    for _ in range(5):
        tf.nn.relu(tf.constant([1.0, -2.0]))
        tf.nn.relu(tf.constant([3.0, 4.0, -5.0]))  # another size, same rank: the same verdict
    assert len(calls) == 1
    tf.nn.relu(tf.constant(1.0))  # rank 0
    tf.nn.relu(tf.constant([1, -2]))  # int32
    tf.nn.relu(tf.constant([[1.0]]))  # rank 2
    assert len(calls) == 4


def test_list_attributes_make_a_hashable_key(monkeypatch):
    from eagerflow._src.ops.nn import pooling
    calls = _counting_rule(pooling.MaxPool, monkeypatch)
    x = tf.constant(np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1))
    for _ in range(3):
        tf.nn.max_pool2d(x, 2, 2, "VALID")
    assert len(calls) == 1
    tf.nn.max_pool2d(x, 2, 1, "VALID")  # other strides: another key
    assert len(calls) == 2


def test_size_errors_after_a_cached_verdict_still_use_tensorflows_words():
    """The key holds ranks, not sizes: the kernel refuses, and the rule's message is reported."""
    tf.add(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0]))
    with pytest.raises(IAE, match=re.escape("Incompatible shapes: [2] vs. [3] [Op:AddV2]")):
        tf.add(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))


def _refusing_op():
    """An op whose rule and kernel both refuse a negative size, in different words (as one_hot's and
    resize's did): the rule sizes its output by the value, the kernel checks it itself."""
    def kernel(x, n):
        if int(n) < 0:
            raise IAE(None, None, "kernel: n must be non-negative")
        return np.repeat(x, int(n))

    def infer(inputs, attrs):
        n = static_value(inputs[1])
        if n is not None and int(n) < 0:
            raise IAE(None, None, "rule: n must be non-negative")
        return [Spec(tf.TensorShape([None]), inputs[0].dtype)]
    return OpDef("RefusesTwice", kernel=kernel, infer=infer, grad=None, inputs=("x", "n"), multi_output=False,
                 stateful=False, doc="")


def test_a_bad_call_answers_alike_whatever_ran_before():
    """The first sighting of a key runs the rule, later ones only the kernel: where both refuse, a
    later call answers with the rule's refusal too, as the first did."""
    x = tf.constant([1.0])
    first = _refusing_op()
    with pytest.raises(IAE, match=re.escape("rule: n must be non-negative [Op:RefusesTwice]")):
        bind(first, (x, tf.constant(-1)))
    cached = _refusing_op()
    assert bind(cached, (x, tf.constant(2))).numpy().tolist() == [1.0, 1.0]
    with pytest.raises(IAE, match=re.escape("rule: n must be non-negative [Op:RefusesTwice]")):
        bind(cached, (x, tf.constant(-1)))
    for good_call_before in (False, True):  # TF 2.21's words, before and after a good call
        if good_call_before:
            tf.one_hot([0, 1], 2)
        with pytest.raises(IAE, match=re.escape("depth must be non-negative, got: -2 [Op:OneHot]")):
            tf.one_hot([0, 1], -2)


def test_kernel_output_dtype_is_checked_against_the_rule():
    wrong = OpDef("WrongDtype", kernel=lambda x: x.astype(np.float64), infer=lambda inputs, attrs: [
        Spec(inputs[0].shape, inputs[0].dtype)], grad=None, inputs=("x",), multi_output=False, stateful=False,
        doc="")
    with pytest.raises(InternalError, match="returned output 0 as float64 where its shape-and-dtype rule says "
                                            "float32"):
        bind(wrong, (tf.constant([1.0]),))
    assert not wrong.checked


def test_verdicts_hold_no_user_objects_and_stay_bounded():
    class Opaque:
        pass

    refs = []
    seen_kernel = []
    op = OpDef("TakesObject", kernel=lambda x, thing=None: seen_kernel.append(thing) or x,
               infer=lambda inputs, attrs: [Spec(inputs[0].shape, inputs[0].dtype)], grad=None, inputs=("x",),
               multi_output=False, stateful=False, doc="")
    x = tf.constant([1.0])
    for _ in range(2000):
        thing = Opaque()
        refs.append(weakref.ref(thing))
        bind(op, (x,), {"thing": thing})
        del thing
    seen_kernel.clear()
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert not op.checked  # not plain data: not cached at all

    for i in range(3 * validation._VERDICT_LIMIT):
        tf.nn.leaky_relu(x, alpha=0.001 * i)
    assert len(_nn.LeakyRelu.checked) <= validation._VERDICT_LIMIT


def test_shapes_are_checked_before_values_on_every_call():
    """The first sighting runs the rule before the kernel; later calls only the kernel, which must
    then check in the same order (TensorFlow: shapes first), or the message would change."""
    for _ in range(2):
        with pytest.raises(IAE, match=re.escape("Incompatible shapes: [2] vs. [3]")):
            tf.math.floormod(tf.constant([2, 1]), tf.constant([1, 0, 0]))
        with pytest.raises(IAE, match="Integer division by zero"):
            tf.math.floormod(tf.constant([2, 1]), tf.constant([1, 0]))


# Mixed dtypes: TensorFlow 2.21's eager InvalidArgumentError and traced TypeError texts.
MIXED = {
    "where": (lambda c, x, y: tf.where(c, x, y),
              "cannot compute SelectV2 as input #2(zero-based) was expected to be a float tensor but is a double "
              "tensor [Op:SelectV2]",
              "Input 'e' of 'SelectV2' Op has type float64 that does not match type float32 of argument 't'."),
    "concat": (lambda c, x, y: tf.concat([x, y], 0),
               "cannot compute ConcatV2 as input #1(zero-based) was expected to be a float tensor but is a double "
               "tensor [Op:ConcatV2]",
               "Tensors in list passed to 'values' of 'ConcatV2' Op have types [float32, float64] that don't all "
               "match."),
    "add_n": (lambda c, x, y: tf.add_n([x, y]),
              "cannot compute AddN as input #1(zero-based) was expected to be a float tensor but is a double "
              "tensor [Op:AddN]",
              "Tensors in list passed to 'inputs' of 'AddN' Op have types [float32, float64] that don't all match."),
}


@pytest.mark.parametrize("case", list(MIXED), ids=str)
def test_mixed_dtypes_raise_tensorflows_error_in_each_mode(case):
    fn, eager_text, graph_text = MIXED[case]
    c, x, y = tf.constant([True]), tf.constant([1.0]), tf.constant([1.0], tf.float64)
    with pytest.raises(IAE) as info:
        fn(c, x, y)
    assert info.value.message == eager_text
    for traced in (tf.function(fn), tf.function(lambda: fn(c, x, y))):  # arguments, and captured tensors
        with pytest.raises(TypeError) as info:
            traced(c, x, y) if traced.python_function is fn else traced()
        assert type(info.value) is TypeError and str(info.value) == graph_text
