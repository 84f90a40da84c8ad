"""Errors raised while a traced graph runs point at the user's code (issue 13 point 5): the message
has TensorFlow 2.21's layout, naming the node and the user's frames that created it (the op's own
line last), the kernel's message, and (eagerflow's extra line) the node's input shapes on this call;
the traceback holds the user's frames, not eagerflow's, unless filtering is disabled
(`tf.debugging.disable_traceback_filtering()`, or EAGERFLOW_TRACEBACK_FILTERING=0).

Expected texts, from TensorFlow 2.21 for the same programs:
- gather out of range:  'Graph execution error:\\n\\nDetected at node GatherV2 defined at (most recent call
  last):\\n  File "t.py", line 42, in <module>\\n\\n  File "t.py", line 35, in gg\\n\\nindices[0] = 5 is not in
  [0, 3)\\n\\t [[{{node GatherV2}}]] [Op:__inference_gg_126]' (TensorFlow leaves each frame's source line empty)
- inside a tensor `if`: the `if` line then the gather line; inside a `while` body: the `while` line then
  the body's line ("Incompatible shapes: [2] vs. [3]"); in a nested tf.function: the outer function's
  calling line, then the inner function's line.
- eagerly, the same class and words: 'indices[0] = 5 is not in [0, 3) [Op:GatherV2]'.
"""
from __future__ import annotations

import inspect
import os
import subprocess
import sys
import traceback

import pytest

import eagerflow as tf

IAE = tf.errors.InvalidArgumentError
PACKAGE = os.path.dirname(tf.__file__) + os.sep
HERE = __file__


def _line(fn, text):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if text in line)


def _frame(fn, text, name=None):
    return f'  File "{HERE}", line {_line(fn, text)}, in {name or fn.__name__}\n'


def _ours(err):
    return [(os.path.basename(f.filename), f.name) for f in traceback.extract_tb(err.__traceback__)
            if f.filename.startswith(PACKAGE)]


def _ours_below_the_user(err):
    """eagerflow's frames after the first frame of this file's traced code: none when filtered."""
    frames = traceback.extract_tb(err.__traceback__)
    first = next(i for i, f in enumerate(frames) if f.filename == HERE and f.name != "<lambda>" and i > 0)
    return [(os.path.basename(f.filename), f.name) for f in frames[first:] if f.filename.startswith(PACKAGE)]


CALL_DISPATCH = {("function.py", "__call__"), ("function.py", "_call"), ("function.py", "_call_with_signature"),
                 ("concrete.py", "_call_flat")}  # the call's own frames above the re-raise: one line each


def gg(x, i):
    return tf.gather(x, i)


def test_gather_out_of_range_names_node_user_line_inputs_and_keeps_eagers_class_and_words():
    x, i = tf.constant([1.0, 2.0, 3.0]), tf.constant([5])
    with pytest.raises(IAE) as eager:
        gg(x, i)
    assert eager.value.message == "indices[0] = 5 is not in [0, 3) [Op:GatherV2]"
    f = tf.function(gg, input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)])
    with pytest.raises(IAE) as info:
        f(x, i)
    text = info.value.message
    assert text.startswith("Graph execution error:\n\nDetected at node GatherV2 defined at (most recent call last):\n")
    assert _frame(gg, "tf.gather(x, i)") + "    return tf.gather(x, i)\n\n" in text
    assert "\n\nindices[0] = 5 is not in [0, 3)\n\t [[{{node GatherV2}}]] [Op:__inference_gg]\n" in text
    assert text.endswith("Inputs of node GatherV2 (GatherV2): x:0 float32 [3], i:0 int32 [1], GatherV2/axis:0 int32 []")
    assert info.value.op.name == "GatherV2"


