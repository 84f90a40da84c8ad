"""eagerflow's save of a MutableHashTable (a MutableHashTableV2 resource, saved_model/tf_format/mutable_tables.py)
in real TensorFlow 2.21: the module TensorFlow saved for fixtures/tf_written_mutable_table, built and changed
by eagerflow, loads in TensorFlow, whose lookups, inserts (one inside a tf.cond), removes and exports on it give
TensorFlow's answers on its own save; TensorFlow 1's session loader (TF Serving's path) restores the table
through the SaverDef; a table of vectors with an insert in a cond branch runs there too."""
import inspect
import json

import eagerflow as tf
from tests.interop.tf_mutable_table import CALLS, module_class, run_calls


def test_tensorflow_runs_eagerflows_save_of_the_module(tmp_path, run_tf):
    m = module_class(tf)()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"find": m.find})
    changed = module_class(tf)()
    changed.add(tf.constant(["c", "a"]), tf.constant([3, 10], tf.int64))
    tf.saved_model.save(changed, str(tmp_path / "changed"))
    answer = run_tf(inspect.getsource(run_calls) + f"""
import json
import tensorflow as tf
calls = json.loads({json.dumps(CALLS)!r})
out = {{"calls": run_calls(tf.saved_model.load("m"), calls, lambda v, d=None: tf.constant(v, d))}}
changed = tf.saved_model.load("changed")
out["changed"] = changed.find(tf.constant(["a", "b", "c", "z"])).numpy().tolist()
with tf.compat.v1.Graph().as_default(), tf.compat.v1.Session() as session:
    meta = tf.compat.v1.saved_model.loader.load(session, ["serve"], "m")
    sig = meta.signature_def["find"]
    out["session"] = session.run(sig.outputs["output_0"].name,
                                 {{sig.inputs["k"].name: ["b", "a", "q"]}}).tolist()
print(json.dumps(out))
""")
    # TensorFlow's answers on its own save of the module (fixtures/tf_written_mutable_table/expected.json)
    assert answer["calls"] == [[1, 2, -1], 3, [10, 2, 3, -1], 3, 2, [["a", 10], ["c", 3]], 4, 3, [40, -1, 3],
                               [["a", 10], ["c", 3], ["m", 40]]]
    assert answer["changed"] == [10, 2, 3, -1] and answer["session"] == [2, 1, -1]


def test_tensorflow_runs_a_table_of_vectors_written_in_a_cond_branch(tmp_path, run_tf):
    table = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0.0, -1.0])
    table.insert(tf.constant(["a"]), tf.constant([[1.0, 2.0]]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.bool)])
    def f(k, flag):
        def add():
            table.insert(k, tf.ones([tf.size(k), 2]) * 5.0)
            return tf.constant(1)
        return table.lookup(k), tf.cond(flag, add, lambda: tf.constant(0))

    m = tf.Module()
    m.f = f
    tf.saved_model.save(m, str(tmp_path / "m"))
    answer = run_tf("""
import json
import tensorflow as tf
m = tf.saved_model.load("m")
out = []
for keys, flag in ((["a", "z"], False), (["z"], True), (["a", "z"], False)):
    rows, added = m.f(tf.constant(keys), tf.constant(flag))
    out.append([rows.numpy().tolist(), int(added)])
print(json.dumps(out))
""")
    # the lookup runs before the branch's insert (traced first), so the second call finds no "z" yet
    assert answer == [[[[1.0, 2.0], [0.0, -1.0]], 0], [[[0.0, -1.0]], 1], [[[1.0, 2.0], [5.0, 5.0]], 0]]
