"""Ops made by converted control flow are attributed to their own line: a tensor `if` inside a tensor `for`
(its StatelessIf and the ops of its branches) at the `if`, not at the `for` that encloses it."""
import inspect

import eagerflow as tf


def _ops_by_type(graph, found=None):
    found = {} if found is None else found
    for op in graph.get_operations():
        found.setdefault(op.type, []).append(op)
        for value in op.attrs.values():
            for sub in value if isinstance(value, (list, tuple)) else [value]:
                if hasattr(getattr(sub, "graph", None), "get_operations"):
                    _ops_by_type(sub.graph, found)
    return found


def test_an_if_inside_a_for_is_defined_at_the_if():
    @tf.function
    def f(x):
        for _ in tf.range(3):
            if tf.reduce_sum(x) > 0:
                x = x * 0.5
        return x

    first = inspect.getsourcelines(f.python_function)[1]
    for_line, if_line, body_line = first + 2, first + 3, first + 4
    ops = _ops_by_type(f.get_concrete_function(tf.TensorSpec([2])).graph)
    assert {op.source[1] for op in ops["StatelessWhile"]} == {for_line}
    assert {op.source[1] for op in ops["StatelessIf"]} == {if_line}
    assert {op.source[1] for op in ops["Greater"]} == {if_line}
    assert {op.source[1] for op in ops["Mul"]} == {body_line}


def test_a_while_inside_an_if_is_defined_at_the_while():
    @tf.function
    def g(n):
        total = tf.constant(0)
        if n > 0:
            while total < n:
                total += 2
        return total

    first = inspect.getsourcelines(g.python_function)[1]
    ops = _ops_by_type(g.get_concrete_function(tf.TensorSpec([], tf.int32)).graph)
    assert {op.source[1] for op in ops["StatelessIf"]} == {first + 3}
    assert {op.source[1] for op in ops["StatelessWhile"]} == {first + 4}
