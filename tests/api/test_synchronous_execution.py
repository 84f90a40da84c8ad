"""`tf.config.experimental.set_synchronous_execution` / `get_synchronous_execution` and
`tf.test.experimental.sync_devices`, without JAX: the switch and the wait must work (and import
nothing optional) in a NumPy-only install. The asynchronous runs themselves are tested with the
jit tests (tests/codegen/test_xla_device_tensors.py)."""
from __future__ import annotations

import subprocess
import sys

import pytest

import eagerflow as tf


def test_the_setting_round_trips_with_tensorflows_default():
    assert tf.config.experimental.get_synchronous_execution() is True  # TensorFlow 2.21's default
    try:
        tf.config.experimental.set_synchronous_execution(False)
        assert tf.config.experimental.get_synchronous_execution() is False
        tf.config.experimental.set_synchronous_execution(None)  # None: the system default
        assert tf.config.experimental.get_synchronous_execution() is True
    finally:
        tf.config.experimental.set_synchronous_execution(True)


def test_sync_devices_inside_a_function_is_refused():
    @tf.function
    def f(x):
        tf.test.experimental.sync_devices()
        return x

    with pytest.raises(RuntimeError, match=r"^sync_devices\(\) must only be called in Eager mode, outside "
                                           r"tf.functions$"):  # TensorFlow 2.21's words
        f(tf.constant(1.0))


def test_sync_devices_with_nothing_pending_imports_nothing_optional():
    code = ("import sys, eagerflow as tf\n"
            "tf.test.experimental.sync_devices()\n"
            "print(tf.test.experimental.sync_devices() is None, 'jax' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]
