"""jit_compile=True through XLA (codegen/xla.py): variables, control flow, gradients, caching,
the error for ops without a lowering, and tf.config.optimizer.set_jit's effect (needs JAX).

References: the same function as a plain tf.function (the NumPy kernels), NumPy written by hand,
and TensorFlow 2.21's messages and return values (quoted where they are asserted)."""
from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import eagerflow as tf  # noqa: E402


def _both(fn, *args):
    """(plain tf.function result, jit_compile=True result) as lists of arrays."""
    def flat(r):
        return [np.asarray(t) for t in tf.nest.flatten(r)]
    return flat(tf.function(fn)(*args)), flat(tf.function(fn, jit_compile=True)(*args))


def _assert_close(a, b, rtol=1e-5):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_allclose(y, x, rtol=rtol, atol=1e-6)


def test_set_jit_compiles_functions_without_explicit_false(monkeypatch):
    from eagerflow._src.codegen import xla
    compiled = []
    real = xla.CompiledProgram.__init__
    monkeypatch.setattr(xla.CompiledProgram, "__init__", lambda self, *a: (compiled.append(a[1]), real(self, *a))[1])
    try:
        tf.config.optimizer.set_jit(True)
        tf.function(lambda x: x + 1.0, name="follows")(tf.constant(1.0))
        tf.function(lambda x: x + 1.0, jit_compile=False, name="opts_out")(tf.constant(1.0))
    finally:
        tf.config.optimizer.set_jit(False)
    tf.function(lambda x: x + 1.0, name="default")(tf.constant(1.0))
    assert compiled == ["follows"]


def test_unsupported_op_raises_tensorflows_error_naming_it():
    @tf.function(jit_compile=True)
    def f(x):
        tf.print(x)  # StringFormat and PrintV2: no lowering (TensorFlow's XLA has no kernel for them either)
        return x + 1.0
    # TF 2.21 (tf.strings.as_string under jit_compile=True): InvalidArgumentError "Detected unsupported
    # operations when trying to compile graph __inference_f_6[...] on XLA_CPU_JIT: AsString (No registered
    # 'AsString' OpKernel for XLA_CPU_JIT devices compatible with node {{node AsString}}){{node AsString}}"
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        f(tf.constant(1.0))
    message = str(info.value)
    assert message.startswith("Detected unsupported operations when trying to compile graph __inference_f")
    assert ("on XLA_CPU_JIT: StringFormat (No registered 'StringFormat' OpKernel for XLA_CPU_JIT devices "
            "compatible with node {{node StringFormat}}){{node StringFormat}}, PrintV2 (No registered 'PrintV2' "
            "OpKernel for XLA_CPU_JIT devices compatible with node {{node PrintV2}}){{node PrintV2}}") in message


def test_variables_are_read_and_assigned_values_written_back():
    v = tf.Variable(np.arange(3, dtype=np.float32))
    w = tf.Variable(5.0)

    @tf.function(jit_compile=True)
    def step(x):
        v.assign_add(x)
        w.assign(w * 2.0)
        v.assign_sub(tf.ones([3]))
        return tf.reduce_sum(v) + w

    x = tf.constant([1.0, 2.0, 3.0])
    assert float(step(x)) == pytest.approx((0 + 1 + 2 + 6 - 3) + 10.0)
    np.testing.assert_array_equal(v.numpy(), [0.0, 2.0, 4.0])
    assert float(w.numpy()) == 10.0
    step(x)  # the second call reads the values the first wrote
    np.testing.assert_array_equal(v.numpy(), [0.0, 3.0, 6.0])
    assert float(w.numpy()) == 20.0
    v.assign([1.0, 1.0, 1.0])  # an eager write is seen by the compiled function
    assert float(step(tf.zeros([3]))) == pytest.approx(0.0 + 40.0)


