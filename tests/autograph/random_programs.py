"""Small random Python functions over tensors, for comparing AutoGraph's conversion with eager runs.

A seeded generator writes functions `def p<k>(x, n, xs, v, w):` of nested `if` / `while` / `for`
statements (tensor and Python conditions, loops with and without loop variables, bodies whose
only effect is on variables, break / continue / return), so that the same source runs eagerly
(plain Python over eager tensors: the reference) and under `tf.function`.

Every generated program stays inside what TensorFlow 2.21's AutoGraph converts, so its answer is
the eager one. Checked once with TensorFlow 2.21 (seeds 0-299, three inputs each): 298 programs
gave the eager answers; on 2 (seed 104 among them) TensorFlow returned an empty float32 tensor from
the call that retraced for a new `xs` length, a TensorFlow defect, not a semantic difference.
The rules the generator keeps:
- every name is defined before any control flow and keeps its dtype (int32 scalars);
- temporaries (`t<k>`) are assigned and read in one block only;
- a `while` is bounded by a counter incremented first in its body (a Python int counter for a
  loop under a Python condition, a variable `w[d]` for loops with no loop variables);
- the function always ends with a `return`, so an early `return` is never the only one;
- a `return` ends a branch of an `if` in the function's own block (a guard clause), the shape
  TensorFlow converts; nested deeper, or in a loop, TensorFlow refuses it under a tensor condition
  (tests/autograph/test_returns.py records those refusals);
- inside a Python loop (`for j in range(2)`) there is no break / continue, which TensorFlow
  refuses under a tensor condition there.
"""
from __future__ import annotations

import random

ARGS = "x, n, xs, v, w"
NAMES = ("a", "b", "c")


