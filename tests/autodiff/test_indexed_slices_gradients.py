"""A gather's gradient is a tf.IndexedSlices, as in TensorFlow 2.21: its rows, how rows meet other
gradients (concatenated, or summed dense), which ops hand it on, its dense form and warning, and what
optimizers and clipping make of it. Every expected value below was printed by TensorFlow 2.21 /
Keras 3.15 running the same code."""
import warnings

import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

X = [[1., 2.], [3., 4.], [5., 6.]]


def _rows(g):
    assert isinstance(g, tf.IndexedSlices), type(g)
    return (g.values.numpy().tolist(), g.indices.numpy().tolist(), g.dense_shape.numpy().tolist(),
            g.indices.dtype.name)


def _gradients(build, of_variable=False):
    x = tf.constant(X)
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = build(v if of_variable else x)
    return tape.gradient(y, v if of_variable else x)


ONES2 = [[1.0, 1.0], [1.0, 1.0]]


@pytest.mark.parametrize("build, of_variable, expected", [
    (lambda x: tf.reduce_sum(tf.gather(x, [0, 2])), False, (ONES2, [0, 2], [3, 2], "int32")),
    (lambda v: tf.reduce_sum(tf.gather(v, [0, 2])), True, (ONES2, [0, 2], [3, 2], "int32")),
    (lambda x: tf.reduce_sum(tf.gather(x, [[0, 2], [1, 1]])), False,
     (ONES2 + ONES2, [0, 2, 1, 1], [3, 2], "int32")),
    (lambda x: tf.reduce_sum(tf.gather(tf.identity(x), [1])), False, ([[1.0, 1.0]], [1], [3, 2], "int32")),
    (lambda x: tf.reduce_sum(tf.gather(tf.cast(x, tf.float64), [1])), False, ([[1.0, 1.0]], [1], [3, 2], "int32")),
    (lambda v: tf.reduce_sum(tf.gather(v, tf.constant([0], tf.int64))), True, ([[1.0, 1.0]], [0], [3, 2], "int64")),
    (lambda v: tf.reduce_sum(tf.nn.embedding_lookup(v, [1, 1])), True, (ONES2, [1, 1], [3, 2], "int32")),
    # two IndexedSlices reaching one tensor: their rows concatenated in the order the gathers ran
    (lambda x: tf.reduce_sum(tf.gather(x, [0])) + tf.reduce_sum(tf.gather(x, [2, 2])), False,
     ([[1.0, 1.0]] * 3, [0, 2, 2], [3, 2], "int32")),
], ids=["tensor", "variable", "2-d indices", "through Identity", "through Cast", "int64 indices",
        "embedding_lookup", "two gathers"])
def test_gather_gradient_is_indexed_slices(build, of_variable, expected):
    assert _rows(_gradients(build, of_variable)) == expected


@pytest.mark.parametrize("build, of_variable, expected", [
    (lambda x: tf.reduce_sum(tf.gather(x, [1], axis=1)), False, [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]]),
    (lambda x: tf.reduce_sum(tf.gather(x * 2., [0, 2])), False, [[2.0, 2.0], [0.0, 0.0], [2.0, 2.0]]),
    (lambda x: tf.reduce_sum(tf.gather(x, [0, 2])) + tf.reduce_sum(x), False, [[2.0, 2.0], [1.0, 1.0], [2.0, 2.0]]),
    (lambda v: tf.reduce_sum(tf.gather(v, [0, 2])) + tf.reduce_sum(v * 1.), True,
     [[2.0, 2.0], [1.0, 1.0], [2.0, 2.0]]),
], ids=["axis 1", "through Mul", "plus a dense gradient", "variable plus dense"])
def test_dense_where_tensorflow_is_dense(build, of_variable, expected):
    g = _gradients(build, of_variable)
    assert not isinstance(g, tf.IndexedSlices)
    assert g.numpy().tolist() == expected


def test_several_targets_concatenate_rows():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = tf.reduce_sum(tf.gather(x, [0, 2]))
        e = tf.reduce_sum(tf.gather(x, [0])) + tf.reduce_sum(tf.gather(x, [2, 2]))
    assert _rows(tape.gradient([a, e], x)) == ([[1.0, 1.0]] * 5, [0, 2, 0, 2, 2], [3, 2], "int32")


