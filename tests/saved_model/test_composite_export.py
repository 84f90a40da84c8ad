"""eagerflow ops with no TensorFlow op of their own save in TensorFlow's format as the TensorFlow ops
computing them: IsJpeg (tf.io.is_jpeg) as Substr + Equal on the first three bytes, as TensorFlow 2.21
writes it; UnicodeCharSplit (TextVectorization's split="character") as UnicodeDecode + UnicodeEncode.
The expected values are TensorFlow 2.21's for the same calls."""
import numpy as np

import eagerflow as tf
from eagerflow import keras
from eagerflow._src.formats.protos import saved_model_pb2

STRINGS = ["abé".encode(), b"\xff\xd8\xffcz", b""]  # a JPEG's magic bytes (invalid UTF-8), an empty string
EXPECTED = {"ids": [[2, 3, 4, 0, 0], [1, 1, 1, 5, 1], [0, 0, 0, 0, 0]], "jpeg": [False, True, False]}


class _Characters(tf.Module):
    def __init__(self):
        super().__init__()
        self.vectorize = keras.layers.TextVectorization(split="character", standardize=None, output_mode="int",
                                                        vocabulary=["a", "b", "é", "c"], output_sequence_length=5)

    @tf.function(input_signature=[tf.TensorSpec([3], tf.string)])
    def run(self, s):
        return {"ids": self.vectorize(s), "jpeg": tf.stack([tf.io.is_jpeg(s[i]) for i in range(3)])}


def test_is_jpeg_and_character_splits_save_in_tensorflows_format_and_load_back(tmp_path, caplog):
    m = _Characters()
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text
    assert not (tmp_path / "m" / "saved_model.json").exists()
    for out in (m.run(tf.constant(STRINGS)), tf.saved_model.load(str(tmp_path / "m")).run(tf.constant(STRINGS))):
        assert out["ids"].numpy().tolist() == EXPECTED["ids"]
        assert out["jpeg"].numpy().tolist() == EXPECTED["jpeg"]


def test_the_rewrites_are_tensorflows_ops(tmp_path):
    tf.saved_model.save(_Characters(), str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    fdef = next(f for f in message.meta_graphs[0].graph_def.library.function
                if any(n.op == "Substr" for n in f.node_def))
    ops = [n.op for n in fdef.node_def]
    assert "IsJpeg" not in ops and "UnicodeCharSplit" not in ops
    assert ops.count("Substr") == 3 and ops.count("UnicodeDecode") == 1 and ops.count("UnicodeEncode") == 1
    nodes = {n.name: n for n in fdef.node_def}
    equal = next(n for n in fdef.node_def if n.op == "Equal")
    assert nodes[equal.input[0].split(":")[0]].op == "Substr"
    assert nodes[equal.input[1].split(":")[0]].attr["value"].tensor.string_val == [b"\xff\xd8\xff"]
    decode = next(n for n in fdef.node_def if n.op == "UnicodeDecode")
    assert decode.attr["input_encoding"].s == b"UTF-8" and decode.attr["Tsplits"].type == 9  # int64
