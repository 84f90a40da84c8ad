"""GradientTape semantics, each checked against values computed by hand or by finite differences."""
import numpy as np
import pytest

import eagerflow as tf


def test_seed_document_example_verbatim():
    # Seed document 003: y = w2 * (w1 ** 2); dy/dw1 = 2 * w1 * w2 = 12, dy/dw2 = z = 4
    w1 = tf.Variable([[2.0]])
    w2 = tf.Variable([[3.0]])
    with tf.GradientTape(persistent=True) as tape:
        z = tf.square(w1)
        y = tf.matmul(w2, z)
    grad_w1 = tape.gradient(y, w1)
    grad_w2 = tape.gradient(y, w2)
    np.testing.assert_array_equal(grad_w1.numpy(), [[12.0]])
    np.testing.assert_array_equal(grad_w2.numpy(), [[4.0]])
    del tape


def test_constants_need_watch():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    assert tape.gradient(y, x) is None
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x).numpy() == 6.0


def test_non_persistent_tape_allows_one_call():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    with pytest.raises(RuntimeError, match="A non-persistent GradientTape can only be used to compute one set of "
                                           "gradients"):
        tape.gradient(y, x)


def test_persistent_tape_many_calls():
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
    assert tape.gradient(y, x).numpy() == 4.0
    assert tape.gradient(z, x).numpy() == 12.0
    assert tape.gradient(z, y).numpy() == 2.0


def test_trainable_variables_are_watched_automatically_but_not_untrainable():
    v = tf.Variable(3.0)
    frozen = tf.Variable(5.0, trainable=False)
    with tf.GradientTape(persistent=True) as tape:
        y = v * frozen
    assert tape.gradient(y, v).numpy() == 5.0
    assert tape.gradient(y, frozen) is None
    assert [w.name for w in tape.watched_variables()] == [v.name]


def test_watch_accessed_variables_false():
    v, u = tf.Variable(3.0), tf.Variable(4.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(u)
        y = v * u
    g_v, g_u = tape.gradient(y, [v, u])
    assert g_v is None and g_u.numpy() == 3.0


def test_nested_sources_structure():
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = a * b * c
    grads = tape.gradient(y, {"ab": [a, b], "c": (c,)})
    assert grads["ab"][0].numpy() == 6.0 and grads["ab"][1].numpy() == 3.0
    assert isinstance(grads["c"], tuple) and grads["c"][0].numpy() == 2.0


def test_output_gradients_weight_the_target():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=tf.constant([10.0, 100.0]))
    np.testing.assert_allclose(g.numpy(), [20.0, 400.0])


def test_unconnected_gradients():
    x, z = tf.Variable(1.0), tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
        y = x * 2.0
    assert tape.gradient(y, z) is None
    assert tape.gradient(y, z, unconnected_gradients=tf.UnconnectedGradients.ZERO).numpy() == 0.0
    assert tape.gradient(y, z, unconnected_gradients="zero").numpy() == 0.0


def test_gradients_from_several_paths_are_summed():
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x + tf.sin(x) + x
    assert np.isclose(tape.gradient(y, x).numpy(), 2 * 3.0 + np.cos(3.0) + 1.0)


def test_list_of_targets_is_summed():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y1, y2 = x * x, x * 3.0
    assert tape.gradient([y1, y2], x).numpy() == 7.0


@pytest.mark.parametrize("order", [2, 3])
def test_nested_tapes_higher_order(order):
    x = tf.constant(1.5, tf.float64)
    # d^n/dx^n of x**4: 12 x^2, 24 x
    expected = {2: 12 * 1.5 ** 2, 3: 24 * 1.5}[order]
    tapes = [tf.GradientTape() for _ in range(order)]
    for t in tapes:
        t.__enter__()
        t.watch(x)
    y = x * x * x * x
    for t in reversed(tapes):
        t.__exit__(None, None, None)
        y = t.gradient(y, x)
    assert np.isclose(y.numpy(), expected)


def test_second_derivative_of_tanh_matches_formula():
    x = tf.constant([0.3, -1.2], tf.float64)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.tanh(x)
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    t = np.tanh(x.numpy())
    np.testing.assert_allclose(d2y.numpy(), -2 * t * (1 - t ** 2), rtol=1e-12)


def test_stop_recording():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            hidden = x * x
        y = x * 3.0 + hidden
    assert tape.gradient(y, x).numpy() == 3.0


def test_reset():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        tape.reset()
        tape.watch(x)
        z = x * 5.0
    assert tape.gradient(z, x).numpy() == 5.0


def test_stop_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * tf.stop_gradient(x)
    assert tape.gradient(y, x).numpy() == 2.0


def test_integer_targets_have_no_gradient():
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(x, tf.int32)
    assert tape.gradient(y, x) is None


def test_jacobian_of_elementwise_function_is_diagonal():
    x0 = np.array([0.5, -1.0, 2.0])
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x * tf.constant([1.0, 2.0, 3.0], tf.float64)
    jac = tape.jacobian(y, x).numpy()
    np.testing.assert_allclose(jac, np.diag(2 * x0 * np.array([1.0, 2.0, 3.0])))


def test_jacobian_of_matrix_product():
    a0 = np.random.default_rng(0).normal(size=(2, 3))
    w = tf.constant(np.random.default_rng(1).normal(size=(3, 4)))
    a = tf.constant(a0)
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.matmul(a, w)
    jac = tape.jacobian(y, a).numpy()  # [2, 4, 2, 3]
    assert jac.shape == (2, 4, 2, 3)
    expected = np.einsum("ik,jl->ijkl", np.eye(2), w.numpy().T)  # d y[i,j] / d a[k,l] = delta_ik w[l,j]
    np.testing.assert_allclose(jac, expected)


def test_batch_jacobian():
    x0 = np.random.default_rng(0).normal(size=(4, 3))
    w0 = np.random.default_rng(1).normal(size=(3, 2))
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.tanh(tf.matmul(x, tf.constant(w0)))  # [4, 2]
    bj = tape.batch_jacobian(y, x).numpy()  # [4, 2, 3]
    assert bj.shape == (4, 2, 3)
    t = np.tanh(x0 @ w0)
    expected = (1 - t ** 2)[:, :, None] * w0.T[None, :, :]
    np.testing.assert_allclose(bj, expected, rtol=1e-12)


def test_watch_rejects_non_tensors():
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable"):
            tape.watch("x")


def test_tape_records_only_inside_context():
    x = tf.constant(2.0)
    tape = tf.GradientTape()
    with tape:
        tape.watch(x)
    y = x * x  # after the context: not recorded
    assert tape.gradient(y, x) is None


def test_variable_gradient_after_assign_uses_read_value():
    v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        y = v * v
        v.assign(10.0)
    assert tape.gradient(y, v).numpy() == 4.0
