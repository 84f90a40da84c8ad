"""`eagerflow saved-model show|run` (eagerflow/saved_model/cli.py) against TensorFlow 2.21's
`saved_model_cli` on the same model (TF's text is written here; the tests never import TensorFlow).

`show` reads saved_model.pb as TensorFlow's tool does, so its text is TensorFlow's for the same file,
tensor names and the `__saved_model_init_op` signature included. What legitimately differs is the op
list of a model eagerflow saved (TensorFlow's saver functions hold more ops than eagerflow's; ours must
be a subset of it) and its order (TensorFlow prints an unordered Python set, eagerflow sorts).
TensorFlow-written models are compared with saved_model_cli in tests/interop/test_saved_model_cli.py.
"""
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.__main__ import main

REPO = Path(__file__).resolve().parents[2]

# TF 2.21: saved_model_cli show --dir m --all, for the model built in `saved` below
TF_SHOW_ALL = """
MetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:

signature_def['__saved_model_init_op']:
  The given SavedModel SignatureDef contains the following input(s):
  The given SavedModel SignatureDef contains the following output(s):
    outputs['__saved_model_init_op'] tensor_info:
        dtype: DT_INVALID
        shape: unknown_rank
        name: NoOp
  Method name is: 

signature_def['serving_default']:
  The given SavedModel SignatureDef contains the following input(s):
    inputs['x'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 784)
        name: serving_default_x:0
  The given SavedModel SignatureDef contains the following output(s):
    outputs['output_0'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 10)
        name: StatefulPartitionedCall:0
  Method name is: tensorflow/serving/predict

signature_def['two']:
  The given SavedModel SignatureDef contains the following input(s):
    inputs['k'] tensor_info:
        dtype: DT_INT32
        shape: ()
        name: two_k:0
    inputs['x'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 784)
        name: two_x:0
  The given SavedModel SignatureDef contains the following output(s):
    outputs['k'] tensor_info:
        dtype: DT_INT32
        shape: ()
        name: StatefulPartitionedCall_1:0
    outputs['probs'] tensor_info:
        dtype: DT_FLOAT
        shape: (-1, 10)
        name: StatefulPartitionedCall_1:1
  Method name is: tensorflow/serving/predict
The MetaGraph with tag set ['serve'] contains the following ops: {'Relu', 'Mul', 'NoOp', 'SaveV2', 'Softmax', \
'VarHandleOp', 'StringJoin', 'Placeholder', 'DisableCopyOnRead', 'Select', 'Pack', 'ShardedFilename', \
'MergeV2Checkpoints', 'ReadVariableOp', 'AssignVariableOp', 'RestoreV2', 'Const', 'StaticRegexFullMatch', \
'StatefulPartitionedCall', 'MatMul', 'Identity'}

Concrete Functions:
  Function Name: 'serve'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(None, 784), dtype=tf.float32, name='x')

  Function Name: 'two'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(None, 784), dtype=tf.float32, name='x')
        Argument #2
          k: TensorSpec(shape=(), dtype=tf.int32, name='k')
"""

# TF 2.21: saved_model_cli show --dir m --tag_set serve --signature_def two
TF_SHOW_TWO = """\
The given SavedModel SignatureDef contains the following input(s):
  inputs['k'] tensor_info:
      dtype: DT_INT32
      shape: ()
      name: two_k:0
  inputs['x'] tensor_info:
      dtype: DT_FLOAT
      shape: (-1, 784)
      name: two_x:0
The given SavedModel SignatureDef contains the following output(s):
  outputs['k'] tensor_info:
      dtype: DT_INT32
      shape: ()
      name: StatefulPartitionedCall_1:0
  outputs['probs'] tensor_info:
      dtype: DT_FLOAT
      shape: (-1, 10)
      name: StatefulPartitionedCall_1:1
Method name is: tensorflow/serving/predict
"""

