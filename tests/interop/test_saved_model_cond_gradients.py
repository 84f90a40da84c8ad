"""tf.cond gradients saved by eagerflow, run by TensorFlow 2.21: the recorded If's branches return an
Optional of the values their gradient reads and the gradient If reads them back, as TensorFlow's
own cond_v2 does, so TensorFlow runs the saved gradients (a cond, a cond nested in a cond's branch,
a cond's gradient differentiated again, a Keras-style train step through a cond layer) with
eagerflow's values. A cond inside a while loop
loads too; its loop gradient is TensorFlow's SymbolicGradient of the forward loop, which eagerflow
derives again on load and TensorFlow's runtime cannot (it has no C++ gradient for While)."""
import numpy as np

import eagerflow as tf
from eagerflow import keras

from ..saved_model.test_cond_gradients import W0, XS, CaseModel, CondModel, _Gate, called_cond_module

RTOL, ATOL = 1e-5, 1e-6


def test_tensorflow_runs_saved_cond_gradients_with_eagerflows_values(tmp_path, run_tf):
    model = CondModel()
    tf.saved_model.save(model, str(tmp_path / "m"))
    xs = [x.tolist() for x in XS]
    expected = {name: [getattr(model, name)(tf.constant(x)).numpy().tolist() for x in XS]
                for name in ("cond_grad", "nested_grad", "second_order")}
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        out = {{name: [getattr(m, name)(tf.constant(x)).numpy().tolist() for x in {xs!r}]
               for name in ("cond_grad", "nested_grad", "second_order")}}
        try:
            m.loop_grad(tf.constant({xs[0]!r}))
            out["loop_grad"] = "ran"
        except Exception as err:
            out["loop_grad"] = type(err).__name__ + ": " + str(err)
        print(json.dumps(out))
    """)
    for name, values in expected.items():
        np.testing.assert_allclose(answer[name], values, rtol=RTOL, atol=ATOL, err_msg=name)
    assert answer["loop_grad"].startswith("NotFoundError") and "SymbolicGradient" in answer["loop_grad"]


def test_tensorflow_trains_a_saved_step_through_a_cond_layer_as_eagerflow_does(tmp_path, run_tf):
    layer = _Gate()
    layer.build((None, 2))
    layer.kernel.assign(W0)
    holder = tf.Module()
    holder.layer = layer
    holder.opt = keras.optimizers.SGD(0.1)
    holder.opt.build(layer.trainable_variables)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        grads = tape.gradient(loss, layer.trainable_variables)
        holder.opt.apply_gradients(zip(grads, layer.trainable_variables))
        return loss

    holder.train_step = train_step
    tf.saved_model.save(holder, str(tmp_path / "m"))
    xs = [x.tolist() for x in XS]
    losses = [float(train_step(tf.constant(x))) for x in XS]
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        losses = [float(m.train_step(tf.constant(x))) for x in {xs!r}]
        print(json.dumps({{"losses": losses, "kernel": m.layer.kernel.numpy().tolist()}}))
    """)
    np.testing.assert_allclose(answer["losses"], losses, rtol=RTOL, atol=ATOL)
    np.testing.assert_allclose(answer["kernel"], layer.kernel.numpy(), rtol=RTOL, atol=ATOL)


def test_tensorflow_runs_a_saved_switch_case_gradient(tmp_path, run_tf):
    model = CaseModel()
    tf.saved_model.save(model, str(tmp_path / "m"))
    x = XS[0].tolist()
    expected = [model.case_grad(tf.constant(XS[0]), tf.constant(i)).numpy().tolist() for i in range(3)]
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        print(json.dumps([m.case_grad(tf.constant({x!r}), tf.constant(i)).numpy().tolist() for i in range(3)]))
    """)
    np.testing.assert_allclose(answer, expected, rtol=RTOL, atol=ATOL)


def test_tensorflow_runs_a_saved_gradient_of_a_called_function_holding_a_cond(tmp_path, run_tf):
    holder = called_cond_module()
    tf.saved_model.save(holder, str(tmp_path / "m"))
    xs = [x.tolist() for x in XS]
    expected = [holder.outer(tf.constant(x)).numpy().tolist() for x in XS]
    answer = run_tf(f"""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        print(json.dumps([m.outer(tf.constant(x)).numpy().tolist() for x in {xs!r}]))
    """)
    np.testing.assert_allclose(answer, expected, rtol=RTOL, atol=ATOL)
