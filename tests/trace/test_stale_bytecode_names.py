"""trace/stale.py reads the names a function loads and stores from its raw bytecode (cheaper than
dis.get_instructions on a first tf.function call): on every code object of several modules, including
closures that write their cells, the names must be the argvals `dis` gives for the same instructions."""
import dis
import inspect
import types

import pytest

from eagerflow._src.trace import function, stale, tracer
from eagerflow._src.autograph import transform

GROUPS = {"loads": (stale._LOADS_GLOBAL, ("LOAD_GLOBAL", "LOAD_NAME")),
          "stores": (stale._STORES_GLOBAL, ("STORE_GLOBAL", "DELETE_GLOBAL", "STORE_NAME")),
          "cells": (stale._WRITES_CELL, ("STORE_DEREF", "DELETE_DEREF"))}

COUNTER = 0


def _closures():
    total = 0

    def bump(k):
        nonlocal total
        global COUNTER
        total += k
        COUNTER += k
        del COUNTER
        return total
    return bump


def _codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


@pytest.mark.parametrize("module", [function, stale, tracer, transform, inspect])
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_names_read_from_the_raw_bytecode_are_diss(module, group):
    opcodes, opnames = GROUPS[group]
    source = inspect.getsource(module) + "\n" + inspect.getsource(_closures)
    checked = 0
    for code in _codes(compile(source, module.__name__, "exec")):
        expected = [i.argval for i in dis.get_instructions(code) if i.opname in opnames]
        assert stale._names(code, opcodes) == expected, code.co_name
        checked += bool(expected)
    assert checked > 0
