"""The public surface of ConcreteFunctions and restored functions that the SavedModel code and
the CLI read (no private internals): TensorFlow's `structured_input_signature`,
`pretty_printed_signature`, `outputs`, `pretty_printed_concrete_signatures`, and eagerflow's
`flat_input_signature` and `traced_parameters`. Expected texts are TensorFlow 2.21's."""
import inspect
import re
from pathlib import Path

import pytest

import eagerflow as tf

P = inspect.Parameter


class Served(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x"), tf.TensorSpec([], tf.int32)])
    def f(self, x, k):
        return {"probs": x * self.v, "k": k}

    @tf.function
    def g(self, x, scale=2):
        return x * scale


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    m = Served()
    m.g(tf.constant([1.0]))
    m.g(tf.constant([[1.0]]), scale=3)
    directory = tmp_path_factory.mktemp("surface") / "m"
    tf.saved_model.save(m, str(directory), signatures={"serving_default": m.f})
    return tf.saved_model.load(str(directory))


def test_flat_input_signature_and_traced_parameters_of_a_traced_function():
    @tf.function
    def fn(x, pair, *, scale=2.0):
        return x * scale + pair[0] - pair[1]

    cf = fn.get_concrete_function(tf.TensorSpec([None], tf.float32, name="inp"),
                                  [tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.float32)])
    # placeholders take a TensorSpec's own name, else the parameter's (with _1, ... inside a structure)
    assert cf.flat_input_signature == (tf.TensorSpec([None], tf.float32, "inp"),
                                       tf.TensorSpec([], tf.float32, "pair"),
                                       tf.TensorSpec([], tf.float32, "pair_1"))
    assert len(cf.inputs) == 3  # the parameters are the first inputs
    names_kinds = [(n, k) for n, k, _ in cf.traced_parameters]
    assert names_kinds == [("x", P.POSITIONAL_OR_KEYWORD), ("pair", P.POSITIONAL_OR_KEYWORD), ("scale", P.KEYWORD_ONLY)]
    assert cf.traced_parameters[2][2] == 2.0 and cf.traced_parameters[0][2].name == "inp"


def test_a_loaded_signature_reads_as_in_tensorflow(loaded):
    s = loaded.signatures["serving_default"]
    # TF 2.21: ((), {'k': TensorSpec(shape=(), dtype=tf.int32, name='k'), 'x': TensorSpec(shape=(None, 3), ...)})
    assert s.structured_input_signature == ((), {"k": tf.TensorSpec([], tf.int32, "k"),
                                                 "x": tf.TensorSpec([None, 3], tf.float32, "x")})
    text = s.pretty_printed_signature()
    assert "  x (KEYWORD_ONLY): TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')" in text
    assert "  k (KEYWORD_ONLY): TensorSpec(shape=(), dtype=tf.int32, name='k')" in text
    assert re.search(r"Captures:\n  \d+: TensorSpec\(shape=\(\), dtype=tf.resource, name=None\)$", text)
    assert s.pretty_printed_signature(verbose=False).startswith("(*, ")
    assert [t.shape.as_list() for t in s.outputs] == [[], [None, 3]]  # k, probs: sorted names
    assert sorted(s.structured_outputs) == ["k", "probs"]


def test_a_loaded_signatures_printed_outputs_follow_its_names_not_the_graphs_order(tmp_path):
    # output_10 sorts before output_2: the printed specs once came out shifted ('output_2' showed (4,))
    @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
    def many(x):
        return [tf.fill([i + 1], x) for i in range(11)]

    holder = tf.Module()
    holder.many = many
    tf.saved_model.save(holder, str(tmp_path / "m"), signatures=many)
    text = tf.saved_model.load(str(tmp_path / "m")).signatures["serving_default"].pretty_printed_signature(False)
    for i in range(11):
        assert f"['output_{i}', TensorSpec(shape=({i + 1},), dtype=tf.float32, name='output_{i}')]" in text


def test_a_restored_function_prints_its_traces_as_tf_function_does(loaded):
    verbose = loaded.g.pretty_printed_concrete_signatures()
    assert verbose.count("Input Parameters:") == 2 and "\n\nInput Parameters:" in verbose  # blank line between
    assert "  scale (POSITIONAL_OR_KEYWORD): Literal[2]" in verbose
    brief = loaded.g.pretty_printed_concrete_signatures(verbose=False).split("\n")  # one line each (TF)
    assert [re.sub(r", name=[^)]*\)", ")", line) for line in brief] == [
        "(x: TensorSpec(shape=(1,), dtype=tf.float32), scale: Literal[2]) -> TensorSpec(shape=(1,), dtype=tf.float32)",
        "(x: TensorSpec(shape=(1, 1), dtype=tf.float32), scale: Literal[3]) -> "
        "TensorSpec(shape=(1, 1), dtype=tf.float32)"]


def test_the_saved_model_code_uses_no_private_function_internals():
    package = Path(tf.__file__).parent / "saved_model"
    for name in ("cli.py", "save.py", "keras_export.py"):
        source = (package / name).read_text()
        for private in ("._param_specs", "._binder", "._outputs"):
            assert private not in source, f"{name} reads {private}"
