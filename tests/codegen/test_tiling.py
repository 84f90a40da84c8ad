"""codegen/tiling.py: elementwise chains over large arrays run tile by tile.

The references are NumPy on whole arrays (the same ufuncs, so the tiled results must be equal
bit for bit) and the reference interpreter (graph/evaluate.py) for the graph's meaning. Each
aliasing case is built so that a wrong choice of result buffer would show: a parameter or a
pooled spare overwritten, or a result shared between calls."""
import re

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.codegen import tiling
from eagerflow._src.graph.evaluate import evaluate
from tests.threads import fast_thread_switches, in_threads  # noqa: F401  (a fixture)

RNG = np.random.default_rng(11)
C = np.float32(np.sqrt(2 / np.pi))
A = np.float32(0.044715)
LARGE = RNG.standard_normal(1 << 20).astype(np.float32)  # 4 MiB: 16 tiles
MATRIX = RNG.standard_normal((700, 600)).astype(np.float32)  # 1.6 MiB, rank 2, a partial last tile


def _gelu(x):
    return 0.5 * x * (1.0 + tf.tanh(C * (x + A * x ** 3)))


def _gelu_numpy(x):
    t = x * x
    t *= x
    t *= A
    t += x
    t *= C
    np.tanh(t, out=t)
    t += np.float32(1.0)
    return x * np.float32(0.5) * t


def _is_tiled(cf):
    return re.search(r"for s\w*(, \(.*\))? in ", cf.code) is not None


def test_gelu_on_a_large_array_runs_in_tiles_and_equals_whole_array_numpy():
    f = tf.function(_gelu)
    x = tf.constant(LARGE)
    cf = f.get_concrete_function(x)
    assert _is_tiled(cf), cf.code
    got = f(x).numpy()
    np.testing.assert_array_equal(got, _gelu_numpy(LARGE))
    # the graph means np.power for x ** 3: a last-bit difference, magnified where x + a*x**3 cancels
    np.testing.assert_allclose(got, evaluate(cf.graph, [x]).numpy(), rtol=2e-6, atol=5e-7)
    np.testing.assert_array_equal(x.numpy(), LARGE)  # the parameter is only read


def test_each_call_returns_its_own_array():
    f = tf.function(_gelu)
    x = tf.constant(LARGE)
    results = [f(x).numpy() for _ in range(4)]
    for i, a in enumerate(results):
        np.testing.assert_array_equal(a, results[0])
        assert not any(np.shares_memory(a, b) for b in results[i + 1:])


def test_rank_two_with_a_partial_last_tile():
    f = tf.function(lambda x: tf.exp(x * 0.5) - tf.sin(x) * x)
    x = tf.constant(MATRIX)
    cf = f.get_concrete_function(x)
    assert _is_tiled(cf), cf.code
    assert MATRIX.size % tiling.TILE_BYTES != 0
    got = f(x).numpy()
    assert got.shape == MATRIX.shape and got.flags.c_contiguous
    np.testing.assert_array_equal(got, np.exp(MATRIX * np.float32(0.5)) - np.sin(MATRIX) * MATRIX)


def test_a_non_contiguous_input():
    f = tf.function(lambda x: tf.tanh(x * 2.0 + 1.0))
    fortran = np.asfortranarray(MATRIX)
    got = f(tf.constant(fortran)).numpy()
    np.testing.assert_array_equal(got, np.tanh(MATRIX * np.float32(2.0) + np.float32(1.0)))
    np.testing.assert_array_equal(fortran, MATRIX)


def test_float64_and_boolean_values():
    x64 = LARGE.astype(np.float64)

    def f(x):
        inside = tf.logical_and(x > -0.5, x < 0.5)
        return tf.logical_or(inside, tf.math.is_nan(x * 2.0))

    g = tf.function(f)
    cf = g.get_concrete_function(tf.constant(x64))
    assert _is_tiled(cf), cf.code
    got = g(tf.constant(x64)).numpy()
    np.testing.assert_array_equal(got, ((x64 > -0.5) & (x64 < 0.5)) | np.isnan(x64 * 2.0))
    h = tf.function(lambda x: tf.sqrt(x * x + 1.0) / (x + 3.0))
    np.testing.assert_array_equal(h(tf.constant(x64)).numpy(), np.sqrt(x64 * x64 + 1.0) / (x64 + 3.0))