def test_embedding_layer_gradient():
    emb = keras.layers.Embedding(4, 2)
    emb.build((None,))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(emb(tf.constant([[0, 3], [3, 1]])))
    g = tape.gradient(y, emb.trainable_variables[0])
    assert _rows(g) == ([[1.0, 1.0]] * 4, [0, 3, 3, 1], [4, 2], "int32")


def test_inside_tf_function_tape_and_tf_gradients():
    v = tf.Variable(X)
    x = tf.constant(X)
    seen = []

    @tf.function
    def with_tape():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [0, 2]))
        g = tape.gradient(y, v)
        seen.append((type(g).__name__, g.shape.as_list(), g.values.shape.as_list()))
        return g

    @tf.function
    def with_gradients():
        g = tf.gradients(tf.reduce_sum(tf.gather(x, [0, 2])), x)[0]
        seen.append((type(g).__name__, g.shape.as_list()))
        return g

    assert _rows(with_tape()) == (ONES2, [0, 2], [3, 2], "int32")
    assert _rows(with_gradients()) == (ONES2, [0, 2], [3, 2], "int32")
    assert seen == [("IndexedSlices", [3, 2], [None, 2]), ("IndexedSlices", [3, 2])]


def test_gradients_inside_a_loop_body_stay_dense():
    """Loop and branch gradients are tensors (the body's IndexedSlices summed into rows)."""
    v = tf.Variable(X)

    @tf.function
    def f():
        with tf.GradientTape() as tape:
            total = tf.while_loop(lambda i, s: i < 2, lambda i, s: (i + 1, s + tf.reduce_sum(tf.gather(v, [i]))),
                                  (0, 0.0))[1]
        return tape.gradient(total, v)

    np.testing.assert_array_equal(tf.convert_to_tensor(f()).numpy(), [[1, 1], [1, 1], [0, 0]])


SLICES = lambda: tf.IndexedSlices(tf.constant([[3., 4.], [3., 4.]]), tf.constant([1, 1]), tf.constant([3, 2]))  # noqa: E731


def test_dense_form_and_conversion_errors():
    s = SLICES()
    assert tf.convert_to_tensor(s).numpy().tolist() == [[0.0, 0.0], [6.0, 8.0], [0.0, 0.0]]
    assert tf.add_n([s, s]).numpy().tolist() == [[0.0, 0.0], [12.0, 16.0], [0.0, 0.0]]
    assert tf.add_n([s, tf.ones([3, 2])]).numpy().tolist() == [[1.0, 1.0], [7.0, 9.0], [1.0, 1.0]]
    assert isinstance(-s, tf.IndexedSlices) and (-s).values.numpy().tolist() == [[-3., -4.], [-3., -4.]]
    with pytest.raises(ValueError, match=r"(?s)Incompatible tensor conversion requested to `dtype` int32 for "
                                         r"IndexedSlices \(IndexedSlices\(indices=tf.Tensor\(\[1 1\].*with dtype float32"):
        tf.convert_to_tensor(s, tf.int32)
    with pytest.raises(ValueError, match=r"Tensor conversion requested for IndexedSlices for argument `value` "
                                         r"without dense_shape: IndexedSlices\(indices=tf.Tensor\(\[0\]"):
        tf.convert_to_tensor(tf.IndexedSlices(tf.constant([[1.]]), tf.constant([0])))


def _dense_gradient_trace(rows, cols):
    @tf.function(input_signature=[tf.TensorSpec([rows, cols]), tf.TensorSpec([None], tf.int32)])
    def f(p, ix):
        return tf.convert_to_tensor(tf.gradients(tf.reduce_sum(tf.gather(p, ix)), p)[0])

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        f.get_concrete_function()
    return [(w.category.__name__, str(w.message)) for w in caught]


def test_large_dense_conversion_warns_while_tracing():
    assert _dense_gradient_trace(10000, 10000) == [
        ("UserWarning", "Converting sparse IndexedSlices to a dense Tensor with 100000000 elements. This may "
                        "consume a large amount of memory.")]
    assert _dense_gradient_trace(10000, 9999) == []
    assert _dense_gradient_trace(None, 10000) == []


