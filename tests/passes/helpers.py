"""Shared by the per-pass tests: trace a function to a graph, run chosen passes, look at the result."""
from eagerflow._src.graph.verify import verify_program
from eagerflow._src.passes.pipeline import program_of

import eagerflow as tf


def trace(fn, *specs):
    """The graph `tf.function(fn)` traces for these TensorSpecs."""
    return tf.function(fn).get_concrete_function(*specs).graph


def run(graph, *passes):
    """A fresh Program of `graph` after `passes` in order, checked by graph/verify.py after each."""
    program = program_of(graph)
    for p in passes:
        p(program)
        verify_program(program, graph, after=p.__name__)
    return program


def types(program):
    return [op.type for op in program.ops]


def live_types(program):
    """Op types that generated code would run (Placeholders and Consts need no statement)."""
    return [op.type for op in program.ops if op.type not in ("Placeholder", "Const")]


def resolved_op(program, tensor):
    return program.resolve(tensor).op
