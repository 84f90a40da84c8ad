"""ops/nn/block_threads.py: a kernel's blocks run once each, on the calling thread and helper threads,
errors come back to the caller, `tf.config.threading`'s intra-op count of 1 keeps everything on the
calling thread, and the blocked kernels (convolution, its gradients, max pooling) give the same bits
whatever the number of threads (the filter gradient sums its blocks in block order). Each call site
runs its blocks the way it measured faster (a test clock decides here), trying the other now and then."""
import itertools
import threading
import time
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.nn import block_threads as BT


@pytest.fixture
def intra_op():
    before = tf.config.threading.get_intra_op_parallelism_threads()
    yield tf.config.threading.set_intra_op_parallelism_threads
    tf.config.threading.set_intra_op_parallelism_threads(before)


@pytest.fixture
def always_share(monkeypatch):
    """Every call site shares its blocks with the helpers (as if it had measured that faster)."""
    monkeypatch.setattr(BT.CallSite, "share_next", lambda self: True)


@pytest.mark.parametrize("threads", [0, 1, 2, 4])
def test_every_block_runs_exactly_once(threads, intra_op, always_share):
    intra_op(threads)
    seen = np.zeros(37, int)
    lock = threading.Lock()

    def block(i):
        with lock:
            seen[i] += 1
    BT.run_blocks(block, len(seen))
    assert (seen == 1).all()
    BT.run_blocks(block, 0)  # nothing to do
    assert (seen == 1).all()


def test_one_intra_op_thread_runs_every_block_on_the_calling_thread(intra_op):
    intra_op(1)
    assert BT.thread_count() == 1
    where = set()
    BT.run_blocks(lambda i: where.add(threading.get_ident()), 16)
    assert where == {threading.get_ident()}


def test_the_thread_count_follows_the_intra_op_setting_then_the_environment(intra_op, monkeypatch):
    for name in BT.ENVIRONMENT_LIMITS:
        monkeypatch.delenv(name, raising=False)
    intra_op(3)
    assert BT.thread_count() == 3
    intra_op(0)
    assert 1 <= BT.thread_count() <= BT.MAX_THREADS
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # a process pinned to one BLAS thread
    assert BT.thread_count() == 1
    monkeypatch.setenv("TF_NUM_INTRAOP_THREADS", "bad")  # not a count: the next variable decides
    assert BT.thread_count() == 1
    intra_op(2)  # tf.config.threading wins over the environment
    assert BT.thread_count() == 2


@pytest.mark.parametrize("threads", [1, 4])
def test_a_block_error_reaches_the_caller_once_no_block_runs(threads, intra_op, always_share):
    intra_op(threads)
    done = []

    def block(i):
        if i == 5:
            raise ValueError("block 5 failed")
        time.sleep(0.001)
        done.append(i)
    with pytest.raises(ValueError, match="block 5 failed"):
        BT.run_blocks(block, 12)
    finished = list(done)
    time.sleep(0.05)
    assert done == finished  # nothing still running writes after the caller got the error


def _conv_and_gradients(x, f):
    xt, ft = tf.constant(x), tf.constant(f)
    with tf.GradientTape() as tape:
        tape.watch([xt, ft])
        y = tf.nn.conv2d(xt, ft, 1, "SAME")
        pooled = tf.nn.max_pool2d(y, 2, 2, "VALID")
        loss = tf.reduce_sum(pooled * pooled)
    dx, df = tape.gradient(loss, [xt, ft])
    return [v.numpy() for v in (y, pooled, dx, df)]


@pytest.mark.parametrize("channels", [1, 3, 16])  # shallow inputs are copied offset by offset
def test_blocked_kernels_give_the_same_bits_on_one_thread_and_on_several(channels, monkeypatch, always_share):
    """Only the blocks' threads change between the two runs; the BLAS keeps its own settings, since
    its bits may depend on its own thread count (OpenBLAS 0.3.23, NumPy 1.26's, on a CPU it does not
    know falls back to generic kernels whose threaded products round differently)."""
    rng = np.random.default_rng(channels)
    x = rng.standard_normal((48, 20, 20, channels)).astype(np.float32)
    f = rng.standard_normal((3, 3, channels, 24)).astype(np.float32)
    monkeypatch.setattr(BT, "thread_count", lambda: 1)
    single = _conv_and_gradients(x, f)
    monkeypatch.setattr(BT, "thread_count", lambda: 4)
    several = _conv_and_gradients(x, f)
    for a, b in zip(single, several):
        np.testing.assert_array_equal(a, b)


