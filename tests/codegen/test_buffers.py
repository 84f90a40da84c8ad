"""codegen/buffers.py: elementwise statements write into buffers that die at them (`out=`), and
never into an array the user owns or can still reach: parameters, captured tensors, variable
values, returned arrays, and anything a view (reshape, transpose, slice) or a loop still sees.

Each no-aliasing case is built so that the naive rule ("an input that dies here may be
overwritten") would overwrite the user's array; the test then checks the array kept its value."""
import re

import numpy as np

import eagerflow as tf
from eagerflow._src.graph.evaluate import evaluate

RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 3)).astype(np.float32)
C = np.float32(np.sqrt(2 / np.pi))
A = np.float32(0.044715)


def _gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(C * (x + A * x ** 3)))


def _outs(code):
    return re.findall(r"out=(\w+)", code)


def test_gelu_chain_runs_in_place_without_a_power():
    f = tf.function(_gelu)
    x = tf.constant(RNG.standard_normal(1000).astype(np.float32))
    cf = f.get_concrete_function(x)
    code = cf.code
    assert "k_Pow" not in code and "power" not in code
    assert len(_outs(code)) >= 6, code  # every step after the first two writes into a dead buffer
    got = f(x).numpy()
    reference = evaluate(cf.graph, [x]).numpy()  # the graph's meaning: np.power for x ** 3
    np.testing.assert_allclose(got, reference, rtol=2e-6, atol=1e-7)
    xs = x.numpy().astype(np.float64)
    exact = 0.5 * xs * (1 + np.tanh(np.float64(C) * (xs + np.float64(A) * xs ** 3)))
    np.testing.assert_allclose(got, exact, rtol=1e-5, atol=1e-6)


def test_a_parameter_is_never_written():
    x = X.copy()
    t = tf.constant(x)
    f = tf.function(lambda x: tf.exp(tf.tanh(x)))  # x dies at the tanh: the naive rule would write into it
    assert "out=x" not in f.get_concrete_function(t).code
    f(t)
    np.testing.assert_array_equal(t.numpy(), x)


def test_a_parameter_dying_at_a_chain_start_is_kept():
    t = tf.constant(X)
    f = tf.function(lambda x: x * 2.0 + 1.0)
    got = f(t).numpy()
    np.testing.assert_array_equal(t.numpy(), X)
    np.testing.assert_array_equal(got, X * np.float32(2.0) + np.float32(1.0))


def test_a_captured_tensor_is_never_written():
    captured = tf.constant(X.copy())
    f = tf.function(lambda x: tf.exp(captured) + x)
    for _ in range(3):
        f(tf.constant(X))
    np.testing.assert_array_equal(captured.numpy(), X)
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), np.exp(X) + X, rtol=1e-6)


def test_a_variable_value_is_never_written():
    v = tf.Variable(X.copy())
    f = tf.function(lambda x: tf.exp(v) * x)  # the value read dies at the exp
    f(tf.constant(X))
    f(tf.constant(X))
    np.testing.assert_array_equal(v.numpy(), X)
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), np.exp(X) * X, rtol=1e-6)


def test_returned_arrays_are_never_written_and_are_fresh_each_call():
    def f(x):
        y = tf.exp(x)
        return y, tf.tanh(y) * 2.0

    g = tf.function(f)
    y1, _ = g(tf.constant(X))
    first = y1.numpy().copy()
    y2, z2 = g(tf.constant(X))
    np.testing.assert_array_equal(y1.numpy(), first)  # the second call did not reuse the first's arrays
    np.testing.assert_allclose(y2.numpy(), np.exp(X), rtol=1e-6)
    np.testing.assert_allclose(z2.numpy(), np.tanh(np.exp(X)) * 2, rtol=1e-6)


def test_views_keep_their_buffer_alive():
    """`y` dies at the tanh, but a reshape, a transpose and a slice of it are returned: they share
    its memory, so the tanh must allocate."""
    def f(x):
        y = tf.exp(x)
        flat = tf.reshape(y, [-1])
        turned = tf.transpose(y)
        row = y[1]
        return flat, turned, row, tf.tanh(y)

    g = tf.function(f)
    flat, turned, row, last = g(tf.constant(X))
    np.testing.assert_allclose(flat.numpy(), np.exp(X).reshape(-1), rtol=1e-6)
    np.testing.assert_allclose(turned.numpy(), np.exp(X).T, rtol=1e-6)
    np.testing.assert_allclose(row.numpy(), np.exp(X)[1], rtol=1e-6)
    np.testing.assert_allclose(last.numpy(), np.tanh(np.exp(X)), rtol=1e-6)


