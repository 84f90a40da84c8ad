"""Layers with dtype="bfloat16" built on keras.Input (a functional model): Keras 3.15's answers
(recorded): the weights and the output are bfloat16, Dense(4) on 3 inputs has 16 parameters."""
import os
import subprocess
import sys

import ml_dtypes
import numpy as np

from eagerflow import keras


def test_dense_bfloat16_in_a_functional_model():
    inp = keras.Input((3,))
    dense = keras.layers.Dense(4, dtype="bfloat16")
    out = dense(inp)
    model = keras.Model(inp, out)
    assert out.dtype.name == "bfloat16"
    assert (dense.kernel.dtype.name, dense.compute_dtype, dense.variable_dtype) == ("bfloat16",) * 3
    assert model.count_params() == 16
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 4
    y = model.predict(x, verbose=0)
    assert y.dtype == ml_dtypes.bfloat16 and y.shape == (2, 4)
    kernel = dense.kernel.numpy().astype(np.float32)
    bias = dense.bias.numpy().astype(np.float32)
    want = (x.astype(ml_dtypes.bfloat16).astype(np.float32) @ kernel + bias).astype(ml_dtypes.bfloat16)
    np.testing.assert_allclose(y.astype(np.float32), want.astype(np.float32), rtol=1e-2, atol=1e-2)


def test_bfloat16_weights_of_other_layers_on_symbolic_inputs():
    for layer, shape, n_weights in [(keras.layers.Conv2D(2, 3, dtype="bfloat16"), (5, 5, 1), 2),
                                    (keras.layers.Embedding(10, 3, dtype="bfloat16"), (4,), 1),
                                    (keras.layers.LayerNormalization(dtype="bfloat16"), (4,), 2),
                                    (keras.layers.Dense(3, kernel_initializer=keras.initializers.HeNormal(seed=1),
                                                        dtype="bfloat16"), (4,), 2)]:
        out = layer(keras.Input(shape))
        assert out.dtype.name == "bfloat16"
        assert [w.dtype.name for w in layer.weights] == ["bfloat16"] * n_weights


def test_dense_bfloat16_builds_in_a_fresh_process():
    """NumPy knows the name "bfloat16" only after `import ml_dtypes`; the build must not rely on it."""
    code = ("from eagerflow import keras\n"
            "d = keras.layers.Dense(4, dtype='bfloat16')\n"
            "print(d(keras.Input((3,))).dtype.name, d.kernel.dtype.name)\n")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["bfloat16", "bfloat16"]