def test_a_failed_assert_in_a_function_names_its_line_with_eagers_words():
    def check(x):
        tf.debugging.assert_positive(x, message="x must be positive")
        return x * 2.0

    with pytest.raises(IAE) as eager:
        check(tf.constant([-1.0]))
    f = tf.function(check, input_signature=[tf.TensorSpec([None])])
    with pytest.raises(IAE) as info:
        f(tf.constant([-1.0]))
    for words in ("x must be positive", "Condition x > 0 did not hold element-wise"):
        assert words in eager.value.message and words in info.value.message
    assert _frame(check, "assert_positive") in info.value.message


def test_inside_a_cond_branch_the_if_line_and_the_branch_line():
    def pick(x, i):
        if tf.reduce_sum(x) > 0:
            y = tf.gather(x, i)
        else:
            y = x
        return y

    f = tf.function(pick, input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)])
    with pytest.raises(IAE) as info:
        f(tf.constant([1.0, 2.0, 3.0]), tf.constant([5]))
    text = info.value.message
    assert _frame(pick, "if tf.reduce_sum") in text
    # both frames named after the user's function, as TensorFlow names them (not AutoGraph's branch function)
    assert text.index(_frame(pick, "if tf.reduce_sum")) < text.index(_frame(pick, "tf.gather(x, i)"))
    assert "indices[0] = 5 is not in [0, 3)" in text and "Inputs of node GatherV2 (GatherV2): " in text
    assert set(_ours(info.value)) <= CALL_DISPATCH  # no kernel, registry, codegen or error-building frames


def test_inside_a_while_body_the_loop_line_and_the_body_line_and_the_shapes_a_none_dimension_hid():
    def grow(x, y):
        i = tf.constant(0)
        while i < 2:
            x = x + y
            i += 1
        return x

    f = tf.function(grow, input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None])])
    with pytest.raises(IAE) as info:
        f(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))
    text = info.value.message
    assert _frame(grow, "while i < 2") in text
    assert _frame(grow, "x = x + y") + "    x = x + y\n" in text
    assert "\n\nIncompatible shapes: [2] vs. [3]\n\t [[{{node add}}]]" in text
    assert text.endswith("float32 [2], add/y:0 float32 [3]")


@tf.function
def inner_add(a, b):
    return a + b


def test_in_a_nested_function_the_callers_line_then_the_inner_line():
    inner_add.get_concrete_function(tf.TensorSpec([None]), tf.TensorSpec([None]))  # traced before, elsewhere

    def outer(a, b):
        return inner_add(a, b) * 2.0

    f = tf.function(outer, input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None])])
    with pytest.raises(IAE) as info:
        f(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0]))
    text = info.value.message
    caller, inner = _frame(outer, "inner_add(a, b) * 2.0"), _frame(inner_add.python_function, "return a + b")
    assert caller in text and inner in text and text.index(caller) < text.index(inner)
    assert "Incompatible shapes: [2] vs. [3]" in text


def test_the_cached_call_path_shows_one_eagerflow_frame():
    f = tf.function(gg)
    x = tf.constant([1.0, 2.0, 3.0])
    f(x, tf.constant([1]))  # traced; the next call with these specs takes the hot path
    with pytest.raises(IAE) as info:
        f(x, tf.constant([5]))
    assert _ours(info.value) == [("function.py", "__call__")]
    assert info.value.message.count("{{node GatherV2}}") == 1


def test_a_trace_time_error_shows_the_users_frames_through_nested_functions():
    @tf.function
    def bad_inner(a):
        return a + tf.ones([3])

    @tf.function
    def bad_outer(a):
        return bad_inner(a) * 2.0

    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 2 and 3") as info:  # TF's graph words
        bad_outer(tf.ones([2]))
    frames = traceback.extract_tb(info.value.__traceback__)
    users = [(f.name, f.lineno) for f in frames if f.filename == HERE]
    assert users[-2:] == [("bad_outer", _line(bad_outer.python_function, "bad_inner(a) * 2.0")),
                          ("bad_inner", _line(bad_inner.python_function, "a + tf.ones([3])"))]
    assert _ours_below_the_user(info.value) == []  # from the user's function down: the user's frames only
    assert set(_ours(info.value)) <= CALL_DISPATCH | {("tracebacks.py", "error_handler")}


