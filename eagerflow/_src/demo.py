"""`eagerflow demo`: trains an MNIST classifier first (the main job, in demo_training.py: MNIST from Keras'
cache or the bundled UCI digits, eager vs tf.function step times, test accuracy, a SavedModel round trip), then
a short tour of eager execution, GradientTape, tf.function and AutoGraph.

The demo is a list of `Section`s. A section either shows code, which is run statement by
statement and echoed like an interactive session (so what is printed is exactly what ran, and
expression statements display their values as the Python prompt would), or computes something
with a `run` function (the timing section). Later features add sections by appending to
`SECTIONS` (e.g. tf.function with eager-vs-graph timings, then a training loop).
"""
from __future__ import annotations

import ast
import linecache
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Section:
    title: str
    intro: str = ""
    code: str = ""  # run and echoed when given
    run: Callable[[], None] | None = None  # called after the code, when given


def _echo_and_run(code: str, namespace: dict, filename: str = "<eagerflow demo>") -> None:
    """Runs `code` one top-level statement at a time, echoing each with `>>>` / `...` prompts.
    A top-level expression statement shows its repr, as at the prompt; expressions inside a loop
    body do not (the prompt would print every `v.assign_sub(...)` result of every iteration).
    The code is registered in linecache under `filename`, so functions defined in it have source
    (AutoGraph converts them, tracebacks show them)."""
    lines = code.strip("\n").splitlines()
    text = "\n".join(lines) + "\n"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    tree = ast.parse(text)
    start = 0
    for stmt in tree.body:
        chunk = lines[start:stmt.end_lineno]
        while chunk and not chunk[0].strip():
            chunk.pop(0)
        for i, ln in enumerate(chunk):
            print(("... " if i else ">>> ") + ln)
        start = stmt.end_lineno
        sys.stdout.flush()
        if isinstance(stmt, ast.Expr):
            code_obj = compile(ast.Interactive(body=[stmt]), filename, "single")
        else:
            code_obj = compile(ast.Module(body=[stmt], type_ignores=[]), filename, "exec")
        exec(code_obj, namespace)


# ----------------------------------------------------------------------------------------------
# The eager op overhead measurement
# ----------------------------------------------------------------------------------------------


