"""`eagerflow demo` trains TensorFlow's beginner MNIST program (on the bundled digits here: KERAS_HOME points at an
empty directory, so a machine's own mnist.npz does not change the test) and prints the tour's examples with the
values TensorFlow prints for them, in users' words (no project-internal names, every shown snippet runnable).

The expected strings are the seed document's own outputs (003: `tf.add` and the persistent tape)
and values worked out by hand (d(x^3)/dx at 3 is 27, the second derivative 18, the Jacobian of
x*x is diag(2x)); the same code was run under TensorFlow 2.21 to confirm the printed forms.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from eagerflow._src.demo import SECTIONS, Section, run_demo
from eagerflow.keras.datasets import digits

REPO = Path(__file__).resolve().parent.parent


def _run(*args, keras_home=None):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    if keras_home is not None:
        env["KERAS_HOME"] = str(keras_home)
    return subprocess.run([sys.executable, "-m", "eagerflow", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    proc = _run("demo", keras_home=tmp_path_factory.mktemp("empty_keras_home"))
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


TRAINING = "Training an MNIST classifier, then saving and reloading it"


def test_training_comes_first_and_uses_the_bundled_digits_without_mnist(demo):
    assert SECTIONS[0].title == TRAINING and demo.index(TRAINING) < demo.index("Eager execution")
    text = _section(demo, TRAINING)
    assert "Data: digits, 1438 training and 359 test images of 8x8 pixels (MNIST not found" in text


def test_training_shows_progress_and_the_loss_falls(demo):
    text = _section(demo, TRAINING)
    lines = re.findall(r"^epoch +(\d+)/20  loss ([\d.]+)$", text, re.M)  # compact: first, each quarter, last
    assert [int(epoch) for epoch, _ in lines] == [1, 5, 10, 15, 20]
    losses = [float(loss) for _, loss in lines]
    assert losses[-1] < 0.5 * losses[0] and losses[-1] < 0.3


def test_training_reaches_90_percent_test_accuracy_on_digits(demo):
    (accuracy,) = re.findall(r"^Test accuracy: ([\d.]+) \(359 digits test images\)$", _section(demo, TRAINING), re.M)
    assert float(accuracy) > 0.9


def test_training_prints_eager_and_tf_function_time_per_step(demo):
    (eager, graph, speedup), = re.findall(
        r"One training step \(batch 32\): eager ([\d.]+) ms +tf\.function ([\d.]+) ms +\(([\d.]+)x faster; "
        r"tracing took \d+ ms once\)", _section(demo, TRAINING))
    assert float(eager) > 0 and float(graph) > 0
    # The ratio printed (to 0.1) is the ratio of the times printed (each to 0.01 ms, so each off by 0.005 at most).
    ratio = float(eager) / float(graph)
    assert abs(ratio - float(speedup)) <= 0.05 + ratio * (0.005 / float(eager) + 0.005 / float(graph)) + 1e-9


def test_the_reloaded_saved_model_predicts_what_the_model_predicts(demo):
    text = _section(demo, TRAINING)
    # TF 2.21 + Keras 3 name the one output of the same serving function 'output_0'.
    assert ("SavedModel: saved with a serving signature, reloaded with tf.saved_model.load "
            "(serving_default(images) -> ['output_0'])\n") in text
    (agree, diff), = re.findall(r"^Reloaded vs trained model: predicted classes agree on ([\d.]+)% of the test "
                                r"images, largest logit difference (\S+)$", text, re.M)
    assert float(agree) == 100.0 and float(diff) < 1e-4


def test_the_demo_trains_on_mnist_when_the_file_is_in_keras_cache(tmp_path):
    # A small stand-in for mnist.npz in the standard layout: the bundled digits scaled up to
    # 28x28 uint8 (each pixel a 3x3 block, 2 pixels of border, 0..16 -> 0..255).
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    def as_mnist(x):
        big = np.kron(x.astype(np.int64), np.ones((1, 3, 3), np.int64)) * 255 // 16
        return np.pad(big, ((0, 0), (2, 2), (2, 2))).astype(np.uint8)
    (tmp_path / "datasets").mkdir()
    np.savez(tmp_path / "datasets" / "mnist.npz", x_train=as_mnist(x_train), y_train=y_train,
             x_test=as_mnist(x_test), y_test=y_test)
    proc = _run("demo", keras_home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = _section(proc.stdout, TRAINING)
    assert "Data: MNIST, 1438 training and 359 test images of 28x28 pixels\n" in text
    assert re.findall(r"^epoch (\d+)/2  loss", text, re.M) == ["1", "2"]  # the tutorial's 2 epochs
    (accuracy,) = re.findall(r"^Test accuracy: ([\d.]+) \(359 MNIST test images\)$", text, re.M)
    assert float(accuracy) > 0.5
    assert "predicted classes agree on 100.00% of the test images" in text


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
    assert re.findall(r"^(eager|graph|numpy) +[\d.]+ ms per call$", text, re.M) == ["eager", "graph", "numpy"]


def test_the_demo_speaks_users_language_and_its_snippets_are_self_contained(demo):
    for internal in ("seed document", "seed 00", "python -m bench", "compare_speed"):
        assert internal not in demo
    for section in SECTIONS:
        if section.code and re.search(r"\bnp\.", section.code):
            assert "import numpy as np" in section.code, section.title