def test_integers_and_small_arrays_are_not_tiled():
    ints = tf.constant(np.arange(1 << 20, dtype=np.int32))
    cf = tf.function(lambda x: (x * 3 + 1) * x).get_concrete_function(ints)
    assert not _is_tiled(cf), cf.code
    small = tf.constant(LARGE[:1000])
    assert not _is_tiled(tf.function(_gelu).get_concrete_function(small))


def test_intermediates_read_after_the_chain_and_returned_ones():
    def f(x):
        a = x * 3.0
        b = tf.tanh(a) + 1.0
        total = tf.reduce_sum(a)  # reads `a` after the chain
        return b * 2.0, a, total

    g = tf.function(f)
    cf = g.get_concrete_function(tf.constant(LARGE))
    assert _is_tiled(cf), cf.code
    b2, a, total = (t.numpy() for t in g(tf.constant(LARGE)))
    a_ref = LARGE * np.float32(3.0)
    np.testing.assert_array_equal(a, a_ref)
    np.testing.assert_array_equal(b2, (np.tanh(a_ref) + np.float32(1.0)) * np.float32(2.0))
    np.testing.assert_allclose(total, a_ref.sum(dtype=np.float64), rtol=1e-5)
    assert not np.shares_memory(a, b2)


def test_a_temporary_dying_in_the_chain_takes_the_result():
    """`e` is this call's own array and dies in the chain: the result is written into it."""
    def f(x):
        e = tf.exp(x)
        k = tf.reduce_max(x)  # breaks the run: `e` is made by its own statement
        return tf.tanh(e * 0.5 + k)

    g = tf.function(f)
    cf = g.get_concrete_function(tf.constant(MATRIX))
    assert "flat_target(Exp)" in cf.code, cf.code
    want = np.tanh(np.exp(MATRIX) * np.float32(0.5) + MATRIX.max())
    np.testing.assert_array_equal(g(tf.constant(MATRIX)).numpy(), want)
    # A transposed input makes `e` Fortran-ordered at run time: no flat view reaches its memory,
    # so the result goes into a new array.
    fortran = tf.constant(np.asfortranarray(MATRIX))
    np.testing.assert_array_equal(g(fortran).numpy(), want)


def test_flat_target_only_for_c_contiguous_arrays():
    a = np.zeros((4, 5), np.float32)
    assert np.shares_memory(tiling.flat_target(a), a)
    assert tiling.flat_target(np.asfortranarray(a)) is None
    assert tiling.flat_target(a[:, ::2]) is None


def test_a_pooled_spare_never_becomes_the_result():
    """`b` takes a spare from the pool (its buffer goes back to it after the chain), so the
    result must not be written into `b` even though `b` dies in the chain."""
    def f(x, y):
        a = tf.exp(x)
        ka = tf.reduce_max(x)
        b = tf.exp(y)
        kb = tf.reduce_max(y)
        c = b * ka
        d = a * kb
        return d + c

    g = tf.function(f)
    x, y = LARGE[:300_000], LARGE[-300_000:]
    cf = g.get_concrete_function(tf.constant(x), tf.constant(y))
    assert _is_tiled(cf) and ".take()" in cf.code, cf.code
    want = np.exp(x) * y.max() + np.exp(y) * x.max()
    kept = [g(tf.constant(x), tf.constant(y)).numpy() for _ in range(3)]
    for a in kept:
        np.testing.assert_array_equal(a, want)
    assert not np.shares_memory(kept[0], kept[1])


def test_gradient_of_a_large_gelu_matches_the_analytic_derivative():
    f = tf.function(_gelu)
    x = tf.constant(LARGE)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(f(x))
    grad = tape.gradient(y, x).numpy()
    x64 = LARGE.astype(np.float64)
    k = np.sqrt(2 / np.pi)
    th = np.tanh(k * (x64 + 0.044715 * x64 ** 3))
    exact = 0.5 * (1 + th) + 0.5 * x64 * (1 - th ** 2) * k * (1 + 3 * 0.044715 * x64 ** 2)
    np.testing.assert_allclose(grad, exact, rtol=1e-5, atol=2e-6)


def test_a_chain_in_a_loop_body():
    def f(x):
        acc = tf.zeros_like(x)
        for _ in tf.range(3):
            acc = acc * 0.5 + tf.tanh(x * 0.25)
        return acc

    got = tf.function(f)(tf.constant(LARGE)).numpy()
    want = np.zeros_like(LARGE)
    for _ in range(3):
        want = want * np.float32(0.5) + np.tanh(LARGE * np.float32(0.25))
    np.testing.assert_array_equal(got, want)


