"""The gradient of tf.reduce_prod (eagerflow's ProdOfOthers) saves in TensorFlow's format as the ops
TensorFlow's own Prod gradient builds (exclusive Cumprod from both ends of the reduced axes moved to the
front), and loads back with the same values: the product of the other elements of each reduction group,
computed here by NumPy, zeros included."""
import numpy as np

import eagerflow as tf
from eagerflow._src.formats.protos import saved_model_pb2

X = np.array([[[1.5, -2.0, 0.5, 3.0], [0.0, 1.0, 2.0, -1.0], [2.0, 2.0, 0.0, 0.0]],
              [[1.0, 4.0, -0.5, 2.0], [3.0, 0.0, 1.0, 1.0], [0.5, 1.0, 1.0, 2.0]]], np.float32)


def others_product(x, axes):
    """d prod(x over axes) / dx by brute force: each element's group product with it set to 1."""
    out = np.empty_like(x)
    for index in np.ndindex(x.shape):
        group = tuple(slice(None) if a in axes else index[a] for a in range(x.ndim))
        ones = x.copy()
        ones[index] = 1.0
        out[index] = np.prod(ones[group])
    return out


class ProdGradients(tf.Module):
    @tf.function(input_signature=[tf.TensorSpec([None, 3, None], tf.float32)])
    def outer_axes(self, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_prod(x, axis=[0, -1])
        return tape.gradient(y, x)

    @tf.function(input_signature=[tf.TensorSpec([None, 3, 4], tf.float32), tf.TensorSpec([], tf.int32)])
    def one_axis(self, x, axis):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.reduce_prod(x, axis=axis, keepdims=True) * 2.0)
        return tape.gradient(y, x)


def test_prod_gradient_saves_as_tensorflow_ops_and_loads_back(tmp_path, caplog):
    m = ProdGradients()
    with caplog.at_level("WARNING", logger="tensorflow"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert "eagerflow's format only" not in caplog.text and not (tmp_path / "m" / "saved_model.json").exists()
    message = saved_model_pb2.SavedModel.FromString((tmp_path / "m" / "saved_model.pb").read_bytes())
    ops = {n.op for f in message.meta_graphs[0].graph_def.library.function for n in f.node_def
           if "_eagerflow_part" in n.attr or "_eagerflow_op" in n.attr}
    assert {"Cumprod", "ListDiff", "InvertPermutation"} <= ops and "ProdOfOthers" not in ops
    back = tf.saved_model.load(str(tmp_path / "m"))
    for module in (m, back):
        np.testing.assert_allclose(module.outer_axes(X).numpy(), others_product(X, (0, 2)), rtol=1e-6)
        for axis in (0, 1, -1):
            np.testing.assert_allclose(module.one_axis(X, axis).numpy(), 2 * others_product(X, (axis % 3,)),
                                       rtol=1e-6)
