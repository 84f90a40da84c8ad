"""A SavedModel real TensorFlow 2.21 wrote (fixtures/tf_written_mutable_table/, made by
fixtures/make_tf_mutable_table.py) whose functions insert into and remove from a MutableHashTable,
also inside a tf.cond: eagerflow's loaded functions change the table as TensorFlow's did, every later
call sees the change, and the answers are the ones TensorFlow recorded (expected.json)."""
import json
from pathlib import Path

import eagerflow as tf
from tests.interop.tf_mutable_table import CALLS, run_calls

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tf_written_mutable_table"


def _constant(value, dtype=None):
    return tf.constant(value, dtype)


def test_loaded_functions_write_to_the_table_as_tensorflows_did():
    loaded = tf.saved_model.load(str(FIXTURE / "model"))
    got = run_calls(loaded, [tuple(c) for c in CALLS], _constant)
    assert json.loads(json.dumps(got)) == json.loads((FIXTURE / "expected.json").read_text())


def test_the_table_starts_from_the_saved_contents_at_each_load():
    first = tf.saved_model.load(str(FIXTURE / "model"))
    assert int(first.add(tf.constant(["z"]), tf.constant([26], tf.int64))) == 3
    second = tf.saved_model.load(str(FIXTURE / "model"))
    assert second.find(tf.constant(["a", "b", "z"])).numpy().tolist() == [1, 2, -1]
    assert first.find(tf.constant(["a", "b", "z"])).numpy().tolist() == [1, 2, 26]
    keys, values = first.t.export()
    assert first.t.size() == 3 and second.t.size() == 2
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 1), (b"b", 2), (b"z", 26)]



def test_a_loaded_table_saves_again_with_its_changes(tmp_path):
    loaded = tf.saved_model.load(str(FIXTURE / "model"))
    loaded.add(tf.constant(["z"]), tf.constant([26], tf.int64))
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    assert not (tmp_path / "again" / "saved_model.json").exists()
    again = tf.saved_model.load(str(tmp_path / "again"))
    assert again.find(tf.constant(["a", "b", "z", "q"])).numpy().tolist() == [1, 2, 26, -1]
    assert int(again.add(tf.constant(["y"]), tf.constant([25], tf.int64))) == 4
    keys, values = again.dump()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"a", 1), (b"b", 2), (b"y", 25),
                                                                            (b"z", 26)]
