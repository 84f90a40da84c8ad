"""Lookups that are not at the top of a saved function read the table's resource too, as TensorFlow 2.21
writes them: inside a tf.cond branch and a tf.while_loop body the table's handle is one more input of the
If / While (the loop carries it unchanged) and the branch runs LookupTableFindV2 on it; the table's keys and
values are neither passed in nor written as constants; a nested tf.function (inlined where it is called)
reads the outer function's handle; and a model loaded and saved again (TensorFlow's or eagerflow's) writes
its tables where its object tree holds them, with no table made per call. Values are TensorFlow 2.21's
(recorded from tests/interop/test_nested_table_lookups_interop.py, and the fixtures' recorded outputs)."""
from pathlib import Path

import pytest

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2
from tests.interop.tf_savedmodel_compare import call_loaded, compare, recorded_files
from tests.saved_model.test_table_export import _Tables, _session

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tf_written"
RESOURCE = 20
PER_CALL = {"AnonymousHashTable", "LookupTableImportV2"}  # a table filled by the function itself
KEYS = ["a", "c", "z"]
# TensorFlow 2.21 on eagerflow's save of _Nested (and on its own _Nested): f(KEYS, flag)
TF_ANSWERS = {True: {"cond": [1, 3, -1], "nested": [1, 3, -1], "loop": [2, 6, -2]},
              False: {"cond": [-5, -5, -5], "nested": [1, 3, -1], "loop": [2, 6, -2]}}


def _nested_module(tf):
    """A module whose function looks its table up in a cond branch, a nested tf.function and a loop body
    (`tf`: eagerflow, or TensorFlow in the interop test)."""
    class Nested(tf.Module):
        def __init__(self):
            super().__init__()
            self.table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
                tf.constant(["a", "b", "c"]), tf.constant([1, 2, 3], tf.int64)), -1)
            self.inner = tf.function(lambda k: self.table.lookup(k))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string), tf.TensorSpec([], tf.bool)])
        def f(self, k, flag):
            found = tf.cond(flag, lambda: self.table.lookup(k), lambda: tf.zeros_like(self.table.lookup(k)) - 5)
            _, total = tf.while_loop(lambda i, s: i < 2, lambda i, s: (i + 1, s + self.table.lookup(k)),
                                     (0, tf.zeros_like(found)))
            return {"cond": found, "nested": self.inner(k), "loop": total}
    return Nested()


def _functions(path):
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((path / "saved_model.pb").read_bytes())
    return {f.signature.name: f for f in message.meta_graphs[0].graph_def.library.function}


def _own_functions(functions):
    """The model's functions, not the tables' `_initializer`s or the saver's."""
    return {n: f for n, f in functions.items() if not any(p in n for p in ("_initializer", "_traced_", "restore_fn"))}


def test_a_lookup_in_a_cond_branch_and_a_loop_body_reads_the_passed_handle(tmp_path):
    m = _nested_module(tf)
    tf.saved_model.save(m, str(tmp_path / "m"))
    functions = _own_functions(_functions(tmp_path / "m"))
    assert not {n.op for f in functions.values() for n in f.node_def} & PER_CALL
    f = next(fn for name, fn in functions.items() if name.startswith("__inference_f"))
    handle = next(a.name for a in f.signature.input_arg if a.type == RESOURCE)
    calls = {n.op: n for n in f.node_def if n.op in ("If", "StatelessIf", "While", "StatelessWhile")}
    assert set(calls) == {"If", "While"}  # a table lookup is stateful in TensorFlow, as its cond/while_loop write
    for node, branch_attrs in ((calls["If"], ("then_branch", "else_branch")), (calls["While"], ("cond", "body"))):
        assert handle in node.input
        for attr in branch_attrs:
            sub = functions[node.attr[attr].func.name]
            assert [a.type for a in sub.signature.input_arg].count(RESOURCE) == 1
            finds = [n for n in sub.node_def if n.op == "LookupTableFindV2"]
            args = {a.name: a.type for a in sub.signature.input_arg}
            assert all(args[n.input[0]] == RESOURCE for n in finds)
        # the keys and values travel as the handle only: the op passes k, the default and the handle
        assert len([i for i in node.input if not i.startswith("^")]) == (4 if node.op == "If" else 5)
    tables = [n for n in f.node_def if n.op == "Const" and n.attr["dtype"].type == 7]
    assert not tables  # no string constant: the table's keys are not written into the function
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    for flag in (True, False):
        got = {k: v.numpy().tolist() for k, v in loaded.f(tf.constant(KEYS), tf.constant(flag)).items()}
        assert got == TF_ANSWERS[flag] == {k: v.numpy().tolist() for k, v in m.f(tf.constant(KEYS),
                                                                                   tf.constant(flag)).items()}


def test_eagerflows_model_loaded_and_saved_again_keeps_its_table_resources(tmp_path):
    tf.saved_model.save(_Tables(), str(tmp_path / "first"))
    tf.saved_model.save(tf.saved_model.load(str(tmp_path / "first")), str(tmp_path / "again"))
    functions = _own_functions(_functions(tmp_path / "again"))
    ops = {n.op for f in functions.values() for n in f.node_def}
    assert "LookupTableFindV2" in ops and not ops & PER_CALL
    assert _session(tf.saved_model.load(str(tmp_path / "again"))) == _session(_Tables())


@pytest.mark.parametrize("name", ["hash_table", "keras_lookups", "preprocessing"])
def test_a_tensorflow_model_loaded_and_saved_again_keeps_its_table_resources(tmp_path, name):
    folder = FIXTURES / name
    loaded = tf.saved_model.load(str(folder / "model"))
    tf.saved_model.save(loaded, str(tmp_path / "again"), signatures=dict(loaded.signatures))
    functions = _own_functions(_functions(tmp_path / "again"))
    ops = {n.op for f in functions.values() for n in f.node_def}
    assert "LookupTableFindV2" in ops and not ops & PER_CALL
    again = tf.saved_model.load(str(tmp_path / "again"))
    problems = []
    for call, (inputs, expected) in recorded_files(folder / "expected.npz", folder / "expected.strings.json").items():
        problems += compare(name, call, call_loaded(again, call, inputs), expected)
    assert not problems, "\n".join(problems)
