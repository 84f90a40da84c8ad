"""SavedModels real TensorFlow 2.21 wrote (fixtures/tf_written/, made by fixtures/make_tf_written.py from
the differential suite's script) load and give TensorFlow's outputs without TensorFlow: Keras
preprocessing (StringLookup, TextVectorization and Normalization: hash tables, a mutable table restored
from the checkpoint, ragged string splits), IntegerLookup/Hashing/CategoryEncoding/Discretization, a
tf.lookup.StaticHashTable, tf.cond/tf.while_loop/TensorArray/tf.switch_case, and a training step that
differentiates itself (TensorFlow's gradient ops). Floats within rtol 1e-5, the rest exactly."""
from pathlib import Path

import pytest

import eagerflow as tf
from tests.interop.tf_savedmodel_compare import call_loaded, compare, recorded_files

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "tf_written"
MODELS = ["preprocessing", "control_flow", "train_step", "keras_lookups", "hash_table"]


@pytest.mark.parametrize("name", MODELS)
def test_a_tensorflow_written_model_gives_tensorflows_outputs(name):
    folder = FIXTURES / name
    loaded = tf.saved_model.load(str(folder / "model"))
    stored = recorded_files(folder / "expected.npz", folder / "expected.strings.json")
    assert stored, "no recorded calls"
    problems = []
    for call, (inputs, expected) in stored.items():
        problems += compare(name, call, call_loaded(loaded, call, inputs), expected)
    assert not problems, "\n".join(problems)


def test_the_tables_of_a_keras_preprocessing_model_are_their_contents():
    loaded = tf.saved_model.load(str(FIXTURES / "preprocessing" / "model"))
    out = loaded.signatures["serving_default"](numbers=tf.zeros([1, 3]), color=tf.constant([["blue"]]),
                                               text=tf.constant([["the cat the"]]))
    assert out["color"].numpy().tolist() == [[3]]  # [UNK] 0, red 1, green 2, blue 3
    tokens = out["text"].numpy().tolist()[0]
    assert tokens[0] == tokens[2] and tokens[3:] == [0, 0]  # padded to the output sequence length
