"""tf.io.read_file / tf.io.write_file (ops ReadFile, WriteFile), eagerly and traced, against TF 2.21."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.registry import NO_GRADIENT, OPS


def test_read_and_write_eagerly(tmp_path):
    path = str(tmp_path / "w" / "o.txt")
    assert tf.io.write_file(path, "hello") is None  # TF creates the missing directory "w"
    assert open(path).read() == "hello"
    t = tf.io.read_file(path)
    assert (t.dtype, t.shape, t.numpy()) == (tf.string, (), b"hello")
    tf.io.write_file(tf.constant(path), tf.constant(b"\x00\xffbin"))
    assert tf.io.read_file(path).numpy() == b"\x00\xffbin"


def test_errors_as_tensorflow(tmp_path):
    missing = str(tmp_path / "nope")
    with pytest.raises(tf.errors.NotFoundError, match=f"^{missing}; No such file or directory \\[Op:ReadFile\\]$"):
        tf.io.read_file(missing)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Contents tensor must be scalar, but had shape: \[2\] \[Op:WriteFile\]$"):
        tf.io.write_file(str(tmp_path / "o2.txt"), ["a", "b"])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Input filename tensor must be scalar, but had shape: \[1\] \[Op:ReadFile\]$"):
        tf.io.read_file([missing])


def test_inside_tf_function_write_is_kept_and_runs_each_call(tmp_path):
    path = str(tmp_path / "f.txt")

    @tf.function
    def roundtrip(p, text):
        tf.io.write_file(p, text)  # nothing reads WriteFile's output: it must still run
        return tf.io.read_file(p)

    assert roundtrip(tf.constant(path), tf.constant("one")).numpy() == b"one"
    assert roundtrip(tf.constant(path), tf.constant("two")).numpy() == b"two"
    types = [op.type for op in roundtrip.get_concrete_function(
        tf.TensorSpec([], tf.string), tf.TensorSpec([], tf.string)).graph.get_operations()]
    assert "WriteFile" in types and "ReadFile" in types

    @tf.function
    def write_only(p):
        tf.io.write_file(p, "side effect")

    write_only(tf.constant(str(tmp_path / "g.txt")))
    assert open(tmp_path / "g.txt").read() == "side effect"

    @tf.function
    def read_missing(p):
        return tf.io.read_file(p)

    with pytest.raises(tf.errors.NotFoundError, match="nope; No such file or directory"):
        read_missing(tf.constant(str(tmp_path / "nope")))


def test_stateful_flags_and_no_gradient():
    # TF 2.21's op registry: ReadFile is not stateful, WriteFile is.
    assert not OPS["ReadFile"].stateful and OPS["WriteFile"].stateful
    assert OPS["ReadFile"].grad is NO_GRADIENT and OPS["WriteFile"].grad is NO_GRADIENT


def test_jit_compile_refuses(tmp_path):
    pytest.importorskip("jax")
    path = tmp_path / "a.txt"
    path.write_bytes(b"a")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations when trying to compile"):
        tf.function(lambda p: tf.io.read_file(p), jit_compile=True)(tf.constant(str(path)))
