"""A `@tf.custom_gradient` TensorFlow 2.21 saved, loaded by eagerflow and saved again, loads in TensorFlow
with the same custom gradient: eagerflow writes it back as TensorFlow does (IdentityN + a registered
gradient function reading captured forward tensors), through a tf.function and a signature alike."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_custom_gradient_export import X

WRITE = """
    import json
    import tensorflow as tf

    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable([1.0, 2.0, 3.0])

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
        def serve(self, x):
            @tf.custom_gradient
            def f(t):
                s = tf.sin(t)
                return t * s, lambda dy: dy * (s + 10.0)
            return f(x * self.v)

    m = M()
    tf.saved_model.save(m, "tf_written", signatures=m.serve)
    print(json.dumps(None))
"""

READ = """
    import json
    import tensorflow as tf
    x = tf.constant({x!r})
    out = {{}}
    for name in ("tf_written", "eagerflow_written"):
        m = tf.saved_model.load(name)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = m.serve(x)
            z = m.signatures["serving_default"](x=x)["output_0"]
        out[name] = [y.numpy().tolist(), tape.gradient(y, x).numpy().tolist(), tape.gradient(z, x).numpy().tolist()]
    print(json.dumps(out))
"""


def test_a_tensorflow_custom_gradient_survives_an_eagerflow_resave(tmp_path, run_tf):
    run_tf(WRITE)
    m = tf.saved_model.load(str(tmp_path / "tf_written"))
    tf.saved_model.save(m, str(tmp_path / "eagerflow_written"), signatures=m.signatures["serving_default"])
    answer = run_tf(READ.format(x=X.tolist()))
    theirs, ours = answer["tf_written"], answer["eagerflow_written"]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-6)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-6)
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-6)
    v = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_allclose(theirs[1], (np.sin(X * v) + 10.0) * v, rtol=1e-5)  # the custom one, not the true one
