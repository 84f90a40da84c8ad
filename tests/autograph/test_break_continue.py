"""`break`, `continue` and loop `else:` inside converted loops."""
import logging

import pytest

import eagerflow as tf

from eagerflow._src.graph.graph import OperatorNotAllowedInGraphError  # not yet tf.errors.*

from .helpers import both


def first_over(t, limit):
    total = 0.0
    for x in t:
        if x > limit:
            break
        total += x
    return total


def odd_sum(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        s += i
    return s


def nested(n):
    count = 0
    for i in tf.range(n):
        for j in tf.range(n):
            if j > i:
                break
            count += 1
    return count


def with_else(n, stop):
    found = -1
    for i in range(n):
        if i == stop:
            found = i
            break
    else:
        found = 100
    return found


@pytest.mark.parametrize("limit", [0.0, 2.5, 10.0])
def test_break_in_for_over_tensor(limit):
    t = tf.constant([1.0, 2.0, 3.0, 4.0])
    assert float(both(first_over, t, tf.constant(limit))) == first_over([1.0, 2.0, 3.0, 4.0], limit)


def test_continue_in_while():
    assert int(both(odd_sum, tf.constant(7))) == 1 + 3 + 5 + 7


def test_nested_loops_keep_their_own_break():
    assert int(both(nested, tf.constant(4))) == 10


def while_else(x):
    i = 0
    while i < 2:
        i += 1
    else:
        i += 10
    if x > 0:
        x = x + i
    return x


def test_loop_else_leaves_the_function_unconverted_as_tensorflow_does(caplog):
    # TF 2.21: "AutoGraph could not transform <function with_else> and will run it as-is.
    # Cause: for/else statement not yet supported"; Python loops then behave as Python (2, 100),
    # a loop over a tensor fails as plain Python does (TypeError for range of a symbolic tensor,
    # OperatorNotAllowedInGraphError for a tensor `if`).
    with caplog.at_level(logging.WARNING, logger="eagerflow._src.autograph"):
        assert int(tf.function(with_else)(5, 2)) == 2
        assert int(tf.function(with_else)(5, 9)) == 100
        with pytest.raises(TypeError):
            tf.function(with_else)(tf.constant(5), tf.constant(2))
        with pytest.raises(OperatorNotAllowedInGraphError,
                           match="Using a symbolic `tf.Tensor` as a Python `bool` is not allowed"):
            tf.function(while_else)(tf.constant(1))
    reasons = [r.getMessage() for r in caplog.records]
    assert any(r.startswith("AutoGraph could not transform with_else and will run it as-is.\nCause: for/else "
                            "statement not yet supported") for r in reasons), reasons
    assert any("while_else" in r and "while/else statement not yet supported" in r for r in reasons), reasons