class _Writer:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.temps = 0
        self.counters = 0

    def line(self, depth, text):
        self.lines.append("    " * depth + text)

    def value(self, extra=()):
        r = self.rng
        atoms = list(NAMES) + ["x", "v.read_value()"] + list(extra)
        return f"{r.choice(atoms)} * {r.randint(1, 3)} + {r.choice(atoms)} + {r.randint(0, 5)}"

    def test(self, extra=()):
        r = self.rng
        atoms = list(NAMES) + ["x", "v.read_value()"] + list(extra)
        kind = r.random()
        if kind < 0.12:
            return r.choice(["True", "False", "x is not None", f"{r.randint(0, 3)} > 1"])  # a Python test
        if kind < 0.25:
            return f"({r.choice(atoms)} > {r.randint(0, 6)}) and ({r.choice(atoms)} % 2 == 0)"
        return f"({r.choice(atoms)} + {r.randint(0, 3)}) % {r.randint(2, 4)} == 0"

    def block(self, depth, nest, loop, in_py_loop, extra):
        """One block: 1-3 statements; `loop` says whether break/continue may appear."""
        r = self.rng
        for _ in range(r.randint(1, 3)):
            self.statement(depth, nest, loop, in_py_loop, extra)

    def statement(self, depth, nest, loop, in_py_loop, extra):
        r = self.rng
        kinds = ["assign", "effect", "temp"]
        if nest < 3:
            kinds += ["if", "if", "while", "for"]
        if loop and not in_py_loop:
            kinds += ["break", "continue"]
        if nest == 0:
            kinds += ["return"]
        kind = r.choice(kinds)
        if kind == "assign":
            self.line(depth, f"{r.choice(NAMES)} = ({self.value(extra)}) % 97")
        elif kind == "effect":
            self.line(depth, r.choice([f"v.assign_add({r.randint(1, 4)})",
                                       f"v.assign(({self.value(extra)}) % 89)"]))
        elif kind == "temp":
            t = f"t{self.temps}"
            self.temps += 1
            self.line(depth, f"{t} = {self.value(extra)}")
            self.line(depth, f"{r.choice(NAMES)} = ({t} + {r.choice(NAMES)}) % 83")
        elif kind in ("break", "continue"):
            self.line(depth, f"if {self.test(extra)}:")
            self.line(depth + 1, kind)
        elif kind == "return":  # a guard clause; its else (if any) returns or falls through
            self.line(depth, f"if {self.test(extra)}:")
            self.block(depth + 1, nest + 1, loop, in_py_loop, extra)
            self.line(depth + 1, f"return {self.value(extra)}")
            if r.random() < 0.4:
                self.line(depth, "else:")
                self.block(depth + 1, nest + 1, loop, in_py_loop, extra)
                if r.random() < 0.5:
                    self.line(depth + 1, f"return {self.value(extra)}")
        elif kind == "if":
            self.line(depth, f"if {self.test(extra)}:")
            self.block(depth + 1, nest + 1, loop, in_py_loop, extra)
            if r.random() < 0.6:
                self.line(depth, "else:")
                self.block(depth + 1, nest + 1, loop, in_py_loop, extra)
        elif kind == "while":
            self.loop_while(depth, nest, in_py_loop, extra)
        else:
            self.loop_for(depth, nest, in_py_loop, extra)

    def loop_while(self, depth, nest, in_py_loop, extra):
        r = self.rng
        k = self.counters
        self.counters += 1
        style = r.choice(["tensor", "variable", "effects"])
        if style == "tensor":  # a tensor counter: a loop variable
            self.line(depth, f"k{k} = n * 0")
            self.line(depth, f"while k{k} < n + {r.randint(0, 1)}:")
            self.line(depth + 1, f"k{k} += 1")
            self.block(depth + 1, nest + 1, True, False, extra + (f"k{k}",))
        else:  # a variable counter: no loop variables unless the body assigns names
            self.line(depth, f"w[{nest}].assign(0)")
            self.line(depth, f"while w[{nest}].read_value() < n + {r.randint(0, 1)}:")
            self.line(depth + 1, f"w[{nest}].assign_add(1)")
            if style == "effects":  # only side effects in the body
                self.line(depth + 1, f"v.assign_add({r.randint(1, 3)})")
            else:
                self.block(depth + 1, nest + 1, True, False, extra)

    def loop_for(self, depth, nest, in_py_loop, extra):
        r = self.rng
        k = self.counters
        self.counters += 1
        style = r.choice(["range", "range", "elements", "unused", "python"])
        if style == "range":
            self.line(depth, f"for i{k} in tf.range(n):")
            self.block(depth + 1, nest + 1, True, False, extra + (f"i{k}",))
        elif style == "elements":
            self.line(depth, f"for e{k} in xs:")
            self.block(depth + 1, nest + 1, True, False, extra + (f"e{k}",))
        elif style == "unused":  # `for _ in tensor:` with only side effects
            self.line(depth, "for _ in xs:")
            self.line(depth + 1, f"v.assign_add({r.randint(1, 3)})")
        else:
            self.line(depth, f"for j{k} in range({r.randint(0, 2)}):")
            self.block(depth + 1, nest + 1, False, True, extra + (f"j{k}",))


def program(seed):
    """The source of one function `p<seed>`."""
    rng = random.Random(seed)
    w = _Writer(rng)
    w.line(0, f"def p{seed}({ARGS}):")
    for name in NAMES:
        w.line(1, f"{name} = x * 0 + {rng.randint(0, 4)}")
    w.block(1, 0, False, False, ())
    if rng.random() < 0.5:
        w.block(1, 0, False, False, ())
    w.line(1, "return a + b * 3 + c * 7 + v.read_value() * 11")
    return "\n".join(w.lines) + "\n"


def module_source(seeds):
    return "import tensorflow as tf\n\n\n" + "\n\n".join(program(s) for s in seeds)


# The inputs every program is called with: (x, n, xs); v starts at 5, w at 0.
INPUTS = [(3, 2, [1, 2, 3]), (0, 0, [4]), (7, 3, [2, 5])]
