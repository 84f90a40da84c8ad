"""`eagerflow saved-model show|run` on SavedModels TensorFlow 2.21 wrote, against TensorFlow's own
`saved_model_cli` on the same directories: the same text, byte for byte, except the order of the op
list (TensorFlow prints an unordered Python set; eagerflow sorts it) and the last digits of printed
floats computed by different kernels (compared as numbers, float32 within 1e-5 relative)."""
import ast
import re

import numpy as np
import pytest

from eagerflow.__main__ import main

# TensorFlow writes four models, then runs its tool on each: a tf.Module with a variable, Keras 3's
# model.export of an MLP and of a small CNN, and tf.saved_model.save of a Keras model.
_WRITE_AND_SHOW = r'''
import contextlib, io, json, sys
import numpy as np
import tensorflow as tf, keras
from tensorflow.python.tools import saved_model_cli

keras.utils.set_random_seed(0)
class Module(tf.Module):
    def __init__(self):
        self.w = tf.Variable(tf.reshape(tf.range(24, dtype=tf.float32), (8, 3)) / 8.0)
    @tf.function(input_signature=[tf.TensorSpec([None, 8], tf.float32, name="x")])
    def __call__(self, x):
        return {"y": tf.matmul(x, self.w)}
m = Module()
tf.saved_model.save(m, "module", signatures={"serving_default": m.__call__})
mlp = keras.Sequential([keras.Input((8,), name="x"), keras.layers.Dense(16, activation="relu"),
                        keras.layers.Dense(3, activation="softmax")])
mlp.export("mlp_export")
tf.saved_model.save(mlp, "mlp_saved")
cnn = keras.Sequential([keras.Input((12, 12, 1)), keras.layers.Conv2D(4, 3, activation="relu"),
                        keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(), keras.layers.Flatten(),
                        keras.layers.Dense(5, activation="softmax")])
cnn.export("cnn_export")
np.save("x.npy", np.linspace(-1, 1, 16, dtype=np.float32).reshape(2, 8))

def tool(*argv):
    from absl import flags
    flags.FLAGS.unparse_flags()  # (flags keep their values between calls in one process)
    sys.argv = ["saved_model_cli", *argv]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            saved_model_cli.main()
        except SystemExit as done:  # absl's app.run ends the process
            assert not done.code, (argv, done.code)
    return out.getvalue()

texts = {}
for d in ("module", "mlp_export", "mlp_saved", "cnn_export"):
    texts[d + " all"] = tool("show", "--dir", d, "--all")
    texts[d + " tags"] = tool("show", "--dir", d)
    texts[d + " keys"] = tool("show", "--dir", d, "--tag_set", "serve")
    texts[d + " default"] = tool("show", "--dir", d, "--tag_set", "serve", "--signature_def", "serving_default")
texts["module run"] = tool("run", "--dir", "module", "--tag_set", "serve", "--signature_def", "serving_default",
                           "--inputs", "x=x.npy")
texts["mlp run"] = tool("run", "--dir", "mlp_export", "--tag_set", "serve", "--signature_def", "serving_default",
                        "--inputs", "x=x.npy")
print(json.dumps(texts))
'''

_OPS = re.compile(r"(The MetaGraph with tag set \[.*?\] contains the following ops: )(\{.*\}|set\(\))\n")


def _split_ops(text):
    """(the text with its op list replaced by a marker, the op lists as sets)."""
    lists = [set() if found == "set()" else ast.literal_eval(found) for _, found in _OPS.findall(text)]
    return _OPS.sub(r"\1<ops>\n", text), lists


def _ours(capsys, *argv):
    code = main(["saved-model", *argv])
    captured = capsys.readouterr()
    assert code == 0 and captured.err == "", captured.err
    return captured.out


def _results(text):
    """{output key: its printed numbers, flat} of a `run` printout."""
    parts = re.split(r"Result for output key (\w+):\n", text)[1:]
    number = r"-?\d+\.?\d*(?:e[-+]\d+)?"
    return {key: np.array([float(v) for v in re.findall(number, value)]) for key, value in zip(parts[::2], parts[1::2])}


@pytest.fixture(scope="module")
def _written_and_shown(run_tf_in_module_folder):
    """One TensorFlow run for the module: its models and its tool's printouts, read by both tests."""
    folder, run_tf = run_tf_in_module_folder
    return folder, run_tf(_WRITE_AND_SHOW)


@pytest.fixture
def tensorflow_models(_written_and_shown, monkeypatch):
    folder, texts = _written_and_shown
    monkeypatch.chdir(folder)
    return texts


def test_show_prints_what_saved_model_cli_prints(tensorflow_models, capsys):
    texts = tensorflow_models
    for d in ("module", "mlp_export", "mlp_saved", "cnn_export"):
        ours, our_ops = _split_ops(_ours(capsys, "show", "--dir", d, "--all"))
        theirs, their_ops = _split_ops(texts[d + " all"])
        assert ours == theirs and our_ops == their_ops, d
        assert "Concrete Functions:\n  Function Name: '" in ours, d  # Keras models' functions are listed
        assert _ours(capsys, "show", "--dir", d) == texts[d + " tags"]
        assert _ours(capsys, "show", "--dir", d, "--tag_set", "serve") == texts[d + " keys"]
        assert _ours(capsys, "show", "--dir", d, "--tag_set", "serve", "--signature_def", "serving_default") == \
            texts[d + " default"]


def test_run_prints_what_saved_model_cli_prints(tensorflow_models, capsys):
    texts = tensorflow_models
    for d, key in (("module", "module run"), ("mlp_export", "mlp run")):
        ours = _ours(capsys, "run", "--dir", d, "--tag_set", "serve", "--signature_def", "serving_default",
                     "--inputs", "x=x.npy")
        assert re.sub(r"\[.*", "", ours, flags=re.S) == re.sub(r"\[.*", "", texts[key], flags=re.S)
        mine, theirs = _results(ours), _results(texts[key])
        assert mine.keys() == theirs.keys()
        for name in mine:
            np.testing.assert_allclose(mine[name], theirs[name], rtol=1e-5, atol=1e-6)
