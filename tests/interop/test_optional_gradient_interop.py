"""The gradient of a loaded model's cond gradient, saved by eagerflow (OptionalGradientComponents as a
StatelessIf on OptionalHasValue), runs in real TensorFlow 2.21 with TensorFlow's own second-order values."""
import numpy as np

import eagerflow as tf

from tests.saved_model.test_cond_gradients import XS
from tests.saved_model.test_optional_gradient_export import TF_PENALTY_GRADIENTS, make


def test_tensorflow_runs_the_gradient_of_a_loaded_cond_gradient(tmp_path, run_tf):
    tf.saved_model.save(make(tmp_path), str(tmp_path / "m"))
    answer = run_tf(f"""
        import json
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("m")
        xs = {[x.tolist() for x in XS]!r}
        print(json.dumps([m.penalty_grad(tf.constant(np.array(x, np.float32))).numpy().tolist() for x in xs]))
    """)
    np.testing.assert_allclose(answer, TF_PENALTY_GRADIENTS, rtol=1e-5, atol=1e-6)
