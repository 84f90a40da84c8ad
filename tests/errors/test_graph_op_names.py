"""Op names in graphs as TensorFlow 2.21 accepts them: eagerly any name passes; while tracing, a name
given to an op opens a scope, so it must match TensorFlow's scope pattern (stricter at the root:
no leading '_' or '-'). TensorSpec names are not op names: TensorFlow only warns and names the
placeholder itself, so they stay accepted (test_bad_input.py checks Python-normalised names)."""
import pytest

import eagerflow as tf

ROOT = r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$"
NESTED = r"^[A-Za-z0-9_.\\/>-]*$"


@pytest.mark.parametrize("name", ["\u00b5", "_a", "-a", "a b", "\u212a"])
def test_a_root_op_name_outside_the_pattern_is_refused_while_tracing(name):
    assert float(tf.identity(tf.constant(1.0), name=name)) == 1.0  # eagerly, as TensorFlow
    with pytest.raises(ValueError) as err:
        tf.function(lambda: tf.identity(tf.constant(1.0), name=name))()
    assert str(err.value) == (f"'{name}' is not a valid root scope name. A root scope name has to match the "
                              f"following pattern: {ROOT}")


def test_inside_a_scope_the_nested_pattern_applies():
    def under_scope(name):
        def f():
            with tf.name_scope("s"):
                return tf.identity(tf.constant(1.0), name=name)
        return f

    assert float(tf.function(under_scope("_a"))()) == 1.0  # TensorFlow: accepted below the root
    assert float(tf.function(under_scope("-a"))()) == 1.0
    with pytest.raises(ValueError, match="'\u00b5' is not a valid scope name. A scope name has to match"):
        tf.function(under_scope("\u00b5"))()


@pytest.mark.parametrize("name", ["1abc", "lambda", "a/b", "a/", "a>b", "."])
def test_names_tensorflow_accepts_trace(name):
    assert float(tf.function(lambda: tf.identity(tf.constant(2.0), name=name))()) == 2.0


def test_tensor_spec_names_outside_the_pattern_still_trace():
    f = tf.function(lambda a: a + 1.0, input_signature=[tf.TensorSpec([], tf.float32, name="a b")])
    assert float(f(tf.constant(1.0))) == 2.0
