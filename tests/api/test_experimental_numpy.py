"""tf.experimental.numpy on eagerflow tensors: values, dtypes (NumPy's: Python floats are float64)
and shapes printed by TensorFlow 2.21 for the same calls; experimental_enable_numpy_behavior's methods."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.api import numpy_promotion

tnp = tf.experimental.numpy
x = tnp.array([[1., 2., 3.], [4., 5., 6.]])
xi = tnp.array([[1, 2, 3], [4, 5, 6]])

CASES = [
    ('array f', lambda: tnp.array([1., 2.]), 'float64', (2,), [1.0, 2.0]),
    ('array i', lambda: tnp.array([1, 2]), 'int64', (2,), [1, 2]),
    ('array b', lambda: tnp.array([True]), 'bool', (1,), [True]),
    ('array dtype', lambda: tnp.array([1, 2], dtype=tnp.float32), 'float32', (2,), [1.0, 2.0]),
    ('asarray t', lambda: tnp.asarray(tf.constant([1., 2.])), 'float32', (2,), [1.0, 2.0]),
    ('zeros', lambda: tnp.zeros((2, 3)), 'float64', (2, 3), [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    ('zeros i', lambda: tnp.zeros(2, dtype=tnp.int32), 'int32', (2,), [0, 0]),
    ('ones', lambda: tnp.ones([2]), 'float64', (2,), [1.0, 1.0]),
    ('arange', lambda: tnp.arange(5), 'int64', (5,), [0, 1, 2, 3, 4]),
    ('arange f', lambda: tnp.arange(0, 1, 0.25), 'float64', (4,), [0.0, 0.25, 0.5, 0.75]),
    ('arange f2', lambda: tnp.arange(1., 4.), 'float64', (3,), [1.0, 2.0, 3.0]),
    ('linspace', lambda: tnp.linspace(0, 1, 5), 'float64', (5,), [0.0, 0.25, 0.5, 0.75, 1.0]),
    ('reshape', lambda: tnp.reshape(x, (3, 2)), 'float64', (3, 2), [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
    ('reshape -1', lambda: tnp.reshape(x, -1), 'float64', (6,), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
    ('transpose', lambda: tnp.transpose(x), 'float64', (3, 2), [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]),
    ('matmul', lambda: tnp.matmul(x, tnp.transpose(x)), 'float64', (2, 2), [[14.0, 32.0], [32.0, 77.0]]),
    ('dot', lambda: tnp.dot(x, tnp.ones(3)), 'float64', (2,), [6.0, 15.0]),
    ('dot scalar', lambda: tnp.dot(2., x), 'float64', (2, 3), [[2.0, 4.0, 6.0], [8.0, 10.0, 12.0]]),
    ('sum', lambda: tnp.sum(x), 'float64', (), 21.0),
    ('sum ax', lambda: tnp.sum(x, axis=0), 'float64', (3,), [5.0, 7.0, 9.0]),
    ('sum i', lambda: tnp.sum(xi), 'int64', (), 21),
    ('mean', lambda: tnp.mean(x, axis=1), 'float64', (2,), [2.0, 5.0]),
    ('mean i', lambda: tnp.mean(xi), 'float64', (), 3.5),
    ('max', lambda: tnp.max(x), 'float64', (), 6.0),
    ('min ax', lambda: tnp.min(x, axis=1, keepdims=True), 'float64', (2, 1), [[1.0], [4.0]]),
    ('concat', lambda: tnp.concatenate([x, x], axis=0), 'float64', (4, 3), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    ('stack', lambda: tnp.stack([tnp.ones(2), tnp.zeros(2)], axis=1), 'float64', (2, 2), [[1.0, 0.0], [1.0, 0.0]]),
    ('where', lambda: tnp.where(x > 2, x, 0), 'float64', (2, 3), [[0.0, 0.0, 3.0], [4.0, 5.0, 6.0]]),
    ('exp', lambda: tnp.exp(tnp.array([0., 1.])), 'float64', (2,), [1.0, 2.718281828459045]),
    ('log', lambda: tnp.log(tnp.array([1., 2.])), 'float64', (2,), [0.0, 0.6931471805599453]),
    ('sqrt f32', lambda: tnp.sqrt(tnp.array([4, 9], dtype=tnp.float32)), 'float32', (2,), [2.0, 3.0]),
    ('add mixed', lambda: tnp.add(tnp.array([1, 2]), tnp.array([0.5, 0.5])), 'float64', (2,), [1.5, 2.5]),
    ('abs', lambda: tnp.abs(tnp.array([-1, 2])), 'int64', (2,), [1, 2]),
    ('square', lambda: tnp.square(tnp.array([1.5])), 'float64', (1,), [2.25]),
    ('full', lambda: tnp.full((2,), 7), 'int64', (2,), [7, 7]),
    ('eye', lambda: tnp.eye(2), 'float64', (2, 2), [[1.0, 0.0], [0.0, 1.0]]),
]


@pytest.mark.parametrize("label, make, dtype, shape, values", CASES, ids=[c[0] for c in CASES])
def test_as_tensorflow_numpy(label, make, dtype, shape, values):
    got = make()
    assert isinstance(got, tnp.ndarray)
    assert (got.dtype.name, tuple(got.shape)) == (dtype, shape)
    np.testing.assert_allclose(np.asarray(got.numpy(), dtype=np.float64), np.asarray(values, dtype=np.float64),
                               rtol=1e-15)


def test_names_are_numpy_types():
    assert tnp.ndarray is tf.Tensor
    assert tnp.float32 is np.float32 and tnp.float64 == tf.float64 and tnp.pi == 3.141592653589793


def test_integer_inputs_of_float_functions_are_float64():
    """With NumPy behaviour on (TensorFlow needs it for these: without, its tnp.exp of ints fails on astype)."""
    assert tnp.exp(tnp.array([0, 1])).dtype == tf.float64
    np.testing.assert_array_equal(tnp.sqrt(tnp.array([4, 9])).numpy(), [2.0, 3.0])


@pytest.fixture
def numpy_behavior():
    """Turns NumPy behaviour on for one test, then takes the methods off again (a worker runs other
    test files after this one)."""
    before = set(vars(tf.Tensor))
    tnp.experimental_enable_numpy_behavior()
    yield
    numpy_promotion.disable()
    for name in set(vars(tf.Tensor)) - before:
        delattr(tf.Tensor, name)


def test_numpy_behavior_methods(numpy_behavior):
    t = tf.constant([[1., 2.], [3., 4.]])
    assert t.reshape(4).numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert t.T.numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert t.astype(tf.int32).numpy().tolist() == [[1, 2], [3, 4]]
    assert t.ravel().numpy().tolist() == [1.0, 2.0, 3.0, 4.0]
    assert float(t.mean().numpy()) == 2.5
    assert t.transpose().numpy().tolist() == [[1.0, 3.0], [2.0, 4.0]]
    assert t.clip(1.5, 3.).numpy().tolist() == [[1.5, 2.0], [3.0, 3.0]]
    assert t.reshape((1, 4)).shape == (1, 4) and t.reshape(4, 1).shape == (4, 1)
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert float(t.max()) == 4.0 and t.flatten().shape == (4,) and t.ndim == 2 and t.size == 4
    assert not hasattr(t, "sum") and not hasattr(t, "prod")  # TensorFlow 2.21 adds neither


def test_inside_tf_function():
    @tf.function
    def f(a):
        return tnp.sum(tnp.where(a > 2, a, 0), axis=0) + tnp.mean(a)

    np.testing.assert_array_equal(f(x).numpy(), [7.5, 8.5, 12.5])