def _per_call_ns(fns: dict, target_ns: int = 10_000_000, repeat: int = 5) -> dict:
    """Median per-call time of each zero-argument callable, samples interleaved across them so
    machine noise hits all alike (bench/harness.py does the same, with more options)."""
    numbers = {}
    for name, fn in fns.items():
        number = 1
        while True:
            start = time.perf_counter_ns()
            for _ in range(number):
                fn()
            elapsed = time.perf_counter_ns() - start
            if elapsed >= target_ns // 4 or number >= 1 << 22:
                break
            number *= 4
        numbers[name] = max(1, int(number * target_ns / max(elapsed, 1)))
    samples = {name: [] for name in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            n = numbers[name]
            start = time.perf_counter_ns()
            for _ in range(n):
                fn()
            samples[name].append((time.perf_counter_ns() - start) / n)
    return {name: statistics.median(s) for name, s in samples.items()}


def _overhead() -> None:
    import eagerflow as tf

    rng = np.random.default_rng(0)
    an = rng.standard_normal((2, 2)).astype(np.float32)
    bn = rng.standard_normal((2, 2)).astype(np.float32)
    a, b = tf.constant(an), tf.constant(bn)
    cases = [("a + b", lambda: a + b, lambda: an + bn),
             ("tf.matmul(a, b)", lambda: tf.matmul(a, b), lambda: np.matmul(an, bn))]
    for label, ours, floor in cases:
        t = _per_call_ns({"eagerflow": ours, "numpy": floor})
        over = (t["eagerflow"] - t["numpy"]) / 1e3
        print(f"2x2 float32 {label:16s} eagerflow {t['eagerflow'] / 1e3:6.2f} µs   NumPy {t['numpy'] / 1e3:6.2f} µs"
              f"   eager op overhead {over:+.2f} µs per op")
    print("(eagerflow aims at no more than 3 µs above NumPy per op)")


# ----------------------------------------------------------------------------------------------
# The sections
# ----------------------------------------------------------------------------------------------

def _training() -> None:
    from .demo_training import run_training
    run_training()


SECTIONS = [
    Section(
        "Training an MNIST classifier, then saving and reloading it",
        "TensorFlow's beginner program: a subclassed MyModel (Flatten, Dense(128, relu), Dense(10)) and its "
        "train_step under tf.function, on MNIST if ~/.keras/datasets/mnist.npz exists, else on the UCI 8x8 "
        "digits bundled with eagerflow.",
        run=_training),
    Section(
        "Eager execution: an op runs as soon as it is called",
        "No graph, no session: the result is there, printable and NumPy-compatible.",
        """
a = tf.constant([1.0, 2.0])
b = tf.add(a, 3.0)
print(b)
print(b.numpy() * 2)
"""),
    Section(
        "GradientTape: y = w2 · w1², two gradients from one persistent tape",
        "Variables are watched automatically; persistent=True allows more than one gradient() call.",
        """
w1 = tf.Variable([[2.0]])
w2 = tf.Variable([[3.0]])
with tf.GradientTape(persistent=True) as tape:
    z = tf.square(w1)
    y = tf.matmul(w2, z)
grad_w1 = tape.gradient(y, w1)  # dy/dw1 = 2 * w1 * w2 = 12
grad_w2 = tape.gradient(y, w2)  # dy/dw2 = z = 4
print("dy/dw1 =", grad_w1.numpy())
print("dy/dw2 =", grad_w2.numpy())
del tape  # release what the tape recorded
"""),
    Section(
        "Second derivative: nested tapes",
        "The inner gradient is computed with ordinary ops, so the outer tape records it.",
        """
x = tf.Variable(3.0)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x ** 3
    dy_dx = inner.gradient(y, x)  # 3 * x**2 = 27
d2y_dx2 = outer.gradient(dy_dx, x)  # 6 * x = 18
print("dy/dx =", dy_dx.numpy(), "  d2y/dx2 =", d2y_dx2.numpy())
"""),
    Section(
        "Jacobian: every output against every input",
        "Constants are not watched by default: tape.watch(x) asks for it.",
        """
x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
tape.jacobian(y, x)  # diag(2 * x)
"""),
    Section(
        "Gradient descent with Variable.assign_sub: fitting y = 3x + 2",
        "A tiny linear regression; w and b converge to 3 and 2.",
        """
x = tf.constant([[0.0], [1.0], [2.0], [3.0], [4.0]])
y = 3.0 * x + 2.0
w = tf.Variable([[0.0]])
b = tf.Variable([0.0])
for step in range(401):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.05 * dw)
    b.assign_sub(0.05 * db)
    if step % 100 == 0:
        print(f"step {step:3d}  loss {loss.numpy():9.2e}  w = {w.numpy()[0, 0]:.4f}  b = {b.numpy()[0]:.4f}")
"""),
    Section(
        "Eager op overhead vs NumPy",
        "What one tiny op costs on top of the NumPy call that computes it (median of interleaved samples).",
        run=_overhead),
]


# ----------------------------------------------------------------------------------------------
# tf.function: trace once, run a graph
# ----------------------------------------------------------------------------------------------


def _graph_vs_eager() -> None:
    """One small multi-op function called eagerly (one dispatch per op) and as a tf.function (one
    generated Python function over NumPy arrays), timed like the overhead section."""
    import eagerflow as tf

    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((4, 8)).astype(np.float32))
    w = tf.constant(rng.standard_normal((8, 8)).astype(np.float32))
    b = tf.constant(rng.standard_normal(8).astype(np.float32))

    def score(x, w, b):
        h = tf.nn.relu(tf.matmul(x, w) + b)
        h = h * 0.5 - 0.1
        return tf.reduce_mean(tf.sqrt(tf.reduce_sum(tf.square(h), axis=1) + 1e-6))

    graph = tf.function(score)
    graph(x, w, b)  # trace before timing
    t = _per_call_ns({"eager": lambda: score(x, w, b), "graph": lambda: graph(x, w, b)})
    print(f"10-op function on (4, 8) float32: eager {t['eager'] / 1e3:.2f} µs   tf.function {t['graph'] / 1e3:.2f} µs"
          f"   graph speedup {t['eager'] / t['graph']:.2f}x")


