"""Seed document 003 (eager execution): its programs and the values it prints."""
import numpy as np

import eagerflow as tf


def test_eager_add_prints_like_the_document(capsys):
    a = tf.constant([1.0, 2.0])
    b = tf.add(a, 3.0)
    print(b)
    assert capsys.readouterr().out == "tf.Tensor([4. 5.], shape=(2,), dtype=float32)\n"


def test_persistent_tape_composite_function(capsys):
    w1 = tf.Variable([[2.0]])
    w2 = tf.Variable([[3.0]])
    with tf.GradientTape(persistent=True) as tape:
        z = tf.square(w1)
        y = tf.matmul(w2, z)
    grad_w1 = tape.gradient(y, w1)  # 2 * w1 * w2 = 12
    grad_w2 = tape.gradient(y, w2)  # z = 4
    print("dy/dw1 =", grad_w1.numpy())
    print("dy/dw2 =", grad_w2.numpy())
    del tape
    assert capsys.readouterr().out == "dy/dw1 = [[12.]]\ndy/dw2 = [[4.]]\n"


def test_average_loss_formats_with_a_format_spec():
    # The document's training loop prints f"{avg_loss:.4f}" where avg_loss is a tensor.
    total_loss = tf.constant(0.0)
    for loss in [0.5, 0.25, 0.125]:
        total_loss += tf.constant(loss)
    avg_loss = total_loss / 3
    assert f"Average Loss: {avg_loss:.4f}" == "Average Loss: 0.2917"
    np.testing.assert_allclose(avg_loss.numpy(), 0.875 / 3, rtol=1e-6)