def test_a_view_read_later_keeps_its_base():
    def f(x):
        y = tf.exp(x)
        flat = tf.reshape(y, [-1])
        z = tf.tanh(y)  # y dies here; flat is still read below
        return tf.reduce_sum(z) + tf.reduce_sum(flat * 1.0)

    got = tf.function(f)(tf.constant(X)).numpy()
    np.testing.assert_allclose(got, np.tanh(np.exp(X)).sum() + np.exp(X).sum(), rtol=1e-5)


def test_broadcasting_results_get_a_new_buffer():
    small = tf.constant(X[0])

    def f(x):
        y = tf.exp(small)  # shape [3], dies at a [4, 3] result: it cannot hold it
        return y + x

    g = tf.function(f)
    assert "out=" not in g.get_concrete_function(tf.constant(X)).code
    np.testing.assert_allclose(g(tf.constant(X)).numpy(), np.exp(X[0]) + X, rtol=1e-6)


def test_unknown_dimensions_write_in_place_only_where_shapes_must_agree():
    g = tf.function(lambda x, w: tf.exp(x) * 2.0 + tf.tanh(x) * w)
    spec = tf.TensorSpec([None])
    code = g.get_concrete_function(spec, spec).code
    lines = code.splitlines()
    scaled = next(l for l in lines if "c_mul" in l and "k_Mul" in l)
    assert "out=" in scaled  # a scalar cannot change the shape
    product = next(l for l in lines if re.search(r"k_Mul\(\w+, w", l))
    assert "out=" not in product  # tanh(x) of size 1 times w of size 5 would not fit
    x = np.array([0.5], np.float32)
    w = np.arange(5, dtype=np.float32)
    np.testing.assert_allclose(g(tf.constant(x), tf.constant(w)).numpy(), np.exp(x) * 2 + np.tanh(x) * w,
                               rtol=1e-6)


def test_dtypes_must_match():
    def f(x):
        y = tf.exp(x)
        return tf.cast(y, tf.float64) + tf.constant(1.0, tf.float64), tf.greater(y, 1.0)

    a, b = tf.function(f)(tf.constant(X))
    np.testing.assert_allclose(a.numpy(), np.exp(X).astype(np.float64) + 1.0, rtol=1e-6)
    np.testing.assert_array_equal(b.numpy(), np.exp(X) > 1)


def test_a_value_used_in_a_loop_is_not_overwritten():
    def f(x):
        y = tf.exp(x)
        acc = tf.zeros_like(x)
        for _ in tf.range(3):
            acc = acc + y * 2.0  # inside the body, y dies at the product: it is still the caller's
        return acc + tf.tanh(y)

    got = tf.function(f)(tf.constant(X)).numpy()
    np.testing.assert_allclose(got, 6 * np.exp(X) + np.tanh(np.exp(X)), rtol=1e-5)


def test_loop_bodies_write_in_place_and_keep_their_carried_values():
    def f(x):
        acc = tf.zeros_like(x)
        for i in tf.range(4):
            acc = tf.tanh(acc * 0.5 + x) * 2.0
        return acc

    cf = tf.function(f).get_concrete_function(tf.constant(X))
    assert _outs(cf.code)
    expected = np.zeros_like(X)
    for _ in range(4):
        expected = np.tanh(expected * np.float32(0.5) + X) * np.float32(2.0)
    np.testing.assert_allclose(cf(tf.constant(X)).numpy(), expected, rtol=1e-6)


def test_gradients_through_in_place_code():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.function(lambda x: tf.reduce_sum(tf.tanh(x * 2.0 + 1.0) * 3.0))(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 6.0 * (1 - np.tanh(X * 2 + 1) ** 2), rtol=1e-5)


def test_strings_get_a_new_buffer():
    """A string result can be wider than its inputs (fixed-width strings), so it never reuses one."""
    g = tf.function(lambda a, b: (a + b) + a)
    a, b = tf.constant(["ab", "c"]), tf.constant(["xyz", "w"])
    assert "out=" not in g.get_concrete_function(a, b).code
    assert g(a, b).numpy().tolist() == [b"abxyzab", b"cwc"]


BIG = RNG.standard_normal((256, 300)).astype(np.float32)  # 300 KiB: big enough for a spare pool


