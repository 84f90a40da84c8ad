"""A function reading a tf.data pipeline through a Python iterator is refused at save time with
TensorFlow 2.21's exception and the key words of its message (recorded from TensorFlow 2.21: saving
such a module raises AssertionError "Tried to export a function which references an 'untracked'
resource. ...", whether the iterator is an attribute of the saved object or not, and for a `for` loop
over a generator-backed dataset the function captures); nothing is written."""
import os

import pytest

import eagerflow as tf

UNTRACKED = r"Tried to export a function which references an 'untracked' resource"


def _generator():
    yield from range(3)


def test_a_function_calling_next_on_an_iterator_is_refused(tmp_path):
    iterator = iter(tf.data.Dataset.range(5))

    class Reader(tf.Module):
        @tf.function
        def read(self):
            return next(iterator)

    for keeps_iterator in (False, True):
        m = Reader()
        if keeps_iterator:
            m.iterator = iterator
        assert int(m.read()) == (0 if not keeps_iterator else 1)
        with pytest.raises(AssertionError, match=UNTRACKED + r".*Function 'read'.*'IteratorGetNext'"):
            tf.saved_model.save(m, str(tmp_path / "m"), signatures=m.read.get_concrete_function())
        assert not os.path.exists(tmp_path / "m")


def test_a_for_loop_over_a_generator_dataset_is_refused(tmp_path):
    dataset = tf.data.Dataset.from_generator(_generator, output_signature=tf.TensorSpec([], tf.int64))

    class Summer(tf.Module):
        @tf.function(input_signature=[])
        def total(self):
            s = tf.constant(0, tf.int64)
            for x in dataset:
                s += x
            return s

    m = Summer()
    assert int(m.total()) == 3
    with pytest.raises(AssertionError, match=UNTRACKED + r".*Function 'total'.*IteratorOpenPass"):
        tf.saved_model.save(m, str(tmp_path / "m"))
    assert not os.path.exists(tmp_path / "m")
