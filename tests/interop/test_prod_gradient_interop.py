"""The gradient of tf.reduce_prod saved by eagerflow (TensorFlow's Prod-gradient ops in place of
eagerflow's ProdOfOthers) runs in real TensorFlow 2.21 and gives TensorFlow's own gradient's values."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_prod_gradient_export import X, ProdGradients, others_product


def test_tensorflow_runs_eagerflows_prod_gradient(tmp_path, run_tf):
    tf.saved_model.save(ProdGradients(), str(tmp_path / "m"))
    answer = run_tf(f"""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("m")
        x = tf.constant(np.array({X.tolist()!r}, np.float32))
        out = {{"outer": m.outer_axes(x).numpy().tolist()}}
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_prod(x, axis=[0, -1])
        out["own_outer"] = tape.gradient(y, x).numpy().tolist()
        for axis in (0, 1, -1):
            out[str(axis)] = m.one_axis(x, tf.constant(axis)).numpy().tolist()
        print(json.dumps(out))
    """)
    np.testing.assert_allclose(answer["outer"], others_product(X, (0, 2)), rtol=1e-6)
    np.testing.assert_allclose(answer["outer"], answer["own_outer"], rtol=1e-6)
    for axis in (0, 1, -1):
        np.testing.assert_allclose(answer[str(axis)], 2 * others_product(X, (axis % 3,)), rtol=1e-6)