def test_concurrent_calls_use_their_own_scratch(fast_thread_switches):
    f = tf.function(lambda x: tf.tanh(x * 2.0 + 1.0) * 3.0)
    inputs = [LARGE + np.float32(i) for i in range(4)]
    f(tf.constant(inputs[0]))

    def work(i):
        want = np.tanh(inputs[i] * np.float32(2.0) + np.float32(1.0)) * np.float32(3.0)
        return all(np.array_equal(f(tf.constant(inputs[i])).numpy(), want) for _ in range(6))

    assert in_threads(work, len(inputs)) == [True] * len(inputs)
    cf = f.get_concrete_function(tf.constant(inputs[0]))
    pools = [v for v in cf.executable.generated.fn.__globals__.values() if isinstance(v, tiling.TileScratch)]
    assert pools and all(len(p._arrays) <= p.limit for p in pools)


@pytest.mark.parametrize("size", [tiling.MIN_BYTES // 4, tiling.MIN_BYTES // 4 + 17])
def test_tile_slices_cover_every_element_once(size):
    pool = tiling.TileScratch(size, 1000, [np.dtype(np.float32)])
    covered = np.zeros(size, np.int32)
    for s in pool.slices:
        covered[s] += 1
    assert (covered == 1).all()
    views = pool.take()
    assert [v[0].shape[0] for v in views] == [s.stop - s.start for s in pool.slices]


def test_elementwise_kernels_run_in_tiles_and_equal_the_eager_ops():
    """Sigmoid, Erfc, LeakyRelu (with its alpha) ... are kernels of several NumPy passes that say
    they are elementwise (OpDef.elementwise): they join chains, tile by tile, and give what the
    same op gives on the whole array."""
    x = tf.constant(LARGE)
    cases = [
        lambda x: tf.nn.gelu(x),
        lambda x: tf.sigmoid(x * 2.0) * 3.0 + 1.0,
        lambda x: tf.nn.leaky_relu(x * 1.5, alpha=0.3) - tf.nn.softplus(x),
        lambda x: tf.nn.selu(tf.nn.elu(x) + 0.5),
    ]
    for fn in cases:
        f = tf.function(fn)
        cf = f.get_concrete_function(x)
        assert _is_tiled(cf), cf.code
        np.testing.assert_array_equal(f(x).numpy(), fn(x).numpy())  # eager: each op on the whole array


def test_a_lone_kernel_of_several_passes_is_tiled_a_one_pass_one_is_not():
    x = tf.constant(LARGE)
    sigmoid = tf.function(tf.sigmoid)
    assert _is_tiled(sigmoid.get_concrete_function(x))
    np.testing.assert_array_equal(sigmoid(x).numpy(), tf.sigmoid(x).numpy())
    assert not _is_tiled(tf.function(tf.nn.relu).get_concrete_function(x))
    independent = tf.function(lambda x: (x * 2.0, x + 1.0))  # nothing read in the chain: no gain
    assert not _is_tiled(independent.get_concrete_function(x))


def test_huge_declared_shapes_trace_without_listing_tiles():
    """A chain over 10**12 declared elements is planned, not enumerated: tracing (and compiling) it
    takes well under a second per function, as with TensorFlow, where nothing runs until called."""
    import time

    @tf.function
    def constant_shape():
        z = tf.zeros([1000000, 1000000])
        return tf.reduce_sum(tf.sigmoid(z * 2.0 + 1.0) * z - 3.0)

    @tf.function(input_signature=[tf.TensorSpec([100000, 100000])])
    def declared_input(x):
        return tf.sigmoid(x * 2.0 + 1.0) * x - 3.0

    start = time.perf_counter()
    cf = constant_shape.get_concrete_function()
    declared_input.get_concrete_function()
    assert time.perf_counter() - start < 20
    pools = [v for v in cf.executable.generated.fn.__globals__.values() if isinstance(v, tiling.TileScratch)]
    assert pools and len(pools[0].slices) == -(-10 ** 12 // pools[0].slices.tile)


def test_tile_views_follow_the_slices_for_a_short_last_tile():
    pool = tiling.TileScratch(2500, 1000, [np.dtype(np.float32), np.dtype(np.float64)])
    views = list(pool.take())
    assert [(a.shape[0], b.shape[0], b.dtype) for a, b in views] == [(1000, 1000, np.float64)] * 2 + [(500, 500, np.float64)]
    assert [(s.start, s.stop) for s in pool.slices] == [(0, 1000), (1000, 2000), (2000, 2500)]
