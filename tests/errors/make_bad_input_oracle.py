"""Writes bad_input_oracle.json from TensorFlow 2.21 (run with /work/tfvenv/bin/python from the repository
root): for every row of bad_input_cases.py, what TensorFlow answers eagerly and inside tf.function, either
the class name and message of the error it raises or the dtypes and shapes of what it returns.
The test reads the JSON; it never imports TensorFlow."""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
import tensorflow as tf  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from bad_input_cases import make_cases  # noqa: E402
from bad_input_outcome import outcome  # noqa: E402


def main():
    tf.get_logger().setLevel("ERROR")
    out = {"tensorflow_version": tf.__version__, "rows": {}}
    for name, fn in make_cases(tf):
        if os.environ.get("BAD_INPUT_TRACE"):
            print(name, flush=True)
        assert name not in out["rows"], name
        out["rows"][name] = {"eager": outcome(tf, fn), "traced": outcome(tf, lambda: tf.function(fn)())}
    path = os.path.join(os.path.dirname(__file__), "bad_input_oracle.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)


main()
