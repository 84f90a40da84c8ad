"""tf.summary: what lands in the event file, read back with tests/summary/wire.py. Expected values
are TensorFlow 2.21's (tf.summary with tensorboard 2.21, read back with summary_iterator)."""
import gc
import os
import re
import threading
import weakref
import zlib

import numpy as np
import pytest

import eagerflow as tf
from eagerflow.summary import messages

from .wire import events, fields, summaries, tensor


@pytest.fixture
def writer(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path))
    yield w
    w.close()


def _png_pixels(png: bytes, height, width, channels):
    """The pixels of an 8-bit, unfiltered PNG (what our encoder writes), read with zlib."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    idat = png.index(b"IDAT")
    length = int.from_bytes(png[idat - 4:idat], "big")
    raw = np.frombuffer(zlib.decompress(png[idat + 4:idat + 4 + length]), np.uint8)
    rows = raw.reshape(height, 1 + width * channels)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, channels)


def test_file_name_and_header_record(writer, tmp_path):
    name = os.path.basename(writer.path)
    assert re.fullmatch(r"events\.out\.tfevents\.\d+\.[^.]+(\.[^.]+)*\.\d+\.\d+\.v2", name), name
    (wall, step, kind, version), = events(str(tmp_path))
    assert (kind, version, step) == ("version", "brain.Event:2", 0) and wall > 1.6e9


def test_scalars(writer, tmp_path):
    with writer.as_default():
        assert tf.summary.scalar("loss", 0.5, step=3).numpy() is np.True_
        tf.summary.scalar("iloss", 2, step=4)
        tf.summary.scalar("t", tf.constant(1.25, tf.float64), step=tf.constant(5, tf.int64))
    got = summaries(str(tmp_path))
    assert [(s, tag, a.dtype, a.shape, float(a), plugin) for s, tag, a, plugin in got] == [
        (3, "loss", np.float32, (), 0.5, "scalars"), (4, "iloss", np.float32, (), 2.0, "scalars"),
        (5, "t", np.float32, (), 1.25, "scalars")]


def test_histograms_bucket_as_tensorboard_does(writer, tmp_path):
    with writer.as_default():
        tf.summary.histogram("w", [1.0, 2.0, 3.0, 4.0], step=1)
        tf.summary.histogram("w_const", [2.0, 2.0], step=1)
        tf.summary.histogram("w_empty", tf.zeros([0]), step=1)
        tf.summary.histogram("w_b", [0.0, 1.0, 10.0], step=1, buckets=3)
    got = {tag: a for _, tag, a, plugin in summaries(str(tmp_path)) if plugin == "histograms"}
    w = got["w"]
    assert w.shape == (30, 3) and w.dtype == np.float64
    counts = np.zeros(30)
    counts[[0, 10, 20, 29]] = 1
    np.testing.assert_array_equal(w[:, 2], counts)
    np.testing.assert_allclose(w[:, 0], np.linspace(1.0, 4.0, 31)[:-1], rtol=1e-15)
    assert (w[0, 0], w[0, 1], w[-1, 1]) == (1.0, 1.1, 4.0)
    expected_const = np.tile([2.0, 2.0, 0.0], (30, 1))
    expected_const[-1, 2] = 2.0
    np.testing.assert_array_equal(got["w_const"], expected_const)
    np.testing.assert_array_equal(got["w_empty"], np.zeros((30, 3)))
    np.testing.assert_array_equal(got["w_b"], [[0.0, 3.3333333333333335, 2.0], [3.3333333333333335, 6.666666666666667, 0.0],
                                               [6.666666666666667, 10.0, 1.0]])


def test_text(writer, tmp_path):
    with writer.as_default():
        tf.summary.text("note", "hello <b>", step=1)
        tf.summary.text("multi", [["a", "b"], ["c", "d"]], step=2)
    (_, _, note, plugin), (step, _, multi, _) = summaries(str(tmp_path))
    assert plugin == "text" and note.shape == () and note[()] == b"hello <b>"
    assert step == 2 and multi.tolist() == [[b"a", b"b"], [b"c", b"d"]]


def test_images_are_pngs_after_width_and_height(writer, tmp_path):
    with writer.as_default():
        tf.summary.image("img", np.zeros((5, 4, 5, 3), np.float32), step=1, max_outputs=2)
        tf.summary.image("gray", np.array([[[[0.0], [0.5], [1.0], [0.999], [0.002]]]], np.float32), step=1)
        tf.summary.image("u8", np.array([[[[7, 8, 9, 10]]]], np.uint8), step=1)
    got = {tag: (a, plugin) for _, tag, a, plugin in summaries(str(tmp_path))}
    img, plugin = got["img"]
    assert plugin == "images" and img.shape == (4,) and img[:2].tolist() == [b"5", b"4"]
    assert (_png_pixels(img[2], 4, 5, 3) == 0).all()
    gray = got["gray"][0]
    assert gray[:2].tolist() == [b"5", b"1"]
    assert _png_pixels(gray[2], 1, 5, 1).reshape(-1).tolist() == [0, 127, 255, 255, 0]  # TF's conversion
    assert _png_pixels(got["u8"][0][2], 1, 1, 4).reshape(-1).tolist() == [7, 8, 9, 10]


def test_nothing_is_recorded_without_a_writer_or_under_record_if_false(writer, tmp_path):
    assert tf.summary.scalar("a", 1.0, step=0).numpy() is np.False_
    assert not tf.summary.should_record_summaries().numpy()
    with writer.as_default():
        assert tf.summary.should_record_summaries().numpy()
        with tf.summary.record_if(False):
            assert tf.summary.scalar("skipped", 1.0, step=1).numpy() is np.False_
            assert not tf.summary.should_record_summaries().numpy()
        tf.summary.scalar("kept", 1.0, step=1)
    assert [tag for _, tag, _, _ in summaries(str(tmp_path))] == ["kept"]


def test_default_step(writer, tmp_path):
    with writer.as_default():
        with pytest.raises(ValueError, match=re.escape(
                "No step set. Please specify one either through the `step` argument or through "
                "tf.summary.experimental.set_step()")):
            tf.summary.scalar("a", 1.0)
        tf.summary.experimental.set_step(7)
        try:
            assert tf.summary.experimental.get_step() == 7
            tf.summary.scalar("stepped", 1.5)
        finally:
            tf.summary.experimental.set_step(None)
    with writer.as_default(step=9):
        tf.summary.scalar("from_as_default", 1.0)
    assert tf.summary.experimental.get_step() is None
    assert [(s, tag) for s, tag, _, _ in summaries(str(tmp_path))] == [(7, "stepped"), (9, "from_as_default")]


BAD_CALLS = [
    (lambda: tf.summary.scalar("bad", [1.0, 2.0], step=1), ValueError, "Expected scalar shape, saw shape: (2,)."),
    (lambda: tf.summary.image("bad", np.zeros((4, 5, 3), np.float32), step=1), ValueError,
     "Tensor  must have rank 4.  Received rank 3, shape (4, 5, 3)"),
    (lambda: tf.summary.image("bad", np.zeros((1, 2, 2, 5), np.float32), step=1), tf.errors.InvalidArgumentError,
     "image must have 1, 2, 3, or 4 channels, got 5"),
    (lambda: tf.summary.histogram("bad", ["a"], step=1), tf.errors.UnimplementedError,
     "Cast string to double is not supported"),
    (lambda: tf.summary.scalar("bad", "x", step=1), tf.errors.UnimplementedError,
     "Cast string to float is not supported"),
    (lambda: tf.summary.scalar("bad", 1.0, step=1.5), TypeError,
     ("Cannot convert 1.5 to EagerTensor of dtype int64", "Expected int64, but got 1.5 of type 'float'.")),
]


@pytest.mark.parametrize("call, cls, message", BAD_CALLS)
@pytest.mark.parametrize("traced", [False, True])
def test_bad_data_raises_tensorflows_error_eagerly_and_traced(writer, tmp_path, call, cls, message, traced):
    if isinstance(message, tuple):  # TF 2.21's words differ: eagerly, and while tracing
        message = message[traced]
    with writer.as_default():
        with pytest.raises(cls, match=re.escape(message)):
            tf.function(call)() if traced else call()
    assert summaries(str(tmp_path)) == []


def test_inside_tf_function_summaries_record_each_runs_values(writer, tmp_path):
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def f(x):
        tf.summary.scalar("in_fn", tf.reduce_sum(x), step=5)
        tf.summary.scalar("v", x[0], step=step)
        tf.summary.histogram("h", x, step=step, buckets=2)
        return x * 2

    with writer.as_default():
        for i in range(3):
            step.assign(i * 10)
            f(tf.constant([float(i), 1.0]))
    assert f.experimental_get_tracing_count() == 1
    got = summaries(str(tmp_path))
    assert [(s, float(a)) for s, tag, a, _ in got if tag == "in_fn"] == [(5, 1.0), (5, 2.0), (5, 3.0)]
    assert [(s, float(a)) for s, tag, a, _ in got if tag == "v"] == [(0, 0.0), (10, 1.0), (20, 2.0)]
    assert [a.tolist() for s, tag, a, _ in got if tag == "h"][0] == [[0.0, 0.5, 1.0], [0.5, 1.0, 1.0]]
    code = f.get_concrete_function(tf.TensorSpec([2])).code
    assert code.count("k_WriteSummary(") == 3


def test_record_if_callable_is_checked_when_the_function_runs(writer, tmp_path):
    on = tf.Variable(True)

    @tf.function
    def f(x):
        tf.summary.scalar("x", x, step=1)
        return x

    with writer.as_default(), tf.summary.record_if(lambda: on):
        f(tf.constant(1.0))
        on.assign(False)
        f(tf.constant(2.0))
        on.assign(True)
        f(tf.constant(3.0))
    assert [float(a) for _, _, a, _ in summaries(str(tmp_path))] == [1.0, 3.0]


def test_a_function_traced_without_a_writer_records_nothing(writer, tmp_path):
    @tf.function
    def f(x):
        return tf.summary.scalar("x", x, step=1)

    assert f(tf.constant(1.0)).numpy() is np.False_
    with writer.as_default():
        assert f(tf.constant(2.0)).numpy() is np.False_  # the trace had no writer, as in TensorFlow
    assert summaries(str(tmp_path)) == []


def test_queue_flush_and_close(tmp_path):
    w = tf.summary.create_file_writer(str(tmp_path), max_queue=3)
    with w.as_default():
        pass
    w.set_as_default()
    try:
        tf.summary.scalar("a", 1.0, step=1)
        tf.summary.scalar("b", 1.0, step=2)
        assert summaries(str(tmp_path)) == []  # queued
        tf.summary.scalar("c", 1.0, step=3)
        assert len(summaries(str(tmp_path))) == 3  # the third filled the queue
        tf.summary.scalar("d", 1.0, step=4)
        tf.summary.flush()
        assert len(summaries(str(tmp_path))) == 4
        w.close()
        assert tf.summary.scalar("e", 1.0, step=5).numpy() is np.False_
    finally:
        tf.summary.create_noop_writer().set_as_default()
    assert len(summaries(str(tmp_path))) == 4


def test_as_default_restores_the_previous_writer_and_flushes(tmp_path):
    a = tf.summary.create_file_writer(str(tmp_path / "a"))
    b = tf.summary.create_file_writer(str(tmp_path / "b"))
    with a.as_default():
        with b.as_default():
            tf.summary.scalar("to_b", 1.0, step=1)
        tf.summary.scalar("to_a", 1.0, step=1)
        assert [t for _, t, _, _ in summaries(str(tmp_path / "b"))] == ["to_b"]
    assert [t for _, t, _, _ in summaries(str(tmp_path / "a"))] == ["to_a"]
    assert tf.summary.scalar("nowhere", 1.0, step=1).numpy() is np.False_


def test_the_default_writer_belongs_to_the_thread(writer, tmp_path):
    seen = []
    with writer.as_default():
        thread = threading.Thread(target=lambda: seen.append(bool(tf.summary.scalar("t", 1.0, step=1).numpy())))
        thread.start()
        thread.join()
    assert seen == [False] and summaries(str(tmp_path)) == []


def test_many_writers_from_threads_each_write_their_own_file(tmp_path):
    def work(i):
        w = tf.summary.create_file_writer(str(tmp_path / str(i)))
        with w.as_default():
            for s in range(20):
                tf.summary.scalar("s", float(i), step=s)
        w.close()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(8):
        got = summaries(str(tmp_path / str(i)))
        assert [s for s, _, _, _ in got] == list(range(20)) and {float(a) for _, _, a, _ in got} == {float(i)}


def test_dropped_writers_flush_and_are_collected(tmp_path):
    refs = []
    for i in range(300):
        w = tf.summary.create_file_writer(str(tmp_path / "w"), filename_suffix=f".{i}")
        with w.as_default():
            pass
        w.write_event(i, summary_values=[messages.summary_value("s", np.float32(i), "scalars")])  # queued
        refs.append(weakref.ref(w))
        del w
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    steps = [step for step, _, _, _ in summaries(str(tmp_path / "w"))]
    assert sorted(steps) == list(range(300))  # each file's queued event was written when it died


def test_trace_export_requires_trace_on():
    with pytest.raises(ValueError, match=re.escape("Must enable trace before export through tf.summary.trace_on.")):
        tf.summary.trace_export("x", step=0)


def test_trace_export_writes_the_traced_graph(writer, tmp_path):
    tf.summary.trace_on(graph=True)

    @tf.function
    def g(x):
        if tf.reduce_sum(x) > 0:
            x = tf.nn.relu(x)
        return x + 1.0

    g(tf.constant([1.0, -2.0]))
    with writer.as_default():
        tf.summary.trace_export("g_trace", step=4)
    with pytest.raises(ValueError, match="Must enable trace"):
        tf.summary.trace_export("again", step=0)  # export stops tracing
    (_, step, _, graph_def), = [e for e in events(str(tmp_path)) if e[2] == "graph"]
    assert step == 4
    nodes = {}
    for raw in fields(graph_def)[1]:
        node = fields(raw)
        attrs = {fields(entry)[1][0].decode(): fields(fields(entry)[2][0]) for entry in node.get(5, [])}
        nodes[node[1][0].decode()] = (node[2][0].decode(), [i.decode() for i in node.get(3, [])], attrs)
    ops = {op.name for op in g.get_concrete_function(tf.TensorSpec([2])).graph.get_operations()}
    assert ops <= set(nodes)
    assert nodes["add"][:2] == ("AddV2", ["StatelessIf", "add/y"])
    assert nodes["StatelessIf/then_branch/Relu"][:2] == ("Relu", ["x"])  # the branch reads the outer x
    shapes = fields(nodes["add"][2]["_output_shapes"][1][0])[7]
    assert [fields(d)[1][0] for d in fields(shapes[0])[2]] == [2]
    assert nodes["add"][2]["T"][6] == [1]  # DT_FLOAT


def test_summary_graph_writes_a_concrete_functions_graph(writer, tmp_path):
    cf = tf.function(lambda x: x * 2.0).get_concrete_function(tf.TensorSpec([None]))
    with writer.as_default():
        assert tf.summary.graph(cf)
    (_, _, _, graph_def), = [e for e in events(str(tmp_path)) if e[2] == "graph"]
    names = {fields(raw)[1][0].decode() for raw in fields(graph_def)[1]}
    assert names == {op.name for op in cf.graph.get_operations()}


def test_wire_reader_reads_a_tensor_written_by_hand():
    # DT_INT32, shape [2], tensor_content 1, 2: bytes spelled out from the proto definitions
    data = bytes([0x08, 0x03, 0x12, 0x04, 0x12, 0x02, 0x08, 0x02, 0x22, 0x08]) + np.array([1, 2], "<i4").tobytes()
    assert tensor(data).tolist() == [1, 2]
