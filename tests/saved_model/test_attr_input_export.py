"""Ops whose eagerflow form keeps as attributes what TensorFlow's op takes as inputs (tf.linalg's
diagonal offsets, padding value and alignment; tf.fingerprint's method) save in TensorFlow's format:
the attributes become Const inputs of TensorFlow's op, as TensorFlow 2.21 writes them
(`MatrixDiagV3(diagonal, k, num_rows, num_cols, padding_value)` with `T` and `align`), and load back."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2
from eagerflow._src.formats.tensor_proto import tensor_value

X = np.arange(1, 13, dtype=np.float32).reshape(3, 4)


class _Diagonals(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([3, 4], tf.float32), tf.TensorSpec([2, 3], tf.float32),
                                  tf.TensorSpec([3], tf.float32), tf.TensorSpec([None], tf.string)])
    def run(self, x, band, diagonal, words):
        return {"diag": tf.linalg.diag(band, k=(-1, 0), num_rows=4, num_cols=3, padding_value=9.0,
                                       align="LEFT_RIGHT"),
                "diag_part": tf.linalg.diag_part(x, k=(0, 1), padding_value=-1.0),
                "one_diagonal": tf.linalg.diag_part(x, k=1),
                "set_diag": tf.linalg.set_diag(x, diagonal, k=1),
                "fingerprint": tf.fingerprint(words)}


def _inputs():
    return (tf.constant(X), tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), tf.constant([-1.0, -2.0, -3.0]),
            tf.constant(["a", "hello"]))


# Recorded from TensorFlow 2.21 for _inputs().
EXPECTED = {
    "diag": [[1.0, 9.0, 9.0], [4.0, 2.0, 9.0], [9.0, 5.0, 3.0], [9.0, 9.0, 6.0]],
    "diag_part": [[2.0, 7.0, 12.0], [1.0, 6.0, 11.0]],
    "one_diagonal": [2.0, 7.0, 12.0],
    "set_diag": [[1.0, -1.0, 3.0, 4.0], [5.0, 6.0, -2.0, 8.0], [9.0, 10.0, 11.0, -3.0]],
    "fingerprint": [[227, 117, 223, 182, 101, 66, 69, 179], [232, 12, 56, 49, 169, 229, 139, 180]],
}


def test_diagonals_and_fingerprints_save_in_tensorflows_format_and_load_back(tmp_path, caplog):
    m = _Diagonals()
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text
    assert (tmp_path / "m" / "saved_model.pb").exists() and not (tmp_path / "m" / "saved_model.json").exists()
    for out in (m.run(*_inputs()), tf.saved_model.load(str(tmp_path / "m")).run(*_inputs())):
        for key, want in EXPECTED.items():
            np.testing.assert_array_equal(out[key].numpy(), np.array(want), err_msg=key)


def test_the_nodes_take_tensorflows_const_inputs_and_attributes(tmp_path):
    tf.saved_model.save(_Diagonals(), str(tmp_path / "m"))
    message = saved_model_pb2.SavedModel()
    message.ParseFromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    fdef = next(f for f in message.meta_graphs[0].graph_def.library.function
                if any(n.op == "MatrixDiagV3" for n in f.node_def))
    nodes = {n.name: n for n in fdef.node_def}

    def const(ref):
        node = nodes[ref.split(":")[0]]
        assert node.op == "Const"
        return tensor_value(node.attr["value"].tensor)

    diag = next(n for n in fdef.node_def if n.op == "MatrixDiagV3")
    assert diag.attr["align"].s == b"LEFT_RIGHT" and diag.attr["T"].type == 1
    k, rows, cols, padding = (const(r) for r in diag.input[1:])
    assert k.dtype == rows.dtype == cols.dtype == np.int32 and padding.dtype == np.float32
    assert k.tolist() == [-1, 0] and rows.tolist() == 4 and cols.tolist() == 3 and padding.tolist() == 9.0
    parts = [n for n in fdef.node_def if n.op == "MatrixDiagPartV3"]
    assert sorted((const(n.input[1]).tolist() for n in parts), key=str) == [1, [0, 1]]  # a band, one diagonal
    assert all(n.attr["align"].s == b"RIGHT_LEFT" for n in parts)
    set_diag = next(n for n in fdef.node_def if n.op == "MatrixSetDiagV3")
    assert len(set_diag.input) == 3 and const(set_diag.input[2]).tolist() == 1
    fingerprint = next(n for n in fdef.node_def if n.op == "Fingerprint")
    assert const(fingerprint.input[1]).tolist() == b"farmhash64" and fingerprint.attr["T"].type == 7
