"""to_code, error locations, do_not_convert, print at trace time, fallback with a reason."""
import logging
import traceback

import pytest

import eagerflow as tf
from eagerflow._src.api import autograph


def loop(x, n):
    while n > 0:
        x = x * 2
        n -= 1
    return x


def test_to_code_is_readable():
    code = autograph.to_code(loop)
    assert "ag__.while_stmt(loop_test, loop_body, (x, n), ('x', 'n'))" in code
    assert "def loop_body(x, n):" in code and "ag__.ld" not in code
    compile(code, "<to_code>", "exec")


def failing(x):
    if x > 0:
        y = tf.reshape(x, [7])
    else:
        y = x
    return y


def test_errors_point_at_the_users_line():
    with pytest.raises(Exception) as info:
        tf.function(failing)(tf.constant(1.0))
    frames = traceback.extract_tb(info.value.__traceback__)
    ours = [f for f in frames if f.filename == __file__ and f.name == "if_true"]
    assert ours and ours[-1].line == "y = tf.reshape(x, [7])"


def test_do_not_convert_leaves_python():
    @autograph.experimental.do_not_convert
    def raw(x):
        if x > 0:
            return x
        return -x
    with pytest.raises(TypeError):
        tf.function(raw)(tf.constant(1.0))


def test_print_runs_while_tracing_only(capsys):
    @tf.function
    def f(x):
        print("tracing")
        if x > 0:
            x = x + 1
        return x
    f(tf.constant(1.0))
    f(tf.constant(2.0))
    assert capsys.readouterr().out.count("tracing") == 1


def test_unconvertible_function_runs_as_is_with_one_line_reason(caplog):
    namespace = {"__name__": "made_up_user_module"}
    exec("def g(x):\n    return x * 2\n", namespace)  # no source file: cannot be converted
    with caplog.at_level(logging.WARNING, logger="eagerflow._src.autograph"):
        assert float(tf.function(namespace["g"])(tf.constant(2.0))) == 4.0
    assert any("source code is not available" in r.getMessage() for r in caplog.records)


def test_non_tensor_arguments_behave_as_python():
    assert loop(1, 3) == tf.function(loop)(1, 3) == 8
