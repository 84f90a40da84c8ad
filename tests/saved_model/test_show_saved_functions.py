"""`eagerflow saved-model show --all` lists the functions a save recorded on the root, as TensorFlow's
`saved_model_cli show --all` lists them for TensorFlow's own save of the same model.

The expected texts are TensorFlow 2.21 + Keras 3.15's: its tool run on the same model saved by TensorFlow
(`tf.saved_model.save(model, d)` records each built Keras model's `_default_save_signature`; `model.export(d)`
records `serve`; a traced tensor argument is named after its parameter's path). The same comparison through
TensorFlow's own tool on eagerflow's files is tests/interop/test_saved_model_show_functions.py.
"""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras
from eagerflow.__main__ import main
from eagerflow.saved_model.cli_show import read_saved_model


def _functions_listing(directory, capsys):
    assert main(["saved-model", "show", "--all", "--dir", str(directory)]) == 0
    out = capsys.readouterr().out
    return out[out.index("\nConcrete Functions:"):]


def _dense_model():
    inp = keras.Input((4,), name="x")
    return keras.Model(inp, keras.layers.Dense(2, name="dense")(inp))


class _Subclassed(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(3)

    def call(self, a):
        return self.dense(a)


# TF 2.21: saved_model_cli show --all, the part from "Concrete Functions:", for each model below saved by TF
_ONE_INPUT = """
Concrete Functions:
  Function Name: '_default_save_signature'
    Option #1
      Callable with:
        Argument #1
          inputs: TensorSpec(shape=(None, 4), dtype=tf.float32, name='inputs')
"""
_EXPORTED = """
Concrete Functions:
  Function Name: 'serve'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(None, 4), dtype=tf.float32, name='x')
"""
_SUBCLASSED = """
Concrete Functions:
  Function Name: '_default_save_signature'
    Option #1
      Callable with:
        Argument #1
          inputs: TensorSpec(shape=(2, 5), dtype=tf.float32, name='inputs')
"""
# (saved_model_cli ends a list or dict with ", " and two backspaces before the bracket)
_TWO_INPUTS = """
Concrete Functions:
  Function Name: '_default_save_signature'
    Option #1
      Callable with:
        Argument #1
          DType: list
          Value: [TensorSpec(shape=(None, 3), dtype=tf.float32, name='inputs_0'), \
TensorSpec(shape=(None, 2), dtype=tf.float32, name='inputs_1'), \b\b]
"""
_DICT_INPUTS = """
Concrete Functions:
  Function Name: '_default_save_signature'
    Option #1
      Callable with:
        Argument #1
          DType: dict
          Value: {'p': TensorSpec(shape=(None, 3), dtype=tf.float32, name='inputs_p'), \
'q': TensorSpec(shape=(None, 2), dtype=tf.float32, name='inputs_q'), \b\b}
"""
_MODULE = """
Concrete Functions:
  Function Name: 'f'
    Option #1
      Callable with:
        Argument #1
          x: TensorSpec(shape=(None, 3), dtype=tf.float32, name='x')

  Function Name: 'g'
    Option #1
      Callable with:
        Argument #1
          a: TensorSpec(shape=(1,), dtype=tf.float32, name='a')
        Argument #2
          DType: int
          Value: 3
        Argument #3
          DType: NoneType
          Value: None
    Option #2
      Callable with:
        Argument #1
          DType: list
          Value: [TensorSpec(shape=(), dtype=tf.float32, name='a_0'), \
TensorSpec(shape=(), dtype=tf.float32, name='a_1'), \b\b]
        Argument #2
          DType: int
          Value: 2
        Argument #3
          DType: dict
          Value: {'k': TensorSpec(shape=(), dtype=tf.int32, name='c_k'), \b\b}
"""


def _save_functional(d):
    tf.saved_model.save(_dense_model(), d)


def _save_sequential(d):
    tf.saved_model.save(keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)]), d)


def _save_with_explicit_signatures(d):
    model = _dense_model()

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="feat")])
    def predict(feat):
        return {"y": model(feat)}

    tf.saved_model.save(model, d, signatures=predict)


def _export(d):
    _dense_model().export(d, verbose=False)