def test_max_pool_over_many_blocks_matches_a_reshape_reference(intra_op, always_share):
    """2x2 windows of stride 2 tile the input: the reference is a reshape and a max over the two
    window axes; NaN cells are skipped, and a window of only NaN and -inf gives the lowest float32."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((40, 26, 26, 16)).astype(np.float32)  # 1.7 MB: several blocks of images
    x[3, 4, 6, 2] = np.nan
    x[7, 10:12, 10:12, 5] = [[np.nan, -np.inf], [np.nan, np.nan]]
    x[9, 0:2, 0:2, 0] = -np.inf
    windows = x.reshape(40, 13, 2, 13, 2, 16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nanmax of an all-NaN window, if any
        expected = np.nanmax(windows, axis=(2, 4))
    expected = np.where(np.isnan(expected), -np.inf, expected)
    expected = np.maximum(expected, np.finfo(np.float32).min)
    for threads in (1, 4):
        intra_op(threads)
        np.testing.assert_array_equal(tf.nn.max_pool2d(x, 2, 2, "VALID").numpy(), expected)
    assert tf.nn.max_pool2d(x, 2, 2, "VALID").numpy()[7, 5, 5, 5] == np.finfo(np.float32).min


def _loop_max_pool_grad(x, g, k, s):
    """TensorFlow's CPU rule, VALID windows: scanning each window row by row, a cell takes the
    gradient only when strictly greater than the best so far (the first maximum wins ties, NaN never
    wins, a NaN first cell keeps it); overlapping windows add up."""
    dx = np.zeros_like(g, shape=x.shape)
    for b, i, j, c in itertools.product(*(range(d) for d in g.shape)):
        best, at = x[b, i * s, j * s, c], (i * s, j * s)
        for di, dj in itertools.product(range(k), range(k)):
            if x[b, i * s + di, j * s + dj, c] > best:
                best, at = x[b, i * s + di, j * s + dj, c], (i * s + di, j * s + dj)
        dx[b, at[0], at[1], c] += g[b, i, j, c]
    return dx


@pytest.mark.parametrize("k,s", [(2, 2), (3, 2), (3, 1)])
def test_max_pool_gradient_of_unpadded_windows_matches_a_loop_reference(k, s):
    rng = np.random.default_rng(k * 10 + s)
    x = rng.integers(-3, 3, (2, 9, 9, 3)).astype(np.float32)  # small integers: many ties
    x[0, 0, 0, 0], x[0, 4, 4, 1], x[1, 2, 3, 2] = np.nan, np.nan, -np.inf
    x[1, 5:8, 5:8, 0] = -np.inf
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, k, s, "VALID")
    g = rng.standard_normal(y.shape).astype(np.float32)
    g[1, 0, 0, 1] = np.inf  # reaches only its window's maximum: the other cells get 0, not 0 * inf
    got = tape.gradient(y, xt, output_gradients=tf.constant(g)).numpy()
    np.testing.assert_allclose(got, _loop_max_pool_grad(x, g, k, s), rtol=1e-6, atol=1e-6)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_a_forked_child_starts_its_own_helpers(intra_op):
    import os
    intra_op(2)
    BT.run_blocks(lambda i: None, 4)  # the parent's helpers exist now
    pid = os.fork()
    if pid == 0:  # the child: its blocks must all run (on new helpers or itself) and the call return
        seen = []
        BT.run_blocks(seen.append, 6)
        os._exit(0 if sorted(seen) == list(range(6)) else 1)
    deadline = time.monotonic() + 60
    while True:  # never hang the suite: a child still running after a minute is killed and fails the test
        done, status = os.waitpid(pid, os.WNOHANG)
        if done or time.monotonic() > deadline:
            break
        time.sleep(0.01)
    if not done:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert done and os.waitstatus_to_exitcode(status) == 0


class _Clock:
    """A test clock: a call on the calling thread alone takes `alone` seconds, a shared one `shared`."""

    def __init__(self, monkeypatch, alone, shared):
        self.now, self.alone, self.shared, self.ways, self.sharing = 0.0, alone, shared, [], False
        monkeypatch.setattr(BT, "_clock", lambda: self.now)
        real = BT._run_shared

        def shared_run(fn, count, threads):
            self.ways.append("shared")
            self.now += self.shared
            self.sharing = True
            try:
                real(fn, count, threads)
            finally:
                self.sharing = False
        monkeypatch.setattr(BT, "_run_shared", shared_run)

    def block(self, i):
        if not self.sharing:  # the calling thread runs the four blocks itself
            self.now += self.alone / 4

    def run(self, calls, key):
        for _ in range(calls):
            before = len(self.ways)
            BT.run_blocks(self.block, 4, key)
            if len(self.ways) == before:
                self.ways.append("alone")


@pytest.mark.parametrize("alone, shared, usual", [(1.0, 3.0, "alone"), (3.0, 1.0, "shared")])
def test_a_call_site_runs_the_way_it_measured_faster_and_retries_the_other(alone, shared, usual, intra_op,
                                                                            monkeypatch):
    intra_op(2)
    clock = _Clock(monkeypatch, alone, shared)
    clock.run(3 * BT.EXPLORE_EVERY, key=("site", usual))
    assert clock.ways[:2] == ["alone", "shared"]  # each way once, then the faster
    rest = clock.ways[2:]
    other = "shared" if usual == "alone" else "alone"
    assert rest.count(other) == 3 and rest.count(usual) == len(rest) - 3  # the other way once per EXPLORE_EVERY


def test_a_change_of_load_turns_a_call_site_around(intra_op, monkeypatch):
    intra_op(2)
    clock = _Clock(monkeypatch, alone=1.0, shared=2.0)
    clock.run(2 * BT.EXPLORE_EVERY + 5, key="turning")  # the last five calls fall between two tries
    assert clock.ways[-5:] == ["alone"] * 5
    clock.alone = 10.0  # the machine got busy: the calling thread alone is now slow
    clock.run(3 * BT.EXPLORE_EVERY, key="turning")
    assert clock.ways[-5:] == ["shared"] * 5


def test_call_sites_are_told_apart_and_their_record_is_bounded(intra_op, monkeypatch):
    intra_op(2)
    monkeypatch.setattr(BT, "_sites", {})
    monkeypatch.setattr(BT, "MAX_SITES", 8)
    clock = _Clock(monkeypatch, alone=1.0, shared=2.0)
    for key in range(20):
        clock.run(1, key=key)
        assert len(BT._sites) <= 8
    assert clock.ways == ["alone"] * 20  # every new site starts on the calling thread
    BT.run_blocks(lambda i: None, 1, key="one block")  # a single block never needs a site
    assert all(name[2] != "one block" for name in BT._sites)
