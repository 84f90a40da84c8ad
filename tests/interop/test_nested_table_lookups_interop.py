"""Table lookups below the top of a saved function, in real TensorFlow 2.21 (tests/saved_model/
test_nested_table_lookups.py checks the graphs without TensorFlow): eagerflow's save of a module looking its
StaticHashTable up in a tf.cond branch, a nested tf.function and a tf.while_loop body runs in TensorFlow with
the answers TensorFlow's own module gives; a TensorFlow-written StaticHashTable model loaded by eagerflow and
saved again (its table a resource, no table per call) runs in TensorFlow with the outputs TensorFlow recorded."""
import inspect
import json
from pathlib import Path

import numpy as np

import eagerflow as tf
from tests.saved_model.test_nested_table_lookups import KEYS, TF_ANSWERS, _nested_module

FIXTURE = Path(__file__).resolve().parents[1] / "saved_model" / "fixtures" / "tf_written" / "hash_table"


def test_tensorflow_runs_lookups_in_a_branch_a_nested_function_and_a_loop(tmp_path, run_tf):
    tf.saved_model.save(_nested_module(tf), str(tmp_path / "ours"))
    loaded = tf.saved_model.load(str(FIXTURE / "model"))
    tf.saved_model.save(loaded, str(tmp_path / "again"), signatures=dict(loaded.signatures))
    answer = run_tf(inspect.getsource(_nested_module) + f"""
import json
import tensorflow as tf
ours, theirs = tf.saved_model.load("ours"), _nested_module(tf)
out = {{}}
for flag in (True, False):
    out[str(flag)] = [{{k: v.numpy().tolist() for k, v in m.f(tf.constant({KEYS!r}), tf.constant(flag)).items()}}
                      for m in (ours, theirs)]
again = tf.saved_model.load("again").signatures["serving_default"]
out["again"] = {{k: v.numpy().tolist() for k, v in again(keys=tf.constant(["b", "z", "a", "c"])).items()}}
print(json.dumps(out))
""")
    for flag in (True, False):
        assert answer[str(flag)] == [TF_ANSWERS[flag], TF_ANSWERS[flag]]
    expected = dict(np.load(FIXTURE / "expected.npz"))
    outputs = {k.split("/", 2)[2]: v.tolist() for k, v in expected.items() if "/out/" in k}
    assert answer["again"] == outputs