def _save_subclassed(d):
    model = _Subclassed()
    model(np.ones((2, 5), "float32"))
    tf.saved_model.save(model, d)


def _save_two_inputs(d):
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    tf.saved_model.save(keras.Model([a, b], keras.layers.Concatenate()([a, b])), d)


def _save_dict_inputs(d):
    inputs = {"p": keras.Input((3,), name="p"), "q": keras.Input((2,), name="q")}
    tf.saved_model.save(keras.Model(inputs, keras.layers.Concatenate()([inputs["p"], inputs["q"]])), d)


def _save_module(d):
    class Module(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def f(self, x):
            return x * self.v

        @tf.function
        def g(self, a, b=2, c=None):
            return a

    m = Module()
    m.g(tf.constant([1.0]), 3)
    m.g([tf.constant(1.0), tf.constant(2.0)], c={"k": tf.constant(1)})
    tf.saved_model.save(m, d)


@pytest.mark.parametrize("save, expected", [
    (_save_functional, _ONE_INPUT), (_save_sequential, _ONE_INPUT), (_save_with_explicit_signatures, _ONE_INPUT),
    (_export, _EXPORTED), (_save_subclassed, _SUBCLASSED), (_save_two_inputs, _TWO_INPUTS),
    (_save_dict_inputs, _DICT_INPUTS), (_save_module, _MODULE)],
    ids=["functional", "sequential", "explicit-signatures", "export", "subclassed", "list-inputs", "dict-inputs",
         "module"])
def test_show_all_lists_the_functions_tensorflow_lists(save, expected, tmp_path, capsys):
    save(tmp_path / "m")
    assert _functions_listing(tmp_path / "m", capsys) == expected


def test_an_unbuilt_model_records_no_function(tmp_path, capsys):
    tf.saved_model.save(_Subclassed(), tmp_path / "m")  # TF 2.21: saved without signatures, no function
    assert _functions_listing(tmp_path / "m", capsys) == "\nConcrete Functions:"


def _function_paths(directory):
    """{path of a function node: its concrete function names}, walking the saved object graph."""
    graph = read_saved_model(directory).meta_graphs[0].object_graph_def
    paths, found = {0: "root"}, {}
    for index, node in enumerate(graph.nodes):
        for child in node.children:
            paths.setdefault(child.node_id, f"{paths[index]}.{child.local_name}")
    for index, node in enumerate(graph.nodes):
        if node.WhichOneof("kind") == "function":
            found[paths[index]] = list(node.function.concrete_functions)
    return found, graph


def test_the_root_function_is_the_serving_default_trace(tmp_path):
    """TF 2.21: one FunctionDef `__inference_serving_default_<n>` serves both the root's
    `_default_save_signature` and, through the signature wrapper, `serving_default`."""
    tf.saved_model.save(_dense_model(), tmp_path / "m")
    found, graph = _function_paths(tmp_path / "m")
    assert list(found) == ["root._default_save_signature"]
    (traced,) = found["root._default_save_signature"]
    assert traced.startswith("__inference_serving_default")
    assert sorted(graph.concrete_functions) == sorted([traced, *[n for n in graph.concrete_functions
                                                                  if "signature_wrapper" in n]])
    assert len(graph.concrete_functions) == 2


def test_a_model_held_by_a_module_records_its_own_function(tmp_path):
    """TF 2.21 records `_default_save_signature` on every built Keras model in the tree: a tf.Module
    holding one saves root.model._default_save_signature (and no signature)."""
    holder = tf.Module()
    holder.model = _dense_model()
    tf.saved_model.save(holder, tmp_path / "m")
    found, graph = _function_paths(tmp_path / "m")
    assert list(found) == ["root.model._default_save_signature"]
    assert set(read_saved_model(tmp_path / "m").meta_graphs[0].signature_def) == {"__saved_model_init_op"}


def test_the_loaded_function_computes_the_model(tmp_path):
    model = _dense_model()
    tf.saved_model.save(model, tmp_path / "m")
    loaded = tf.saved_model.load(tmp_path / "m")
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    np.testing.assert_allclose(loaded._default_save_signature(tf.constant(x)).numpy(), model(x).numpy(),
                               rtol=1e-6)
