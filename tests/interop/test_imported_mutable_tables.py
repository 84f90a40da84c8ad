"""A MutableHashTable in a SavedModel TensorFlow 2.21 wrote stays writable in eagerflow: the loaded
functions insert into and remove from it (also inside a tf.cond), and every later call sees the
change. The same calls run in TensorFlow on the same saved model; the answers are compared
(tests/saved_model/test_tf_written_mutable_table.py does the same on a stored copy, without TensorFlow)."""
import json

import pytest

import eagerflow as tf
from tests.interop.tf_mutable_table import CALLS, SCRIPT, run_calls


@pytest.fixture(scope="module")
def tensorflow_wrote(run_tf_in_module_folder):
    """(folder, run_tf, TensorFlow's answers): TensorFlow writes ./m once; no test changes it on disk."""
    folder, run_tf = run_tf_in_module_folder
    return folder, run_tf, run_tf(SCRIPT)


def test_loaded_functions_write_to_tensorflows_mutable_table(tensorflow_wrote):
    tmp_path, _, answer = tensorflow_wrote
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    got = run_calls(loaded, [tuple(c) for c in CALLS], lambda v, d=None: tf.constant(v, d))
    assert json.loads(json.dumps(got)) == answer
    assert answer[0] == [1, 2, -1] and answer[2] == [10, 2, 3, -1]  # TensorFlow's own answers, as recorded
    # a second load starts from the saved contents again (the first one's inserts are its own)
    again = tf.saved_model.load(str(tmp_path / "m"))
    assert again.find(tf.constant(["a", "c"])).numpy().tolist() == [1, -1]


def test_tensorflow_loads_the_table_eagerflow_changed_and_saved_again(tensorflow_wrote):
    tmp_path, run_tf, _ = tensorflow_wrote
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    loaded.add(tf.constant(["z"]), tf.constant([26], tf.int64))
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    answer = run_tf("""
import json
import tensorflow as tf
m = tf.saved_model.load("again")
found = m.find(tf.constant(["a", "b", "z", "q"])).numpy().tolist()
size = int(m.add(tf.constant(["y"]), tf.constant([25], tf.int64)))
keys, values = m.dump()
print(json.dumps([found, size, sorted(zip([k.decode() for k in keys.numpy().tolist()], values.numpy().tolist()))]))
""")
    assert answer == [[1, 2, 26, -1], 4, [["a", 1], ["b", 2], ["y", 25], ["z", 26]]]
