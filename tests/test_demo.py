"""`eagerflow demo` prints the seed documents' examples with the values TensorFlow prints for them.

The expected strings are the seed document's own outputs (003: `tf.add` and the persistent tape)
and values worked out by hand (d(x^3)/dx at 3 is 27, the second derivative 18, the Jacobian of
x*x is diag(2x)); the same code was run under TensorFlow 2.21 to confirm the printed forms.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eagerflow.demo import SECTIONS, Section, run_demo

REPO = Path(__file__).resolve().parent.parent


def _run(*args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "eagerflow", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def demo():
    proc = _run("demo")
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_eager_add_prints_like_tensorflow(demo):
    assert ">>> b = tf.add(a, 3.0)" in demo
    assert "tf.Tensor([4. 5.], shape=(2,), dtype=float32)" in demo


def test_persistent_tape_gradients(demo):
    assert "dy/dw1 = [[12.]]" in demo
    assert "dy/dw2 = [[4.]]" in demo


def test_nested_tapes_second_derivative(demo):
    assert "dy/dx = 27.0   d2y/dx2 = 18.0" in demo


def test_jacobian_is_diag_2x(demo):
    assert ("array([[2., 0., 0.],\n       [0., 4., 0.],\n       [0., 0., 6.]], dtype=float32)>") in demo


def test_linear_regression_converges(demo):
    steps = re.findall(r"step +(\d+)  loss +(\S+)  w = (\S+)  b = (\S+)", demo)
    assert [int(s[0]) for s in steps] == [0, 100, 200, 300, 400]
    losses = [float(s[1]) for s in steps]
    assert losses == sorted(losses, reverse=True) and losses[-1] < 1e-6
    # Step 0 is one exact gradient step from w = b = 0 on y = 3x + 2, x = 0..4 (lr 0.05):
    # dL/dw = -2 * mean(x * y) = -2 * 32 = -44 -> w = 2.2; dL/db = -2 * mean(y) = -16 -> b = 0.8.
    assert (float(steps[0][2]), float(steps[0][3])) == (2.2, 0.8)
    assert abs(float(steps[-1][2]) - 3.0) < 1e-3 and abs(float(steps[-1][3]) - 2.0) < 1e-3


def test_overhead_line_is_printed(demo):
    lines = re.findall(r"eagerflow +([\d.]+) µs +NumPy +([\d.]+) µs +eager op overhead ([+-][\d.]+) µs per op", demo)
    assert len(lines) == 2
    for ours, floor, over in lines:  # the overhead printed is the difference of the two times printed
        assert abs(float(ours) - float(floor) - float(over)) < 0.02  # each printed to 0.01


def test_every_section_has_a_heading_in_order(demo):
    positions = [demo.index(f"{i}. {s.title}\n") for i, s in enumerate(SECTIONS, 1)]
    assert positions == sorted(positions)


@pytest.mark.parametrize("args", [("bogus",), ()])
def test_bad_or_missing_subcommand_is_a_usage_error(args):
    proc = _run(*args)
    assert proc.returncode == 2
    assert proc.stderr.startswith("usage: eagerflow")
    assert proc.stdout == ""


def test_sections_echo_code_and_show_top_level_values_only(capsys):
    section = Section("Custom", "an added section", """
x = tf.constant(2.0)
x * 3
for i in range(2):
    x * i  # not displayed: only top-level expressions are
print("done")
""")
    run_demo([section])
    out = capsys.readouterr().out
    assert "1. Custom\n=========\nan added section\n" in out
    assert ">>> x * 3\n<tf.Tensor: shape=(), dtype=float32, numpy=6.0>\n" in out
    assert ">>> for i in range(2):\n...     x * i  # not displayed: only top-level expressions are\n>>> print" in out
    assert out.endswith(">>> print(\"done\")\ndone\n")


def _section(demo, title):
    start = demo.index(title)
    nxt = re.search(r"\n\d+\. ", demo[start:])
    return demo[start:start + nxt.start()] if nxt else demo[start:]


def test_function_section_lists_the_seed_graph_like_tensorflow(demo):
    text = _section(demo, "tf.function: trace once, run a graph")
    listed = re.findall(r"^  (\S+) +(\w+)$", text, re.M)
    # TensorFlow 2.21 lists exactly these nodes for seed document 001's simple_computation.
    assert listed == [("a", "Placeholder"), ("b", "Placeholder"), ("MatMul", "MatMul"), ("Add/y", "Const"),
                      ("Add", "AddV2"), ("Maximum/y", "Const"), ("Maximum", "Maximum"), ("Identity", "Identity")]


def test_function_section_prints_the_generated_code_and_its_result(demo):
    text = _section(demo, "tf.function: trace once, run a graph")
    code = text[text.index("\ndef simple_computation(a, b):"):text.index("return (Maximum,)")]
    assert "MatMul = a @ b" in code and "k_AddV2(MatMul" in code and "k_Maximum(Add" in code
    assert "Identity" not in code  # forwarded away: graph outputs are plain aliases at run time
    # [[1, 2], [3, 4]] @ [[1, -1], [0.5, -1]] + 1 = [[3, -2], [6, -6]]; max with 0.
    assert "array([[3., 0.],\n       [6., 0.]], dtype=float32)>" in text


def test_function_section_traces_per_shape_and_prints_at_run_time(demo):
    text = _section(demo, "tf.function: trace once, run a graph")
    events = re.findall(r"^(tracing|running): x = (.*)$", text, re.M)
    assert events == [("tracing", 'Tensor("x:0", shape=(2,), dtype=float32)'), ("running", "[1 2]"),
                      ("running", "[3 4]"),
                      ("tracing", 'Tensor("x:0", shape=(2, 1), dtype=float32)'), ("running", "[[5]")]
    assert "array([6., 8.], dtype=float32)>" in text
    assert ">>> scaled.experimental_get_tracing_count()\n2\n" in text


def test_function_section_times_eager_against_graph(demo):
    text = _section(demo, "tf.function: trace once, run a graph")
    (eager, graph, speedup), = re.findall(
        r"eager ([\d.]+) µs +tf\.function ([\d.]+) µs +graph speedup ([\d.]+)x", text)
    assert float(eager) > 0 and float(graph) > 0
    assert abs(float(eager) / float(graph) - float(speedup)) < 0.01 * float(speedup) + 0.01


def test_autograph_section_runs_the_seed_programs(demo):
    text = _section(demo, "AutoGraph: Python control flow on tensors becomes graph control flow")
    assert "numpy=array([30., 10., 20.], dtype=float32)>" in text  # dynamic_gather, seed 000
    assert "numpy=array([20., 20., 10., 30.], dtype=float32)>" in text
    assert text.count("Processing:") == 2 and "Processing: 2\n" in text  # printed once the flag is set
    assert "<tf.Tensor: shape=(), dtype=int32, numpy=111>" in text  # Collatz steps of 27
    assert "ag__.while_stmt(loop_test, loop_body" in text and "ag__.if_stmt(" in text
    assert ">>> np.allclose(rnn(tx, twx, twh).numpy(), numpy_rnn(), atol=1e-5)\nTrue" in text
    assert "graph / numpy = " in text