def test_variable_passed_as_an_argument():
    @tf.function(jit_compile=True)
    def bump(var, x):
        var.assign_add(x)
        return var.read_value()
    a, b = tf.Variable([1.0, 2.0]), tf.Variable([10.0, 20.0])
    np.testing.assert_array_equal(bump(a, tf.constant([1.0, 1.0])).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(bump(b, tf.constant([1.0, 1.0])).numpy(), [11.0, 21.0])
    np.testing.assert_array_equal(a.numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(b.numpy(), [11.0, 21.0])


def test_cond_on_a_tensor_and_assignments_inside_branches():
    v = tf.Variable(0.0)

    def f(x):
        if tf.reduce_sum(x) > 0:
            v.assign_add(1.0)
            y = x * 2.0
        else:
            y = -x
        return y, v.read_value()
    g = tf.function(f, jit_compile=True)
    np.testing.assert_array_equal(g(tf.constant([1.0, 2.0]))[0].numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(g(tf.constant([-1.0, -2.0]))[0].numpy(), [1.0, 2.0])
    assert float(v.numpy()) == 1.0
    assert float(g(tf.constant([3.0]))[1]) == 2.0


def test_while_with_a_data_dependent_trip_count():
    def collatz(n):
        steps = tf.constant(0)
        while n != 1:
            n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
            steps += 1
        return steps
    for start in (6, 27, 1):
        plain, compiled = _both(collatz, tf.constant(start))
        assert compiled[0] == plain[0]
    assert int(tf.function(collatz, jit_compile=True)(tf.constant(27))) == 111  # 27 takes 111 steps


def _rnn_inputs(T=12):
    rng = np.random.default_rng(3)
    return (tf.constant(rng.standard_normal((T, 4, 5)).astype(np.float32)),
            tf.constant((rng.standard_normal((5, 6)) * 0.3).astype(np.float32)),
            tf.constant((rng.standard_normal((6, 6)) * 0.3).astype(np.float32)))


def _numpy_rnn_with_gradient(x, wx, wh):
    """Hand-written forward and backpropagation through time (the reference)."""
    x, wx, wh = (np.asarray(a, np.float64) for a in (x, wx, wh))
    hs = [np.zeros((x.shape[1], wh.shape[0]))]
    for t in range(x.shape[0]):
        hs.append(np.tanh(x[t] @ wx + hs[-1] @ wh))
    gwx, gwh, gh = np.zeros_like(wx), np.zeros_like(wh), np.ones_like(hs[-1])
    for t in range(x.shape[0] - 1, -1, -1):
        gz = gh * (1 - hs[t + 1] ** 2)
        gwx += x[t].T @ gz
        gwh += hs[t].T @ gz
        gh = gz @ wh.T
    return hs[-1].sum(), gwx, gwh


def test_rnn_forward_and_backward_through_a_tf_range_loop():
    def rnn(x, wx, wh):
        with tf.GradientTape() as tape:
            tape.watch([wx, wh])
            h = tf.zeros([4, 6])
            for t in tf.range(tf.shape(x)[0]):
                h = tf.tanh(tf.matmul(x[t], wx) + tf.matmul(h, wh))
            loss = tf.reduce_sum(h)
        return (loss,) + tuple(tape.gradient(loss, [wx, wh]))
    args = _rnn_inputs()
    plain, compiled = _both(rnn, *args)
    _assert_close(plain, compiled, rtol=1e-4)
    loss, gwx, gwh = _numpy_rnn_with_gradient(*args)
    np.testing.assert_allclose(compiled[0], loss, rtol=1e-4)
    np.testing.assert_allclose(compiled[1], gwx, rtol=1e-3, atol=1e-5)
    np.testing.assert_allclose(compiled[2], gwh, rtol=1e-3, atol=1e-5)


def test_gradient_through_a_data_dependent_loop_is_refused_clearly():
    @tf.function(jit_compile=True)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            while tf.reduce_sum(y) < 100.0:
                y = y * 2.0
        return tape.gradient(y, x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="needs its trip count at trace time"):
        f(tf.constant([1.0, 2.0]))


def test_nested_function_is_inlined_and_compiled():
    @tf.function
    def inner(x):
        return tf.nn.relu(x) * 3.0

    def outer(x):
        return inner(x) + inner(-x)
    plain, compiled = _both(outer, tf.constant([-1.0, 2.0]))
    _assert_close(plain, compiled)


def test_one_executable_per_trace_and_shape_arguments_as_constants(monkeypatch):
    from eagerflow._src.ops.math import elementwise as _math
    calls = []
    real = _math.Tanh.jax
    monkeypatch.setattr(_math.Tanh, "jax", lambda x: (calls.append(1), real(x))[1])

    @tf.function(jit_compile=True)
    def f(x):
        return tf.tanh(x)
    for _ in range(3):
        f(tf.constant([0.5, 1.0]))
    assert len(calls) == 1  # traced by JAX once; later calls run the executable

    @tf.function(jit_compile=True)
    def fill(dims, value):
        return tf.fill(dims, value)
    # TF 2.21 compiles a shape argument in as a constant: g([2, 3]) has shape (2, 3), g([1, 2]) (1, 2).
    assert fill(tf.constant([2, 3]), tf.constant(1.5)).shape == (2, 3)
    assert fill(tf.constant([1, 2]), tf.constant(1.5)).shape == (1, 2)


def test_dropped_compiled_functions_are_freed():
    refs = []
    for i in range(200):
        f = tf.function(lambda x, i=i: x * float(i), jit_compile=True)
        f(tf.constant(1.0))
        refs.append(weakref.ref(f.get_concrete_function(tf.constant(1.0))))
        del f
    gc.collect()
    assert sum(r() is not None for r in refs) == 0


def test_int64_and_float64_keep_their_width():
    plain, compiled = _both(lambda x, y: (x * 3, y / 3.0), tf.constant([2 ** 40], tf.int64),
                            tf.constant([1.0], tf.float64))
    assert compiled[0].dtype == np.int64 and compiled[0][0] == 3 * 2 ** 40
    assert compiled[1].dtype == np.float64
    _assert_close(plain, compiled)


def _keras_train_losses(make_model, x, y, optimizer, jit, steps=3):
    tf.keras.utils.set_random_seed(7)  # the same initial weights (and dropout streams) for both runs
    model = make_model()
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = optimizer()

    @tf.function(jit_compile=jit)
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    tf.random.set_seed(11)
    losses = [float(step(x, y)) for _ in range(steps)]
    return losses, [w.numpy() for w in model.trainable_variables]


_L = tf.keras.layers
_RNG = np.random.default_rng(2)
_KERAS_CASES = {
    "mlp-adam": (lambda: tf.keras.Sequential([_L.Dense(16, activation="relu"), _L.Dense(3)]),
                 _RNG.random((16, 8), dtype=np.float32), tf.keras.optimizers.Adam),
    "mlp-dropout-sgd": (lambda: tf.keras.Sequential([_L.Dense(16, activation="relu"), _L.Dropout(0.5), _L.Dense(3)]),
                        _RNG.random((16, 8), dtype=np.float32), lambda: tf.keras.optimizers.SGD(0.1)),
    "cnn": (lambda: tf.keras.Sequential([_L.Conv2D(4, 3, activation="relu"), _L.MaxPooling2D(), _L.Flatten(),
                                         _L.Dense(3)]),
            _RNG.random((16, 8, 8, 1), dtype=np.float32), lambda: tf.keras.optimizers.SGD(0.1)),
    "simple-rnn": (lambda: tf.keras.Sequential([_L.SimpleRNN(6), _L.Dense(3)]),
                   _RNG.random((16, 5, 3), dtype=np.float32), lambda: tf.keras.optimizers.SGD(0.1)),
    "lstm": (lambda: tf.keras.Sequential([_L.LSTM(6), _L.Dense(3)]),
             _RNG.random((16, 5, 3), dtype=np.float32), tf.keras.optimizers.Adam),
}


@pytest.mark.parametrize("case", sorted(_KERAS_CASES))
def test_keras_train_steps_match_the_numpy_path(case):
    make_model, x, optimizer = _KERAS_CASES[case]
    x, y = tf.constant(x), tf.constant(_RNG.integers(0, 3, len(x)))
    plain_losses, plain_weights = _keras_train_losses(make_model, x, y, optimizer, jit=False)
    jit_losses, jit_weights = _keras_train_losses(make_model, x, y, optimizer, jit=True)
    np.testing.assert_allclose(jit_losses, plain_losses, rtol=1e-4)
    assert plain_losses[-1] != plain_losses[0]  # the steps trained (variables were written back)
    for a, b in zip(plain_weights, jit_weights):
        np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-5)


def test_gradient_through_a_cond_on_a_tensor_reads_the_kept_values():
    def f(x, w):
        with tf.GradientTape() as tape:
            tape.watch(w)
            if tf.reduce_sum(x) > 0:
                y = tf.reduce_sum(tf.sin(x * w) * w)
            else:
                y = tf.reduce_sum(tf.exp(w) * x)
        return y, tape.gradient(y, w)
    w = tf.constant([0.5, -1.0, 2.0])
    for x in ([1.0, 2.0, 3.0], [-1.0, -2.0, 0.5]):
        x = tf.constant(x)
        plain, compiled = _both(f, x, w)
        _assert_close(plain, compiled)
    xs, ws = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])  # d/dw sum(sin(x w) w) by hand
    np.testing.assert_allclose(_both(f, tf.constant(xs, tf.float32), w)[1][1],
                               np.cos(xs * ws) * xs * ws + np.sin(xs * ws), rtol=1e-5)


