"""Random programs: every generated function (random_programs.py) gives under tf.function what it
gives eagerly, the returned value and the variables' final values, for inputs that run its loops
zero, one and several times. The converted code must always compile.

CI runs EAGERFLOW_AUTOGRAPH_PROGRAMS programs (default 100: 300 comparisons); the slow run
(`pytest tests/autograph/test_random_programs.py -m slow`, kept out of the default suite by
conftest.py) compares SLOW_COUNT = 2,000 programs, 6,000 comparisons. On these programs TensorFlow 2.21's answer is the eager one (random_programs.py says
how that was checked).
"""
import importlib.util
import os
import re

import pytest

import eagerflow as tf

from . import random_programs

COUNT = int(os.environ.get("EAGERFLOW_AUTOGRAPH_PROGRAMS", "100"))
CHUNK = 50


SLOW_COUNT = 2000


def _load(tmp_path_factory, count):
    """The generated functions, written to a file so AutoGraph can read their source."""
    path = tmp_path_factory.mktemp("autograph_programs") / f"generated_programs_{count}.py"
    path.write_text(random_programs.module_source(range(count)).replace("import tensorflow", "import eagerflow"))
    spec = importlib.util.spec_from_file_location(f"generated_programs_{count}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    return _load(tmp_path_factory, COUNT)


@pytest.fixture(scope="module")
def slow_programs(tmp_path_factory):
    return _load(tmp_path_factory, SLOW_COUNT)


def _run(fn, x, n, xs):
    v = tf.Variable(5)
    w = [tf.Variable(0) for _ in range(3)]
    out = fn(tf.constant(x), tf.constant(n), tf.constant(xs), v, w)
    return int(out), int(v.numpy())


def _compare(programs, start, count):
    for seed in range(start, min(start + CHUNK, count)):
        fn = getattr(programs, f"p{seed}")
        traced = tf.function(fn)
        for x, n, xs in random_programs.INPUTS:
            expected = _run(fn, x, n, xs)
            got = _run(traced, x, n, xs)
            assert got == expected, (seed, x, n, xs, random_programs.program(seed))


@pytest.mark.parametrize("start", range(0, COUNT, CHUNK))
def test_traced_programs_agree_with_eager(programs, start):
    _compare(programs, start, COUNT)


@pytest.mark.slow
@pytest.mark.parametrize("start", range(0, SLOW_COUNT, CHUNK))
def test_slow_run_of_2000_programs(slow_programs, start):
    _compare(slow_programs, start, SLOW_COUNT)


def test_generator_covers_the_shapes_it_promises():
    source = random_programs.module_source(range(COUNT))
    for fragment in ("while w[", "for _ in xs:", "in tf.range(n):", "in range(", "break", "continue", "return ",
                     "else:", "v.assign_add("):
        assert fragment in source, fragment
    # loops whose body has only side effects (no loop variables): the IndentationError family
    only_effects = re.compile(r"^( *)while w\[\d\]\.read_value\(\) < n \+ \d:\n\1    w\[\d\]\.assign_add\(1\)\n"
                              r"\1    v\.assign_add\(\d\)\n(?!\1    )", re.M)
    assert len(only_effects.findall(source)) > COUNT // 20
    assert len(re.findall(r"^( *)for _ in xs:\n\1    v\.assign_add\(\d\)\n", source, re.M)) > COUNT // 20
