"""tf.Module collects variables recursively, in TensorFlow's order (checked against TF 2.21)."""
import pytest

import eagerflow as tf


class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.b = tf.Variable(4.0, name="b", trainable=False)
        self.c = tf.Variable(5.0, name="c")


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.z = tf.Variable(1.0, name="z")
        self.a = tf.Variable(2.0, name="a")
        self.sub = Inner()
        self.lst = [tf.Variable(3.0, name="l0")]
        self.alias = self.a  # the same variable twice is listed once


def test_variables_in_tensorflow_order():
    m = Outer()
    assert [v.name for v in m.variables] == ["a:0", "l0:0", "z:0", "b:0", "c:0"]
    assert [v.name for v in m.trainable_variables] == ["a:0", "l0:0", "z:0", "c:0"]
    assert [v.name for v in m.non_trainable_variables] == ["b:0"]
    assert m.submodules == (m.sub,)


def test_module_names():
    assert Outer().name == "outer"
    assert tf.Module(name="my_mod").name == "my_mod"
    with pytest.raises(ValueError, match="not a valid module name"):
        tf.Module(name="1 bad")


def test_dicts_and_nested_modules():
    m = tf.Module()
    m.layers = {"second": Inner(), "first": [tf.Variable(0.0, name="x")]}
    assert [v.name for v in m.variables] == ["x:0", "b:0", "c:0"]
