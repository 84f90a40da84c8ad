"""`keras.ops`: Keras 3's backend-agnostic, NumPy-like functions, over eagerflow's ops.

The submodules are Keras' own: `numpy`, `nn`, `linalg`, `image`, plus `core` (control flow, conversion,
scatter) and `math` (segments, FFTs, special functions); this package re-exports every name of numpy, nn,
linalg, core and math, as keras.ops does (image's names stay in keras.ops.image).

What differs from the tf.* functions they wrap, as Keras 3.15 defines it:
- Mixed dtypes are promoted, not refused: `ops.add(int32_tensor, float32_tensor)` is float32, a
  Python float beside an integer tensor gives floatx ('float32'), a Python number beside a float
  tensor keeps the tensor's type (Python scalars are "weak", as in JAX).
- NumPy conventions: `axis=None` means the flattened array (argmax, cumsum, take, repeat, roll,
  flip reverses every axis); `split` takes a section count or split indices; `mean`/`divide`/
  `sqrt` of integers are floats; `shape` is a tuple.
"""
from __future__ import annotations

from . import core, image, linalg, math, nn, numpy
from ._common import public, result_type  # noqa: F401 - result_type: Keras' promotion, used by tests and layers
from .symbolic import install as _install_symbolic_fronts

for _short, _module in (("numpy", numpy), ("nn", nn), ("linalg", linalg), ("core", core), ("math", math),
                        ("image", image)):
    _install_symbolic_fronts(_module, _short)  # called on KerasTensors, an op records a functional node

_REEXPORTED = (numpy, nn, linalg, core, math)
__all__ = sorted({name for module in _REEXPORTED for name in module.__all__}) + ["image", "linalg", "nn", "numpy"]
globals().update({name: getattr(module, name) for module in _REEXPORTED for name in module.__all__})
__dir__ = public(__all__)
