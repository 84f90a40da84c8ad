"""The functions eagerflow's save records, as TensorFlow 2.21 sees them: its `saved_model_cli show --all`
lists the same functions (and the same traced signatures) for eagerflow's save of a Keras model as for its
own save of it, `eagerflow saved-model show --all` prints the same text, and TensorFlow's loader calls the
recorded `_default_save_signature` with the model's values."""

import numpy as np

import eagerflow as tf
from eagerflow import keras
from eagerflow.__main__ import main

_SHOW_AND_CALL = r'''
import contextlib, io, json, sys
import numpy as np
import tensorflow as tf
from tensorflow.python.tools import saved_model_cli

def tool(*argv):
    from absl import flags
    flags.FLAGS.unparse_flags()
    sys.argv = ["saved_model_cli", *argv]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            saved_model_cli.main()
        except SystemExit as done:
            assert not done.code, (argv, done.code)
    return out.getvalue()

out = {d: tool("show", "--dir", d, "--all") for d in ("saved", "exported", "two_inputs")}
x = np.load("x.npy")
loaded = tf.saved_model.load("saved")
out["call"] = loaded._default_save_signature(tf.constant(x)).numpy().tolist()
out["serving_default"] = loaded.signatures["serving_default"](inputs=tf.constant(x))["output_0"].numpy().tolist()
print(json.dumps(out))
'''

# TF 2.21: saved_model_cli show --all on TensorFlow's own saves of the same models, from "Concrete Functions:"
_TF_SAVED = """
Concrete Functions:
  Function Name: '_default_save_signature'
    Option #1
      Callable with:
        Argument #1
          inputs: TensorSpec(shape=(None, 4), dtype=tf.float32, name='inputs')
"""
_TF_EXPORTED = """
Concrete Functions:
  Function Name: 'serve'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(None, 4), dtype=tf.float32, name='x')
"""
_TF_TWO_INPUTS = """
Concrete Functions:
  Function Name: '_default_save_signature'
    Option #1
      Callable with:
        Argument #1
          DType: list
          Value: [TensorSpec(shape=(None, 3), dtype=tf.float32, name='inputs_0'), \
TensorSpec(shape=(None, 2), dtype=tf.float32, name='inputs_1'), \b\b]
"""


def _functions_part(text):
    return text[text.index("\nConcrete Functions:"):]


def test_tensorflow_lists_and_calls_the_functions_eagerflow_saved(tmp_path, run_tf, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    keras.utils.set_random_seed(0)
    inp = keras.Input((4,), name="x")
    model = keras.Model(inp, keras.layers.Dense(2, name="dense")(inp))
    tf.saved_model.save(model, "saved")
    model.export("exported", verbose=False)
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    tf.saved_model.save(keras.Model([a, b], keras.layers.Concatenate()([a, b])), "two_inputs")
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(2, 4)
    np.save("x.npy", x)

    theirs = run_tf(_SHOW_AND_CALL)
    for d, expected in (("saved", _TF_SAVED), ("exported", _TF_EXPORTED), ("two_inputs", _TF_TWO_INPUTS)):
        assert _functions_part(theirs[d]) == expected, d
        assert main(["saved-model", "show", "--all", "--dir", d]) == 0
        assert _functions_part(capsys.readouterr().out) == expected, d
    want = model(x).numpy()
    np.testing.assert_allclose(np.array(theirs["call"]), want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(np.array(theirs["serving_default"]), want, rtol=1e-5, atol=1e-6)