# TF 2.21: run --signature_def two --inputs 'x=x.npy' --input_exprs 'k=3' (x.npy: np.ones((1, 784), float32))
TF_RUN_TWO = """\
Result for output key k:
6
Result for output key probs:
[[0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1 0.1]]
"""
# TF 2.21: run --signature_def serving_default --inputs 'x=x.npy'
TF_RUN_DEFAULT = """\
Result for output key output_0:
[[784. 784. 784. 784. 784. 784. 784. 784. 784. 784.]]
"""


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.ones((784, 10)))

    @tf.function(input_signature=[tf.TensorSpec([None, 784], tf.float32, name="x")])
    def serve(self, x):
        return tf.nn.relu(tf.matmul(x, self.w))

    @tf.function(input_signature=[tf.TensorSpec([None, 784], tf.float32, name="x"),
                                  tf.TensorSpec([], tf.int32, name="k")])
    def two(self, x, k):
        return {"probs": tf.nn.softmax(tf.matmul(x, self.w)), "k": k * 2}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    model = Model()
    tf.saved_model.save(model, str(root / "m"), signatures={"serving_default": model.serve, "two": model.two})
    np.save(root / "x.npy", np.ones((1, 784), np.float32))
    return root


def _without_op_list(text):
    """The text less its op list (see the module docstring)."""
    return re.sub(r"The MetaGraph with tag set .*\n", "", text)


def _ops(text):
    line = re.search(r"The MetaGraph with tag set \['serve'\] contains the following ops: \{(.*)\}\n", text)
    return set(re.findall(r"'(\w+)'", line.group(1)))