SECTIONS.append(Section(
    "tf.function: trace once, run a graph",
    "The Python function runs once on symbolic tensors; its ops become a graph, and the graph becomes "
    "generated Python code over NumPy arrays that later calls run directly.",
    """
@tf.function
def simple_computation(a, b):
    c = tf.matmul(a, b)
    d = tf.add(c, 1.0)
    return tf.maximum(d, 0.0)
spec = tf.TensorSpec(shape=[2, 2], dtype=tf.float32)
concrete_function = simple_computation.get_concrete_function(spec, spec)
for op in concrete_function.graph.get_operations():
    print(f"  {op.name:10s} {op.type}")
print(concrete_function.code)
simple_computation(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[1.0, -1.0], [0.5, -1.0]]))
import sys
@tf.function
def scaled(x):
    print("tracing: x =", x)  # Python print: runs while tracing only
    tf.print("running: x =", x, output_stream=sys.stdout)  # a graph op: runs on every call
    return x * 2.0
scaled(tf.constant([1.0, 2.0]))
scaled(tf.constant([3.0, 4.0]))  # same shape and dtype: the graph runs, no trace
scaled(tf.constant([[5.0], [6.0]]))  # a new shape: traced again
scaled.experimental_get_tracing_count()
""",
    run=_graph_vs_eager))


SECTIONS.append(Section(
    "AutoGraph: Python control flow on tensors becomes graph control flow",
    "Under tf.function, `if`/`for`/`while` on tensors become tf.cond/tf.while_loop (compiled to a "
    "Python if/while); on Python values they run at trace time, as in TensorFlow.",
    """
@tf.function
def dynamic_gather(data, indices):
    result = []
    for i in range(len(indices)):
        result.append(data[indices[i]])
    return tf.stack(result)
dynamic_gather(tf.constant([10.0, 20.0, 30.0]), tf.constant([2, 0, 1]))
dynamic_gather(tf.constant([10.0, 20.0, 30.0]), tf.constant([1, 1, 0, 2]))  # a new shape: traced again
dynamic_gather.experimental_get_tracing_count()
import sys
debug_flag = tf.Variable(False, trainable=False)
@tf.function
def safe_function(x):  # a tensor condition decides at run time
    if tf.cast(debug_flag, bool):
        tf.print("Processing:", x, output_stream=sys.stdout)
    return x * 2
safe_function(tf.constant(1.0))
debug_flag.assign(True)
safe_function(tf.constant(2.0))
@tf.function
def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
collatz_steps(tf.constant(27))
print(tf.autograph.to_code(collatz_steps.python_function))
import numpy as np
rng = np.random.default_rng(0)
x = rng.standard_normal((100, 8, 32)).astype(np.float32)
wx = (rng.standard_normal((32, 64)) * 0.1).astype(np.float32)
wh = (rng.standard_normal((64, 64)) * 0.1).astype(np.float32)
def cell(x, wx, wh, steps):  # h = tanh(x_t Wx + h Wh), 100 steps, batch 8, 32 -> 64
    h = tf.zeros([8, 64])
    for t in steps:
        h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
    return h
@tf.function
def rnn(x, wx, wh):
    return cell(x, wx, wh, tf.range(100))  # AutoGraph converts cell too: a while_loop
def numpy_rnn():
    h = np.zeros((8, 64), np.float32)
    for t in range(100):
        h = np.tanh(x[t] @ wx + h @ wh)
    return h
tx, twx, twh = tf.constant(x), tf.constant(wx), tf.constant(wh)
np.allclose(rnn(tx, twx, twh).numpy(), numpy_rnn(), atol=1e-5)
import timeit
for name, run in [("eager", lambda: cell(tx, twx, twh, range(100))), ("graph", lambda: rnn(tx, twx, twh)),
                  ("numpy", numpy_rnn)]:
    print(f"{name:5s} {min(timeit.repeat(run, number=5, repeat=3)) / 5 * 1e3:6.2f} ms per call")
"""))


def run_demo(sections=None) -> None:
    import eagerflow as tf

    sections = SECTIONS if sections is None else sections
    print("eagerflow demo: TensorFlow 2 programs on NumPy. Each section's code runs after `import eagerflow as tf`.")
    for number, section in enumerate(sections, 1):
        heading = f"{number}. {section.title}"
        print(f"\n{heading}\n{'=' * len(heading)}")
        if section.intro:
            print(section.intro)
        if section.code:
            namespace = {"tf": tf, "__name__": "__demo__"}
            _echo_and_run(section.code, namespace, f"<eagerflow demo {number}>")
        if section.run is not None:
            section.run()
