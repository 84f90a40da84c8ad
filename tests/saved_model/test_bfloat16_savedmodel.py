"""A SavedModel with bfloat16 variables, constants and signatures: stored as uint16 bit patterns
declared "bfloat16" (NumPy's .npy has no bfloat16), loaded back bit for bit."""
import numpy as np
import pytest

pytest.importorskip("ml_dtypes")

import eagerflow as tf  # noqa: E402
from eagerflow.saved_model.files import read_tensor, write_tensor  # noqa: E402

b = tf.bfloat16


def test_tensor_file_round_trip(tmp_path):
    array = np.array([[1.5, -2.25], [3.140625, np.inf]], dtype=b.as_numpy_dtype)
    ref = write_tensor(str(tmp_path), "t/0.npy", array)
    assert ref["dtype"] == "bfloat16" and ref["shape"] == [2, 2]
    assert np.load(tmp_path / "t" / "0.npy").dtype == np.uint16  # plain NumPy can read the file
    back = read_tensor(str(tmp_path), ref, "test")
    assert back.dtype == array.dtype
    np.testing.assert_array_equal(back.view(np.uint16), array.view(np.uint16))


class _Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable(tf.constant([1.5, 2.25, 3.14159], b))

    @tf.function(input_signature=[tf.TensorSpec([3], tf.bfloat16)])
    def f(self, x):
        return x * self.w + tf.constant(1.1, b)


def test_savedmodel_round_trip(tmp_path):
    model = _Model()
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded.w.dtype is b
    assert loaded.w.numpy().astype(float).tolist() == [1.5, 2.25, 3.140625]
    x = tf.constant([1.0, 2.0, 3.0], b)
    out = loaded.f(x)
    assert out.dtype is b
    assert out.numpy().astype(float).tolist() == model.f(x).numpy().astype(float).tolist() == [2.59375, 5.59375,
                                                                                                10.5625]