def _cli(capsys, *argv):
    code = main(["saved-model", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_show_all_has_tensorflows_layout(saved, capsys):
    code, out, err = _cli(capsys, "show", "--dir", str(saved / "m"), "--all")
    assert code == 0 and err == ""
    assert _without_op_list(out) == _without_op_list(TF_SHOW_ALL)
    ours = _ops(out)
    assert {"MatMul", "Relu", "Softmax", "Mul", "ReadVariableOp"} <= ours <= _ops(TF_SHOW_ALL)


def test_show_one_signature_has_tensorflows_layout(saved, capsys):
    for argv in (["--signature_def", "two"], ["--tag_set", "serve", "--signature_def", "two"]):
        code, out, _ = _cli(capsys, "show", "--dir", str(saved / "m"), *argv)
        assert code == 0 and out == TF_SHOW_TWO


def test_show_lists_tag_sets_and_signature_keys_as_tensorflow(saved, capsys):
    assert _cli(capsys, "show", "--dir", str(saved / "m")) == (
        0, "The given SavedModel contains the following tag-sets:\n'serve'\n", "")
    assert _cli(capsys, "show", "--dir", str(saved / "m"), "--tag_set", "serve") == (
        0, 'The given SavedModel MetaGraphDef contains SignatureDefs with the following keys:\n'
           'SignatureDef key: "__saved_model_init_op"\nSignatureDef key: "serving_default"\nSignatureDef key: "two"\n',
        "")
    # TF 2.21: --list_ops with a tag-set prints the op list before the signature keys
    code, out, _ = _cli(capsys, "show", "--dir", str(saved / "m"), "--tag_set", "serve", "--list_ops")
    assert code == 0 and out.startswith("The MetaGraph with tag set ['serve'] contains the following ops: {")
    assert {"MatMul", "Relu", "Softmax", "Mul"} <= _ops(out) <= _ops(TF_SHOW_ALL)
    assert out.split("\n", 1)[1].startswith("The given SavedModel MetaGraphDef contains SignatureDefs")


def test_run_prints_outputs_as_tensorflow(saved, capsys):
    d, x = str(saved / "m"), str(saved / "x.npy")
    assert _cli(capsys, "run", "--dir", d, "--signature_def", "two", "--inputs", f"x={x}",
                "--input_exprs", "k=3") == (0, TF_RUN_TWO, "")
    assert _cli(capsys, "run", "--dir", d, "--signature_def", "serving_default", "--inputs", f"x={x}") == (
        0, TF_RUN_DEFAULT, "")
    # the same through the NumPy-constructor grammar (TF's tool needs --use_eval for this); float64 is cast
    assert _cli(capsys, "run", "--dir", d, "--tag_set", "serve", "--signature_def", "serving_default",
                "--input_exprs", "x=np.ones((1,784))") == (0, TF_RUN_DEFAULT, "")
    code, out, _ = _cli(capsys, "run", "--dir", d, "--signature_def", "serving_default",
                        "--input_exprs", "x=np.full((2, 784), 0.5, dtype=np.float32)")
    assert code == 0 and out == "Result for output key output_0:\n" + str(np.full((2, 10), 392.0, np.float32)) + "\n"


def test_npz_inputs_name_their_array(saved, capsys):
    np.savez(saved / "both.npz", x=np.ones((1, 784), np.float32), k=np.int32(3))
    npz = str(saved / "both.npz")
    assert _cli(capsys, "run", "--dir", str(saved / "m"), "--signature_def", "two",
                "--inputs", f"x={npz}[x];k={npz}[k]") == (0, TF_RUN_TWO, "")


@pytest.mark.parametrize("argv, message", [
    (["show", "--dir", "{d}/missing", "--all"], "SavedModel file does not exist at: {d}/missing"),
    (["run", "--dir", "{d}/missing", "--signature_def", "two", "--input_exprs", "k=1"],
     "SavedModel file does not exist at: {d}/missing"),
    # TF 2.21: ValueError: Could not find signature "nope". Please choose from: __saved_model_init_op, ...
    (["run", "--dir", "{d}/m", "--signature_def", "nope", "--input_exprs", "x=1"],
     'Could not find signature "nope". Please choose from: __saved_model_init_op, serving_default, two'),
    (["show", "--dir", "{d}/m", "--signature_def", "nope"],
     'Could not find signature "nope". Please choose from: __saved_model_init_op, serving_default, two'),
    # TF 2.21: ValueError: "y" is not a valid input key. Please choose from "x", or use --show option.
    # (TF's tool has no --show option: eagerflow names the command that lists the keys)
    (["run", "--dir", "{d}/m", "--signature_def", "serving_default", "--input_exprs", "y=1"],
     '"y" is not a valid input key. Please choose from "x" (`eagerflow saved-model show --dir {d}/m --tag_set serve '
     '--signature_def serving_default` lists them).'),
    (["run", "--dir", "{d}/m", "--signature_def", "two", "--input_exprs", "k=1"], "missing input(s) 'x'"),
    # TF 2.21: At least one of --inputs, --input_exprs or --input_examples must be required
    (["run", "--dir", "{d}/m", "--signature_def", "two"], "At least one of --inputs or --input_exprs must be required"),
    (["run", "--dir", "{d}/m", "--signature_def", "two", "--input_exprs", "x=np.ones((1,5));k=1"],
     "input \"x\" has shape (1, 5), which is not compatible with the signature's shape (-1, 784)"),
    (["run", "--dir", "{d}/m", "--signature_def", "two", "--input_exprs", "k=np.ones(3)+1"],
     'Expression "np.ones(3)+1" is not a valid python literal'),
    (["run", "--dir", "{d}/m", "--signature_def", "two", "--input_exprs", "k"],
     '--input_exprs "k" format is incorrect'),
    (["run", "--dir", "{d}/m", "--signature_def", "two", "--inputs", "x={d}/none.npy"],
     'input file "{d}/none.npy" does not exist'),
    (["run", "--dir", "{d}/m", "--signature_def", "two", "--inputs", "x={d}/x.npy[a]"],
     'is a .npy file: it holds one array, not "a"'),
    # TF 2.21's words
    (["show", "--dir", "{d}/m", "--tag_set", "gpu"], "MetaGraphDef associated with tag-set gpu could not be found in "
     "the SavedModel. Please use one of the following tag-sets: ['serve']"),
    (["run", "--dir", "{d}/m", "--tag_set", "serve,gpu", "--signature_def", "two", "--input_exprs", "k=1"],
     "MetaGraphDef associated with tag-set gpu,serve could not be found"),
])
def test_errors_exit_non_zero_with_a_clear_message(saved, capsys, argv, message):
    code, out, err = _cli(capsys, *[a.format(d=saved) for a in argv])
    assert code == 1 and out == ""
    assert err.startswith(f"eagerflow saved-model {argv[0]}: error: ") and message.format(d=saved) in err
    assert err.count("\n") == 1  # one line, no traceback


def test_a_pickled_npy_is_refused_without_unpickling(saved, capsys):
    np.save(saved / "obj.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    code, _, err = _cli(capsys, "run", "--dir", str(saved / "m"), "--signature_def", "two",
                        "--inputs", f"x={saved / 'obj.npy'}", "--input_exprs", "k=1")
    assert code == 1 and "allow_pickle=False" in err


def test_a_corrupted_model_is_a_clear_error(tmp_path, capsys):
    model = Model()
    tf.saved_model.save(model, str(tmp_path / "m"), signatures={"serving_default": model.serve})
    data = (tmp_path / "m" / "saved_model.pb").read_bytes()
    (tmp_path / "m" / "saved_model.pb").write_bytes(data[:len(data) // 2])
    for argv in (["show", "--all"], ["run", "--signature_def", "serving_default", "--input_exprs", "x=1"]):
        code, _, err = _cli(capsys, argv[0], "--dir", str(tmp_path / "m"), *argv[1:])
        assert code == 1 and "the SavedModel is corrupted" in err and "saved_model.pb" in err, err


def test_an_expression_is_never_executed(saved, tmp_path, capsys):
    marker = tmp_path / "pwned"
    for expr in (f"__import__('pathlib').Path({str(marker)!r}).touch()",
                 f"np.array(open({str(marker)!r}, 'w'))",
                 f"np.ones(3, dtype=__import__('pathlib').Path({str(marker)!r}).touch())"):
        code, _, err = _cli(capsys, "run", "--dir", str(saved / "m"), "--signature_def", "two",
                            "--input_exprs", f"k={expr}")
        assert code == 1 and "error:" in err
    assert not marker.exists()


def test_the_command_runs_as_a_subprocess(saved):
    command = [sys.executable, "-m", "eagerflow", "saved-model"]
    done = subprocess.run(command + ["run", "--dir", str(saved / "m"), "--signature_def", "two", "--input_exprs",
                                     "x=np.ones((1, 784));k=3"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout) == (0, TF_RUN_TWO)
    done = subprocess.run(command + ["show", "--dir", str(saved / "nothing"), "--all"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "SavedModel file does not exist at:" in done.stderr
    assert "Traceback" not in done.stderr
    done = subprocess.run(command + ["show"], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "--dir" in done.stderr  # argparse's usage error


# TF's types_pb2.DataType names, as saved_model_cli prints them
@pytest.mark.parametrize("dtype, name", [
    (tf.float32, "DT_FLOAT"), (tf.float64, "DT_DOUBLE"), (tf.float16, "DT_HALF"),
    (tf.int8, "DT_INT8"), (tf.int16, "DT_INT16"), (tf.int32, "DT_INT32"), (tf.int64, "DT_INT64"),
    (tf.uint8, "DT_UINT8"), (tf.uint16, "DT_UINT16"), (tf.uint32, "DT_UINT32"), (tf.uint64, "DT_UINT64"),
    (tf.bool, "DT_BOOL"), (tf.string, "DT_STRING"), (tf.complex64, "DT_COMPLEX64"),
    (tf.complex128, "DT_COMPLEX128"),
])
def test_dtype_names_are_tensorflows_enum_names(dtype, name):
    from eagerflow._src.formats.dtypes import datatype_number
    from eagerflow.saved_model.cli_show import dtype_name
    assert dtype_name(datatype_number(dtype)) == name


def test_a_model_with_cond_and_while_shows_and_runs(tmp_path, capsys):
    class Loop(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="x")])
        def serve(self, x):
            y = tf.cond(x > 1.0, lambda: x * x, lambda: x + 10.0)
            return {"y": tf.while_loop(lambda v: v < 100.0, lambda v: v * 3.0, [y])[0], "big": y > 50.0}
    model = Loop()
    tf.saved_model.save(model, str(tmp_path / "m"), signatures={"serving_default": model.serve})
    code, out, _ = _cli(capsys, "show", "--dir", str(tmp_path / "m"), "--signature_def", "serving_default")
    assert code == 0 and "outputs['big'] tensor_info:\n      dtype: DT_BOOL\n      shape: ()" in out
    assert _cli(capsys, "run", "--dir", str(tmp_path / "m"), "--signature_def", "serving_default",
                "--input_exprs", "x=4") == (0, "Result for output key big:\nFalse\nResult for output key y:\n144.0\n", "")


def test_outdir_saves_each_output_as_tensorflow(saved, tmp_path, capsys):
    out = tmp_path / "results"
    argv = ["run", "--dir", str(saved / "m"), "--signature_def", "two", "--input_exprs", "x=np.ones((1,784));k=3",
            "--outdir", str(out)]
    code, text, _ = _cli(capsys, *argv)
    # TF 2.21 prints "Output <key> is saved to <path>" after each result
    assert code == 0 and text == (TF_RUN_TWO.replace("6\n", f"6\nOutput k is saved to {out / 'k.npy'}\n")
                                  + f"Output probs is saved to {out / 'probs.npy'}\n")
    assert np.load(out / "k.npy") == 6 and np.load(out / "probs.npy").shape == (1, 10)
    code, _, err = _cli(capsys, *argv)
    assert code == 1 and f'Output file {out / "k.npy"} already exists. Add "--overwrite"' in err
    assert _cli(capsys, *argv, "--overwrite")[0] == 0


def test_a_run_time_error_in_the_model_names_its_node_not_the_command(tmp_path, capsys):
    """TF 2.21, the same model loaded and called: "Detected at node Reshape defined at (most recent call
    last):\\n<stack traces unavailable>\\nInput to reshape is a tensor with 4 values, but the requested shape
    requires a multiple of 3\\n\\t [[{{node Reshape}}]]". The frames that loaded the model (this command's
    script, runpy) did not define its ops and are not shown."""
    class Bad(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
        def serve(self, x):
            return {"y": tf.reshape(x, [3, -1]) * 2.0}
    model = Bad()
    tf.saved_model.save(model, str(tmp_path / "m"), signatures={"serving_default": model.serve})
    code, out, err = _cli(capsys, "run", "--dir", str(tmp_path / "m"), "--signature_def", "serving_default",
                          "--input_exprs", "x=[1.0, 2.0, 3.0, 4.0]")
    assert code == 1 and out == ""
    assert ("Detected at node Reshape defined at (most recent call last):\n<stack traces unavailable>\n"
            "Input to reshape is a tensor with 4 values, but the requested shape requires a multiple of 3\n"
            "\t [[{{node Reshape}}]]") in err
    assert 'File "' not in err and "test_cli.py" not in err


def test_ops_traced_outside_a_loader_still_record_their_lines():
    """no_user_sites is scoped: a tf.function traced after a CLI command names the user's line."""
    from eagerflow._src.graph.sites import no_user_sites
    with no_user_sites():
        pass

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reshape(x, [3, -1])
    with pytest.raises(tf.errors.InvalidArgumentError) as caught:
        f(tf.constant([1.0, 2.0, 3.0, 4.0]))
    assert "<stack traces unavailable>" not in str(caught.value) and "return tf.reshape(x, [3, -1])" in str(caught.value)


def test_a_directory_of_the_earlier_json_format_is_named_as_such(saved, tmp_path, capsys):
    old = tmp_path / "old"
    old.mkdir()
    (old / "saved_model.json").write_text((saved / "m" / "saved_model.json").read_text()
                                          if (saved / "m" / "saved_model.json").exists() else "{}")
    code, out, err = _cli(capsys, "show", "--dir", str(old), "--all")
    assert code == 1 and out == "" and "holds only saved_model.json" in err and "save it again" in err
