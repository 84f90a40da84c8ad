"""Lookup tables held by a saved tf.Module (StaticHashTable, StaticVocabularyTable, MutableHashTable)
saved in TensorFlow's format: their lookups written as TensorFlow's hash-table ops on the tables'
resources, a mutable table's inserts and removes too, and the model loaded back by eagerflow
with the same answers. Summary writers follow TensorFlow 2.21: a module holding one saves without it;
a function writing summaries through one is refused with TensorFlow's AssertionError."""
import numpy as np
import pytest

import eagerflow as tf

RESOURCE, STRING, INT64 = 20, 7, 9


class _Tables(tf.Module):
    def __init__(self):
        super().__init__()
        init = tf.lookup.KeyValueTensorInitializer(tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64))
        self.static = tf.lookup.StaticHashTable(init, -1)
        self.vocab = tf.lookup.StaticVocabularyTable(
            tf.lookup.KeyValueTensorInitializer(tf.constant(["x", "y"]), tf.constant([0, 1], tf.int64)), 3)
        self.mut = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, -1.0)
        self.mut.insert(tf.constant(["p", "q"]), tf.constant([0.5, 1.5]))

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def find(self, k):
        return {"static": self.static.lookup(k), "vocab": self.vocab.lookup(k), "mut": self.mut.lookup(k)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([None], tf.float32)])
    def add(self, k, v):
        self.mut.insert(k, v)
        return self.mut.size()

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def remove(self, k):
        self.mut.remove(k)
        return self.mut.size()

    @tf.function(input_signature=[])
    def dump(self):
        return self.mut.export()


KEYS = ["a", "x", "p", "zz", "q", "c"]


def _session(m):
    """The same calls on the original and on the loaded model: lookups, inserts (a repeated key: the
    last value wins), removes, and the table's contents (sorted by key)."""
    keys = tf.constant(KEYS)
    out = {n: v.numpy().tolist() for n, v in m.find(keys).items()}
    out["added"] = int(m.add(tf.constant(["p", "r", "r"]), tf.constant([9.0, 7.0, 8.0])))
    out["after_add"] = m.find(keys)["mut"].numpy().tolist()
    out["removed"] = int(m.remove(tf.constant(["q", "none"])))
    k, v = m.dump()
    out["contents"] = sorted(zip(k.numpy().tolist(), v.numpy().tolist()))
    return out


def test_tables_save_in_tensorflows_format_and_load_back(tmp_path, caplog):
    m = _Tables()
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text
    assert not (tmp_path / "m" / "saved_model.json").exists()
    loaded = _session(tf.saved_model.load(str(tmp_path / "m")))
    assert loaded == _session(m)
    # TensorFlow 2.21's answers for the same module (tests/interop/test_table_export_interop.py)
    assert loaded["static"] == [1, -1, -1, -1, -1, 3]
    assert loaded["vocab"] == [2, 0, 4, 3, 4, 3]  # 0-1 from the vocabulary, 2-4 the hash buckets
    assert loaded["mut"] == [-1.0, -1.0, 0.5, -1.0, 1.5, -1.0]
    assert loaded["added"] == 3 and loaded["after_add"] == [-1.0, -1.0, 9.0, -1.0, 1.5, -1.0]
    assert loaded["removed"] == 2 and loaded["contents"] == [(b"p", 9.0), (b"r", 8.0)]


def _function_defs(path):
    from eagerflow._src.formats.protos import saved_model_pb2
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((path / "saved_model.pb").read_bytes())
    return list(message.meta_graphs[0].graph_def.library.function)


def test_every_lookup_reads_a_table_resource(tmp_path):
    """The static tables are read through their resource handles (test_table_resources.py), the mutable
    table through its MutableHashTableV2's (test_mutable_table_resource.py): no function makes a table of
    its own, and the mutable table's changes are TensorFlow's LookupTableInsertV2 / RemoveV2 on its handle."""
    m = _Tables()
    tf.saved_model.save(m, str(tmp_path / "m"))
    functions = {f.signature.name: f for f in _function_defs(tmp_path / "m")}
    fdef = next(f for name, f in functions.items() if "find" in name)
    ops = [n.op for n in fdef.node_def]
    assert "AnonymousHashTable" not in ops and "LookupTableImportV2" not in ops
    arguments = {a.name: a.type for a in fdef.signature.input_arg}
    finds = [n for n in fdef.node_def if n.op == "LookupTableFindV2"]
    assert len(finds) == 3 and all(arguments[n.input[0]] == RESOURCE for n in finds)
    for name, kind in (("add", "LookupTableInsertV2"), ("remove", "LookupTableRemoveV2")):
        fdef = next(f for n, f in functions.items() if name in n and "restore" not in n)
        ops = [n.op for n in fdef.node_def]
        assert ops.count(kind) == 1 and "LookupTableSizeV2" in ops and "AssignVariableOp" not in ops
        assert [a.type for a in fdef.signature.input_arg][-1:] == [RESOURCE]  # the table's one handle


def test_a_module_holding_a_summary_writer_saves_without_it(tmp_path):
    m = tf.Module()
    m.writer = tf.summary.create_file_writer(str(tmp_path / "logs"))
    m.v = tf.Variable(2.0)
    tf.saved_model.save(m, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert not hasattr(loaded, "writer") and float(loaded.v.numpy()) == 2.0  # TensorFlow 2.21 drops it too


def test_a_function_writing_summaries_is_refused_as_tensorflow_refuses_it(tmp_path):
    m = tf.Module()
    m.writer = tf.summary.create_file_writer(str(tmp_path / "logs"))

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def log(x):
        with m.writer.as_default():
            tf.summary.scalar("x", x, step=1)
        return x + 1.0

    m.log = log
    # TensorFlow 2.21's words for the same save
    with pytest.raises(AssertionError, match=r"Tried to export a function which references an 'untracked' resource"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert not (tmp_path / "m").exists()