def test_called_from_many_threads_compiles_once_and_agrees():
    import threading
    from eagerflow._src.ops.math import elementwise as _math
    calls = []
    real = _math.Tanh.jax

    def counting(x):
        calls.append(1)
        return real(x)

    @tf.function(jit_compile=True)
    def f(x):
        return tf.tanh(x) * 2.0
    x = tf.constant(np.linspace(-1, 1, 5, dtype=np.float32))
    expected = np.tanh(x.numpy()) * 2.0
    results, errors = [], []

    def worker():
        try:
            for _ in range(20):
                results.append(f(x).numpy())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    _math.Tanh.jax = counting
    try:
        threads = [threading.Thread(target=worker) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        _math.Tanh.jax = real
    assert not errors
    assert len(results) == 160 and all(np.allclose(r, expected, rtol=1e-6) for r in results)
    assert len(calls) == 1  # one trace, one lowering, one executable


def test_a_large_argument_is_copied_into_xla_once_and_freed_with_its_tensor():
    @tf.function(jit_compile=True)
    def f(x):
        return x * 2.0
    x = tf.constant(np.arange(1 << 15, dtype=np.float32))  # 128 KiB: kept as an XLA copy
    np.testing.assert_array_equal(f(x).numpy(), np.arange(1 << 15, dtype=np.float32) * 2)
    compiled = f.get_concrete_function(x)._fn.__self__
    first = compiled._placed[0][1]
    f(x)
    assert compiled._placed[0][1] is first  # the same tensor again: no new copy
    y = tf.constant(np.ones(1 << 15, np.float32))
    np.testing.assert_array_equal(f(y).numpy(), np.full(1 << 15, 2.0, np.float32))  # a new tensor: its value
    del x, y
    gc.collect()
    assert 0 not in compiled._placed  # the copy went with the tensor


def test_large_arguments_dropped_by_the_user_do_not_survive_in_the_placement_cache():
    # jax.device_put on the CPU may alias a NumPy array or hold it until its transfer ends; the
    # placement cache keeps the XLA copy beside a weak reference to the array, so that copy must
    # not hold the array itself (CI saw the array kept alive through it).
    @tf.function(jit_compile=True)
    def f(x):
        return x + 1.0
    refs = []
    for i in range(50):
        array = np.full(1 << 15, float(i), np.float32)
        refs.append(weakref.ref(array))
        assert float(f(tf.constant(array)).numpy()[0]) == i + 1.0
        del array
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