def test_norms_and_clipping_measure_rows():
    s = SLICES()
    np.testing.assert_allclose(tf.linalg.global_norm([s, tf.constant([1.])]).numpy(), 7.1414285, rtol=1e-6)
    (c, _), norm = tf.clip_by_global_norm([s, tf.constant([1.])], 1.0)
    assert isinstance(c, tf.IndexedSlices) and c.indices.numpy().tolist() == [1, 1]
    np.testing.assert_allclose(c.values.numpy(), [[0.42008406, 0.56011206]] * 2, rtol=1e-6)
    np.testing.assert_allclose(norm.numpy(), 7.1414285, rtol=1e-6)
    clipped = tf.clip_by_norm(s, 1.0)
    assert isinstance(clipped, tf.IndexedSlices)
    np.testing.assert_allclose(clipped.values.numpy(), [[0.42426407, 0.56568545]] * 2, rtol=1e-6)


@pytest.mark.parametrize("make, expected", [
    (lambda: keras.optimizers.SGD(0.1), [[1.0, 1.0], [0.2, -0.2], [0.0, -0.2]]),
    (lambda: keras.optimizers.SGD(0.1, momentum=0.9), [[1.0, 1.0], [-0.16, -0.74], [-0.45, -0.74]]),
    (lambda: keras.optimizers.Adam(0.1), [[1.0, 1.0], [0.74702, 0.731674], [0.800002, 0.800002]]),
    (lambda: keras.optimizers.SGD(0.1, clipnorm=1.0), [[1.0, 1.0], [0.916137, 0.874206], [0.895172, 0.874206]]),
    (lambda: keras.optimizers.Adam(0.1, global_clipnorm=1.0), [[1.0, 1.0], [0.800003, 0.800002], [0.800003, 0.800002]]),
    (lambda: keras.optimizers.SGD(0.1, global_clipnorm=1.0), [[1.0, 1.0], [0.916137, 0.874206], [0.895172, 0.874206]]),
    (lambda: keras.optimizers.SGD(0.1, clipvalue=3.5), [[1.0, 1.0], [0.2, -0.1], [0.3, 0.3]]),
    (lambda: keras.optimizers.Adam(0.1, clipvalue=3.5), [[1.0, 1.0], [0.74702, 0.727126], [0.800002, 0.800002]]),
    (lambda: keras.optimizers.Adam(0.1, clipnorm=1.0), [[1.0, 1.0], [0.747022, 0.731676], [0.800003, 0.800002]]),
    (lambda: keras.optimizers.AdamW(0.1), [[0.9992, 0.9992], [0.746271, 0.730928], [0.799242, 0.799242]]),
    (lambda: keras.optimizers.RMSprop(0.1), [[1.0, 1.0], [0.309809, 0.267942], [0.454356, 0.454356]]),
], ids=["sgd", "sgd momentum", "adam", "sgd clipnorm", "adam global_clipnorm", "sgd global_clipnorm",
        "sgd clipvalue", "adam clipvalue", "adam clipnorm", "adamw", "rmsprop"])
def test_optimizers_apply_row_gradients_as_keras(make, expected):
    """Row 1 is gathered twice: Keras 3 squares (and clips) the rows before summing them."""
    opt = make()
    v = tf.Variable([[1., 1.], [1., 1.], [1., 1.]])
    for _ in range(2):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [1, 1, 2]) * tf.constant(X))
        g = tape.gradient(y, v)
        assert isinstance(g, tf.IndexedSlices)
        opt.apply_gradients([(g, v)])
    np.testing.assert_allclose(v.numpy(), expected, atol=2e-6)


def test_plain_sgd_writes_only_the_rows():
    """Plain SGD scatters the rows into the variable (the untouched row is not rewritten)."""
    v = tf.Variable(X)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, [2]))
    g = tape.gradient(y, v)
    ops_seen = []
    opt = keras.optimizers.SGD(0.5)
    opt.build([v])

    @tf.function
    def step(values, indices):
        opt.apply_gradients([(tf.IndexedSlices(values, indices, tf.constant([3, 2])), v)])

    graph = step.get_concrete_function(g.values, g.indices).graph
    ops_seen = {op.type for op in graph.get_operations()}
    assert "ResourceScatterSub" in ops_seen and "AssignSubVariableOp" not in ops_seen
    step(g.values, g.indices)
    assert v.numpy().tolist() == [[1., 2.], [3., 4.], [4.5, 5.5]]
