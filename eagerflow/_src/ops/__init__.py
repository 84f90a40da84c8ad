"""Every op, defined once: kernel, shape/dtype rule, gradient, JAX lowering (ops/registry.py's `defop`).

The shared machinery sits here at the top and imports no op family: registry.py (OpDef, `defop`,
`bind`), validation.py, shape_rules.py, operands.py, tf_allowed_types.py (TensorFlow's dtype lists),
lazy_jax.py, fp_errors.py, bfloat16.py; tensor_methods.py fills Tensor's operator table.
The ops live in folders by family, as TensorFlow groups them:
  math/       elementwise math, complex, special functions, reductions, segments, cumulative ops
  array/      shapes, joining, padding, slicing, sequences, ordering, scatter, partitions, sets
  linalg/     matmul, einsum, solves, decompositions, matrix functions, norms, linear operators
  nn/         activations, convolution, pooling, losses, CTC, embedding
  image/ signal/ sparse/ ragged/ strings/ random/ io/ lookup/   the tf.* namespaces of those names
  debugging/  run-time and static assertions
  control/    function calls, control dependencies, TensorLists (the loop accumulators)
  variables/  resource-variable reads and writes, fused optimizer updates
The family packages' `__init__.py` files are empty: importing one op module loads only what it imports.
No two op modules import each other at module level (tests/ops/test_ops_layout.py): at the bottom sit
the ops array/basic.py gathers (shapes, reshape, broadcast and its reverse sum_to, select, cast: what
every gradient rule is made of), then math/elementwise.py, and each family above them. A gradient rule that needs a
module above its own imports it inside the function.
"""
import importlib


_ALL_IMPORTED = []  # set once every module has been imported: later calls skip the folder walk


def import_every_op_module():
    """Imports every module under ops/, so every OpDef is registered (`import eagerflow` leaves some
    families to their first use). For readers of saved graphs and for coverage tests. A loader calls
    this once per graph it reads; only the first call walks the folders."""
    if _ALL_IMPORTED:
        return
    import pkgutil  # (here: `import eagerflow` need not load it)
    for info in pkgutil.walk_packages(__path__, prefix=__name__ + "."):
        importlib.import_module(info.name)
    _ALL_IMPORTED.append(True)
