"""A tf.function method called through an instance nothing else holds (`M().g(x)`, or
`f = M().g; gc.collect(); f(x)`) runs as in TensorFlow 2.21: the bound function holds the
instance weakly and, once it is collected, traces with `self` None. So a method that does not read
`self` works, and one that does fails on `None` as TensorFlow's does; nothing keeps the dropped
instances alive (the per-instance bindings hold them weakly)."""
import gc
import weakref

import numpy as np
import pytest

import eagerflow as tf


class Doubler(tf.Module):
    @tf.function
    def g(self, x):
        return x * 2.0


class Plain:
    def __init__(self):
        self.k = 3.0

    @tf.function
    def g(self, x):
        return x + 1.0

    @tf.function
    def scaled(self, x):
        return x * self.k


def test_a_method_called_on_a_temporary_instance_runs():
    # Outside an assert: pytest's assertion rewriting would keep the temporary alive.
    doubled = Doubler().g(tf.constant(1.0))
    added = Plain().g(tf.constant([1.0, 2.0]))
    concrete = Plain().g.get_concrete_function(tf.constant(1.0))
    assert float(doubled) == 2.0  # TF 2.21: tf.Tensor(2.0, shape=(), dtype=float32)
    assert added.numpy().tolist() == [2.0, 3.0]
    assert float(concrete(tf.constant(4.0))) == 5.0


def test_a_method_kept_after_its_instance_was_collected_still_runs():
    f = Doubler().g
    gc.collect()
    assert float(f(tf.constant(2.0))) == 4.0  # TF 2.21: tf.Tensor(4.0, ...)
    assert f(tf.constant([1.0, 3.0])).numpy().tolist() == [2.0, 6.0]  # a new trace, too
    h = Plain().g
    gc.collect()
    assert float(h(tf.constant(1.0))) == 2.0


def test_a_method_reading_self_fails_on_none_as_in_tensorflow():
    # TF 2.21: AttributeError: 'NoneType' object has no attribute 'k'
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'k'"):
        Plain().scaled(tf.constant(1.0))
    instance = Plain()
    assert float(instance.scaled(tf.constant(1.0))) == 3.0  # alive: self is the instance


def test_the_same_runs_eagerly():
    tf.config.run_functions_eagerly(True)
    try:
        doubled = Doubler().g(tf.constant(1.5))
        assert float(doubled) == 3.0
        f = Plain().g
        gc.collect()
        assert float(f(tf.constant(1.0))) == 2.0
    finally:
        tf.config.run_functions_eagerly(False)


def test_temporary_instances_are_not_kept_alive():
    x = tf.constant(np.ones(3, np.float32))
    refs, kept = [], []
    for i in range(2000):
        m = Doubler()
        refs.append(weakref.ref(m))
        if i % 2:
            kept.append(m.g)  # a bound function outlives its instance
        np.testing.assert_array_equal(m.g(x).numpy(), [2.0, 2.0, 2.0])
        del m
    gc.collect()
    assert sum(r() is not None for r in refs) == 0
    assert len(Doubler.__dict__["g"]._bound) == 0  # no per-instance binding left behind
    assert float(kept[-1](tf.constant(1.0))) == 2.0
