"""A tf.Module holding lookup tables (StaticHashTable, StaticVocabularyTable, MutableHashTable), saved by
eagerflow, loaded by real TensorFlow 2.21: lookups, inserts, removes and exports give eagerflow's answers."""
import inspect
import json

from tests.saved_model.test_table_export import KEYS, _Tables, _session

import eagerflow as tf


def test_tensorflow_runs_the_functions_of_a_module_holding_tables(tmp_path, run_tf):
    m = _Tables()
    tf.saved_model.save(m, str(tmp_path / "m"))
    expected = json.loads(json.dumps(_session(m), default=lambda b: b.decode()))
    answer = run_tf(f"KEYS = {KEYS!r}\n" + inspect.getsource(_session) + """
import json
import tensorflow as tf
out = _session(tf.saved_model.load("m"))
print(json.dumps(out, default=lambda b: b.decode()))
""")
    assert answer == expected
    assert answer["vocab"] == [2, 0, 4, 3, 4, 3]  # ids 0-1 from the vocabulary, 2-4 TensorFlow's hash buckets


def test_tensorflow_runs_a_keras_string_lookup_model(tmp_path, run_tf):
    from eagerflow import keras
    inp = keras.Input(shape=(2,), dtype="string", name="color")
    out = keras.layers.StringLookup(vocabulary=["red", "green", "blue"])(inp)
    tf.saved_model.save(keras.Model(inp, out), str(tmp_path / "m"))
    colors = [["blue", "red"], ["zzz", "green"]]
    served = tf.saved_model.load(str(tmp_path / "m")).signatures["serving_default"]
    name, = served.structured_input_signature[1]
    ours = served(**{name: tf.constant(colors)})
    answer = run_tf(f"""
import json
import tensorflow as tf
sig = tf.saved_model.load("m").signatures["serving_default"]
name, = sig.structured_input_signature[1]
print(json.dumps({{k: v.numpy().tolist() for k, v in sig(**{{name: tf.constant({colors!r})}}).items()}}))
""")
    assert answer == {k: v.numpy().tolist() for k, v in ours.items()}
    assert list(answer.values()) == [[[3, 1], [0, 2]]]  # [UNK] 0, red 1, green 2, blue 3
