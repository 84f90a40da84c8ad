"""`break`, `continue` and loop `else:` inside converted loops."""
import pytest

import eagerflow as tf

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


def test_loop_else_runs_without_break():
    assert int(both(with_else, tf.constant(5), tf.constant(2))) == 2
    assert int(both(with_else, tf.constant(5), tf.constant(9))) == 100