def _pools(cf):
    from eagerflow._src.codegen.buffers import SparePool
    return [v for v in cf.executable.generated.fn.__globals__.values() if isinstance(v, SparePool)]


def test_large_temporaries_are_kept_for_the_next_call_and_results_stay_the_users():
    f = tf.function(_gelu)
    x = tf.constant(BIG)
    cf = f.get_concrete_function(x)
    assert ".take()" in cf.code and ".give(" in cf.code
    expected = evaluate(cf.graph, [x]).numpy()
    results = [f(x) for _ in range(6)]
    arrays = [r.numpy() for r in results]
    assert len({id(a) for a in arrays}) == len(arrays)  # every call returned its own array
    for a in arrays:
        np.testing.assert_allclose(a, expected, rtol=2e-6, atol=1e-7)
    (pool,) = _pools(cf)
    assert len(pool._arrays) <= pool.limit  # bounded: at most one spare per statement taking one
    assert not any(p is a or np.shares_memory(p, a) for p in pool._arrays for a in arrays)


def test_the_spare_serves_the_temporaries_and_the_result_is_a_fresh_array():
    """As the hand-written floor does it: the chain of temporaries runs in the warm spare, and the
    statement whose buffer becomes the result takes none (a spare would leave with the user)."""
    f = tf.function(_gelu)
    x = tf.constant(BIG)
    cf = f.get_concrete_function(x)
    lines = [line.split("  #")[0] for line in cf.code.splitlines()]
    returned = re.search(r"return \((\w+),\)", cf.code).group(1)
    written_into = re.search(rf"{returned} = \w+\(.*out=(\w+)\)", cf.code).group(1)  # the result's buffer
    (made,) = [line for line in lines if line.strip().startswith(f"{written_into} = ")]
    assert "take()" not in made, cf.code
    assert sum(".take()" in line for line in lines) == 1 and sum(".give(" in line for line in lines) == 1
    (pool,) = _pools(cf)
    kept = []
    for _ in range(4):
        kept.append(f(x).numpy())
        assert len(pool._arrays) == 1  # the temporaries' buffer, back for the next call
    assert not any(np.shares_memory(pool._arrays[0], a) for a in kept)


def test_small_shapes_use_no_pool():
    """Below SPARE_MIN_BYTES NumPy's allocator is as fast: the cached-call path stays as it was."""
    cf = tf.function(_gelu).get_concrete_function(tf.constant(X))
    assert "spare_" not in cf.code and not _pools(cf)


def test_spare_buffers_under_concurrent_calls():
    import threading
    f = tf.function(lambda x: tf.tanh(x * 2.0 + 1.0) * 3.0)
    inputs = [tf.constant(BIG + i) for i in range(6)]
    f(inputs[0])
    failures = []

    def worker(i):
        x = inputs[i]
        want = np.tanh((BIG + i) * np.float32(2.0) + np.float32(1.0)) * np.float32(3.0)
        kept = []
        for _ in range(15):
            kept.append(f(x))
        for r in kept:
            if not np.allclose(r.numpy(), want, rtol=1e-6, atol=1e-6):
                failures.append(i)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_loop_bodies_reuse_spares_between_iterations():
    def f(x):
        acc = tf.zeros_like(x)
        for _ in tf.range(5):
            acc = acc + tf.tanh(x * 0.5) * 0.25
        return acc

    cf = tf.function(f).get_concrete_function(tf.constant(BIG))
    expected = np.zeros_like(BIG)
    for _ in range(5):
        expected = expected + np.tanh(BIG * np.float32(0.5)) * np.float32(0.25)
    for _ in range(3):
        np.testing.assert_allclose(cf(tf.constant(BIG)).numpy(), expected, rtol=1e-5, atol=1e-6)


def test_gradients_of_large_pooled_code_repeat_exactly():
    f = tf.function(_gelu)
    x = tf.constant(BIG)
    grads = []
    for _ in range(3):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(f(x))
        grads.append(tape.gradient(y, x).numpy())
    x64 = BIG.astype(np.float64)
    k = np.sqrt(2 / np.pi)
    th = np.tanh(k * (x64 + 0.044715 * x64 ** 3))
    exact = 0.5 * (1 + th) + 0.5 * x64 * (1 - th ** 2) * k * (1 + 3 * 0.044715 * x64 ** 2)
    np.testing.assert_allclose(grads[0], exact, rtol=1e-5, atol=2e-6)
    for g in grads[1:]:
        np.testing.assert_array_equal(g, grads[0])
