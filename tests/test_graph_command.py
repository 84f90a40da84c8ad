"""`eagerflow graph MODULE:FUNCTION --input-signature ... -o out` (eagerflow/_src/graph_command.py)."""
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import eagerflow as tf
from eagerflow.__main__ import main
from eagerflow._src.graph_command import SignatureError, parse_input_signature

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("text, expected", [
    ("[[None, 784], float32]", [tf.TensorSpec([None, 784], tf.float32)]),
    ("[[], int32]", [tf.TensorSpec([], tf.int32)]),
    ("[None, tf.float64]", [tf.TensorSpec(None, tf.float64)]),
    ("[[[None, 784], float32], [[], int32]]", [tf.TensorSpec([None, 784]), tf.TensorSpec([], tf.int32)]),
    ("([2, 3], bool), ([None], string)", [tf.TensorSpec([2, 3], tf.bool), tf.TensorSpec([None], tf.string)]),
])
def test_signatures_parse_into_tensor_specs(text, expected):
    assert parse_input_signature(text) == expected


@pytest.mark.parametrize("text, message", [
    ("__import__('os').system('false')", "cannot read input signature"),
    ("[[None, 784], float32", "cannot parse input signature"),
    ("[[None, -1], float32]", "a dimension must be a non-negative int or None, got '-1'"),
    ("[[None, 2.5], float32]", "a dimension must be a non-negative int or None, got '2.5'"),
    ("[[None, 784], floaty]", "unknown dtype 'floaty'"),
    ("[[None, 784], os.float32]", "cannot read input signature"),
])
def test_bad_signatures_are_refused_without_running_them(text, message):
    with pytest.raises(SignatureError, match=message.replace("(", r"\(").replace("[", r"\[")):
        parse_input_signature(text)


MODULE = textwrap.dedent("""
    import eagerflow as tf

    def model(x):
        return tf.nn.softmax(tf.matmul(x, tf.ones([784, 10])))

    @tf.function(input_signature=[tf.TensorSpec([None, 3])])
    def signed(x):
        return x * 2.0
""")


@pytest.fixture
def module_file(tmp_path, monkeypatch):
    path = tmp_path / "graph_cli_model.py"
    path.write_text(MODULE)
    monkeypatch.chdir(tmp_path)
    yield path
    sys.modules.pop("graph_cli_model", None)


def test_draws_a_module_function_as_dot_and_html(module_file, capsys):
    out = module_file.parent / "out.dot"
    assert main(["graph", "graph_cli_model:model", "--input-signature", "[[None, 784], float32]", "-o", str(out)]) == 0
    dot = out.read_text()
    assert dot.startswith('digraph "model"') and 'label="MatMul\\n(None, 10) float32"' in dot
    assert "Softmax" in dot and "graph_cli_model.py:5" in dot
    assert "wrote" in capsys.readouterr().out
    page = module_file.parent / "out.html"
    assert main(["graph", str(module_file) + ":model", "--input-signature", "[[None, 784], float32]",
                 "-o", str(page), "--layout", "python"]) == 0
    assert "<svg" in page.read_text() and "Softmax" in page.read_text()


def test_the_functions_own_signature_is_the_default(module_file):
    out = module_file.parent / "signed.dot"
    assert main(["graph", "graph_cli_model:signed", "-o", str(out)]) == 0
    assert 'label="x\\nPlaceholder\\n(None, 3) float32"' in out.read_text()


@pytest.mark.parametrize("argv, message", [
    (["graph_cli_model:model", "--input-signature", "[[None, 784], float32]", "-o", "x.jpg"], "Cannot draw a graph as 'jpg'"),
    (["graph_cli_model", "-o", "x.dot"], "expected MODULE:FUNCTION, got 'graph_cli_model'"),
    (["graph_cli_model:nope", "-o", "x.dot"], "graph_cli_model has no attribute 'nope'"),
    (["no_such_module_xyz:f", "-o", "x.dot"], "No module named 'no_such_module_xyz'"),
    (["graph_cli_model:model", "--input-signature", "open('x')", "-o", "x.dot"], "cannot read input signature"),
    (["graph_cli_model:model", "-o", "x.dot"], "graph_cli_model:model has no input_signature: pass "
                                               "--input-signature with one [shape, dtype] per argument (x)"),
])
def test_usage_errors_exit_2_with_a_message(module_file, capsys, argv, message):
    assert main(["graph", *argv]) == 2
    assert message in capsys.readouterr().err
    assert not (module_file.parent / "x.dot").exists()


def test_the_command_runs_as_a_program_and_demo_is_still_listed(module_file):
    run = subprocess.run([sys.executable, "-m", "eagerflow", "graph", "graph_cli_model:model",
                          "--input-signature", "[[None, 784], float32]", "-o", "cli.dot"],
                         cwd=module_file.parent, capture_output=True, text=True,
                         env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert run.returncode == 0, run.stderr
    assert (module_file.parent / "cli.dot").read_text().startswith("digraph")
    usage = subprocess.run([sys.executable, "-m", "eagerflow", "--help"], cwd=REPO, capture_output=True, text=True)
    assert "demo" in usage.stdout and "graph" in usage.stdout


def test_an_image_without_graphviz_exits_1_naming_what_to_install(module_file, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)
    out = module_file.parent / "out.png"
    assert main(["graph", "graph_cli_model:model", "--input-signature", "[[None, 784], float32]", "-o", str(out)]) == 1
    assert "pip install 'eagerflow[viz]'" in capsys.readouterr().err and not out.exists()


def test_an_error_in_the_users_function_is_one_line_naming_their_line(module_file, capsys):
    assert main(["graph", "graph_cli_model:model", "--input-signature", "[[None, 3], float32]", "-o", "x.dot"]) == 1
    err = capsys.readouterr().err
    assert re.match(r"eagerflow graph: error: tracing graph_cli_model:model failed at \S*graph_cli_model\.py:5: "
                    r"ValueError: Dimensions must be equal, but are 3 and 784", err)
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (module_file.parent / "x.dot").exists()


def test_layout_dot_without_graphviz_says_so(module_file, capsys, monkeypatch):
    import shutil
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert main(["graph", "graph_cli_model:signed", "--layout", "dot", "-o", "x.html"]) == 2
    assert "--layout dot needs Graphviz's `dot` program" in capsys.readouterr().err