def _bad_shapes(a):
    return a + tf.ones([3])


def test_filtering_can_be_disabled_and_starts_off_with_the_environment_variable():
    assert tf.debugging.is_traceback_filtering_enabled()
    tf.debugging.disable_traceback_filtering()
    try:
        assert not tf.debugging.is_traceback_filtering_enabled()
        with pytest.raises(ValueError) as info:
            tf.function(_bad_shapes)(tf.ones([2]))
    finally:
        tf.debugging.enable_traceback_filtering()
    assert ("graph.py", "add_operation") in _ours_below_the_user(info.value)  # where the shape rule refused
    with pytest.raises(ValueError) as info:
        tf.function(_bad_shapes)(tf.ones([2]))
    assert _ours_below_the_user(info.value) == []
    code = "import eagerflow as tf; print(tf.debugging.is_traceback_filtering_enabled())"
    env = dict(os.environ, EAGERFLOW_TRACEBACK_FILTERING="0", PYTHONPATH=os.path.dirname(os.path.dirname(PACKAGE)))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_ops_a_keras_layer_builds_are_sited_at_the_users_line():
    """eagerflow's public keras/ package lives outside _src: its frames are eagerflow's too (after
    the move to _src, a Dense layer's ops were sited in keras/layers/core.py)."""
    layer = tf.keras.layers.Dense(3)

    def model(x):
        return layer(x)

    cf = tf.function(model).get_concrete_function(tf.TensorSpec([None, 4]))
    sites = {op.source[:2] for op in cf.graph.get_operations() if op.type in ("MatMul", "BiasAdd", "AddV2")}
    assert sites == {(HERE, _line(model, "return layer(x)"))}


def test_under_a_recording_tape_the_same_layout_and_the_functions_own_name():
    def mul(a, b):
        return a * b

    f = tf.function(mul, input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None])])
    a = tf.Variable([1.0, 2.0])
    with tf.GradientTape():
        with pytest.raises(IAE) as info:
            f(a, tf.constant([1.0, 2.0, 3.0]))
    text = info.value.message
    assert _frame(mul, "return a * b") in text
    assert "\n\nIncompatible shapes: [2] vs. [3]\n\t [[{{node mul}}]] [Op:__inference_mul]\n" in text


def test_a_trace_time_shape_error_prints_input_shapes_as_tensorflow():
    """TensorFlow 2.21: "... for '{{node add}} = AddV2[T=DT_FLOAT](a, b)' with input shapes: [?,3], [4]."."""
    with pytest.raises(ValueError) as info:
        tf.function(lambda a, b: a + b).get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([4]))
    assert str(info.value).endswith("for '{{node add}} = AddV2' with input shapes: [?,3], [4].")
    with pytest.raises(ValueError) as info:
        tf.function(lambda a, b: tf.matmul(a, b)).get_concrete_function(tf.TensorSpec([None, 3]),
                                                                        tf.TensorSpec([4, 2]))
    assert str(info.value).endswith("for '{{node MatMul}} = MatMul' with input shapes: [?,3], [4,2].")


def test_ops_built_in_the_frame_that_made_the_graph_are_sited_at_their_own_lines():
    from eagerflow._src.graph.graph import Graph
    g = Graph("g")
    with g.as_default():
        a = tf.constant(1.0)
        a + 2.0
    sites = {op.name: op.source[1] for op in g.get_operations()}
    here = test_ops_built_in_the_frame_that_made_the_graph_are_sited_at_their_own_lines
    assert sites == {"Const": _line(here, "tf.constant(1.0)"), "add/y": _line(here, "a + 2.0"),
                     "add": _line(here, "a + 2.0")}
