"""jit_compile=True without JAX, and tf.config.optimizer.set_jit (codegen/jit_setting.py): these run
in every install; tests/codegen/test_xla.py needs the `xla` extra."""
from __future__ import annotations

import subprocess
import sys

import pytest

import eagerflow as tf
from eagerflow._src.codegen import jit_setting


def test_import_eagerflow_does_not_import_jax():
    code = "import sys, eagerflow; print('jax' in sys.modules, 'jax.numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_without_jax_jit_compile_raises_naming_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError

    @tf.function(jit_compile=True)
    def f(x):
        return x * 2.0
    with pytest.raises(ImportError, match=r"pip install 'eagerflow\[xla\]'"):
        f(tf.constant(1.0))
    with pytest.raises(ImportError, match="jit_compile=True"):  # never silently runs uncompiled
        f(tf.constant(1.0))
    assert float(tf.function(lambda x: x * 2.0)(tf.constant(1.0))) == 2.0  # the default path needs no JAX


def test_set_jit_and_get_jit_as_tensorflow():
    # TF 2.21: get_jit() is '' by default, 'autoclustering' after set_jit(True), '' after set_jit(False).
    assert tf.config.optimizer.get_jit() == ""
    try:
        tf.config.optimizer.set_jit(True)
        assert tf.config.optimizer.get_jit() == "autoclustering"
        assert jit_setting.wanted(None) and not jit_setting.wanted(False)
        tf.config.optimizer.set_jit("autoclustering")
        assert tf.config.optimizer.get_jit() == "autoclustering"
    finally:
        tf.config.optimizer.set_jit(False)
    assert tf.config.optimizer.get_jit() == "" and not jit_setting.wanted(None) and jit_setting.wanted(True)
