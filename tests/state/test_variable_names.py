"""Variable names under name scopes, as TensorFlow 2.21 forms them."""
import copy

import eagerflow as tf


def test_a_variable_made_in_a_name_scope_carries_it():
    with tf.name_scope("foo"):
        named = tf.Variable(1.0, name="var")
        unnamed = tf.Variable(1.0)
        with tf.name_scope("bar"):
            inner = tf.Variable(1.0, name="w")
    assert (named.name, unnamed.name, inner.name) == ("foo/var:0", "foo/Variable:0", "foo/bar/w:0")  # TF 2.21
    assert tf.Variable(1.0, name="top").name == "top:0"


def test_a_copy_takes_its_name_under_the_scope_it_is_made_in():
    with tf.name_scope("foo"):
        v = tf.Variable(1.0, name="var")
    with tf.name_scope("other"):
        assert copy.deepcopy(v).name == "other/foo/var:0"  # TF 2.21
    assert copy.deepcopy(v).name == "foo/var:0"
