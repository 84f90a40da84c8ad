"""A SavedModel may hold ops whose modules `import eagerflow` leaves to first use (tf.keras's fused
optimizer steps, AdamUpdate): loading it in a fresh process must still find them."""
from __future__ import annotations

import numpy as np

import eagerflow as tf
from eagerflow import keras

from .fresh_process import run


def test_a_saved_optimizer_step_loads_in_a_process_that_never_imported_keras(tmp_path):
    module = tf.Module()
    module.w = tf.Variable([1.0, 2.0])
    module.opt = keras.optimizers.Adam(0.1)
    module.opt.build([module.w])

    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def step(g):
        module.opt.apply_gradients([(g, module.w)])
        return module.w.read_value()
    module.step = step
    ops = {op.type for op in step.get_concrete_function().graph.get_operations()}
    assert "AdamUpdate" in ops  # the fused step, whose module (ops/variables/training_ops.py) loads with tf.keras
    tf.saved_model.save(module, str(tmp_path))
    want = module.step(tf.constant([0.5, -0.5])).numpy()

    keras_imported, got = run(f"""
m = tf.saved_model.load({str(tmp_path)!r})
out("eagerflow.keras" in sys.modules)
out(m.step(tf.constant([0.5, -0.5])))
""")
    assert keras_imported is False
    np.testing.assert_allclose(got, want, rtol=1e-6)
