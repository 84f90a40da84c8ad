"""eagerflow: TensorFlow 2's programming model on NumPy. `import eagerflow as tf`.

This file is the whole `tf` surface as one explicit import list, grouped by topic. Namespaces
(`tf.math`, `tf.nn`, `tf.random`, ...) are modules under _src/api/ with their own lists. Everything
else lives in _src/ (the implementation, as `jax._src`), so `dir(tf)` holds TensorFlow's names only
(tests/api/test_namespace.py). Names that are costly to import and rarely used load on first use:
they are the `_LAZY` table at the end.
"""
# Values and their types. tensor_methods comes right after Tensor: it fills Tensor's operator table
# (core/ never imports ops/), and every op module below expects Tensor's operators to work.
from ._src.core.dtypes import (DType, as_dtype, bfloat16, bool_ as bool, complex64, complex128, float16, float32, float64,
                               int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64, variant)
from ._src.core.shape import TensorShape
from ._src.core.tensor import Tensor, TensorSpec
from ._src.ops import tensor_methods as _tensor_methods  # noqa: F401 - see above
from ._src.core.convert import convert_to_tensor
from ._src.core.predicates import is_tensor
from ._src.composite.sparse_tensor import SparseTensor, SparseTensorSpec
from ._src.composite.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ._src.composite.indexed_slices import IndexedSlices
from ._src.composite.indexed_slices_spec import IndexedSlicesSpec
from ._src.state.variables import Variable
from ._src.state.variable_options import VariableAggregation, VariableSynchronization
from ._src.state.module import Module

# Running: eager or traced, scopes, devices, ordering of side effects, the logger.
from ._src.core.context import executing_eagerly
from ._src.trace.function import function
from ._src.autograph import operators as _ag_operators  # noqa: F401 - converted code calls it; not left to a 1st call
from ._src.api.small_names import is_symbolic_tensor
from ._src.core.scopes import get_current_name_scope, init_scope, name_scope
from ._src.core.devices import device
from ._src.ops.control.dependencies import control_dependencies, group, inside_function, no_op, timestamp, tuple
from ._src.core.logger import get_logger

# Gradients.
from ._src.autodiff.tape import GradientTape, UnconnectedGradients
from ._src.autodiff.custom_gradient import custom_gradient, recompute_grad
from ._src.autodiff.gradients import gradients
from ._src.autodiff.hessians import hessians
from ._src.api.small_names import AggregationMethod, grad_pass_through
from ._src.autodiff.py_function import numpy_function, py_function

# Control flow.
from ._src.control_flow.cond import case, cond, switch_case
from ._src.control_flow.while_loop import while_loop
from ._src.control_flow.tensor_array import TensorArray
from ._src.control_flow.functional import foldl, foldr, map_fn, scan, vectorized_map

# Making arrays and changing their shape.
from ._src.ops.array.basic import (broadcast_to, constant, expand_dims, fill, identity, newaxis, ones, ones_like, rank,
                             reshape, shape, size, squeeze, stop_gradient, transpose, where, zeros, zeros_like)
from ._src.autodiff.hessians import identity_n
from ._src.ops.array.sequences import linspace, one_hot, range
from ._src.ops.linalg.matrix_parts import eye
from ._src.ops.array.joining import concat, split, stack, unstack
from ._src.ops.array.tiling import tile
from ._src.ops.array.padding import pad
from ._src.ops.array.repeat import meshgrid, repeat
from ._src.ops.array.sequence_masks import reverse_sequence, roll, sequence_mask
from ._src.ops.array.static_shapes import (broadcast_dynamic_shape, broadcast_static_shape, ensure_shape, get_static_value,
                                     shape_n, unravel_index)

# Indexing, gathering, scattering, sorting and searching.
from ._src.ops.array.slicing import boolean_mask, gather, gather_nd, scatter_nd, slice, strided_slice
from ._src.ops.array.tensor_scatter import (tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min,
                                      tensor_scatter_nd_sub, tensor_scatter_nd_update)
from ._src.ops.array.partitions import dynamic_partition, dynamic_stitch
from ._src.ops.array.ordering import argsort, reverse, sort
from ._src.ops.array.searchsorted import searchsorted
from ._src.ops.array.unique import unique, unique_with_counts

# Elementwise math, comparisons and logic.
from ._src.ops.math.elementwise import (abs, add, add_n, cast, clip_by_value, cos, divide, equal, exp, floor, greater,
                            greater_equal, less, less_equal, logical_and, logical_not, logical_or, maximum, minimum,
                            multiply, negative, not_equal, pow, round, scalar_mul, sigmoid, sign, sin, sqrt, square,
                            subtract, tan, tanh, truediv)
from ._src.ops.math.special import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh
from ._src.ops.math.truncating import realdiv, saturate_cast, truncatediv, truncatemod
from ._src.ops.math.complex import complex  # noqa: A004 - TensorFlow's name
from ._src.ops.linalg.norms import clip_by_global_norm, clip_by_norm

# Reductions, scans and histograms.
from ._src.ops.math.reduce import (argmax, argmin, cumsum, reduce_all, reduce_any, reduce_logsumexp, reduce_max,
                              reduce_mean, reduce_min, reduce_prod, reduce_sum)
from ._src.ops.array.partitions import histogram_fixed_width, histogram_fixed_width_bins

# Linear algebra.
from ._src.ops.linalg.matmul import matmul, tensordot
from ._src.ops.linalg.einsum import einsum
from ._src.ops.linalg.norms import norm
from ._src.ops.linalg.eig import eig, eigvals
from ._src.ops.linalg.matrix_functions import sqrtm as matrix_square_root

# Checks.
from ._src.ops.debugging.checks import Assert, assert_equal, assert_greater, assert_less
from ._src.ops.debugging.static_checks import assert_rank

# Strings and printing.
from ._src.ops.io.printing import print_ as print  # noqa: A001 - TensorFlow's name: `tf.print`
from ._src.ops.strings.number_text import as_string
from ._src.ops.strings.hashing import fingerprint

# Initializers (TensorFlow 2's top-level ones; tf.keras.initializers has the rest).
from ._src.ops.array.initializers import (constant_initializer, ones_initializer, random_normal_initializer,
                                    random_uniform_initializer, zeros_initializer)

# The namespaces a tf.function's first trace or most programs use; the others (tf.data, tf.image,
# tf.io, tf.saved_model, tf.train, ...) are in `_LAZY` below: together they were half of the import.
from ._src.api import autograph, config, debugging, dtypes, errors, math, nest, nn, random, version

# TensorFlow's alias names.
double = float64
half = float16

# The TensorFlow API version this package implements, which is what programs written for TensorFlow
# check (`tf.__version__.startswith("2.")`, version comparisons). eagerflow's own release number is
# separate: `importlib.metadata.version("eagerflow")` (pyproject.toml).
__version__ = version.VERSION

# Names that load on first use (PEP 562 `__getattr__` below): `tf.keras` is a quarter of what
# `import eagerflow` would otherwise cost, and many programs never touch it or the others.
# name -> (module, attribute of it, or None for the module itself).
_LAZY = {
    "keras": (".keras", None),
    # TensorFlow 2.21's tf.losses / tf.metrics / tf.optimizers / tf.initializers are Keras 3's modules.
    "losses": (".keras.losses", None),
    "metrics": (".keras.metrics", None),
    "optimizers": (".keras.optimizers", None),
    "initializers": (".keras.initializers", None),
    "audio": ("._src.api.audio", None),
    "bitwise": ("._src.api.bitwise", None),
    "compat": ("._src.api.compat", None),
    "lookup": ("._src.api.lookup", None),
    "sets": ("._src.api.sets", None),
    "bitcast": ("._src.ops.array.bitcast", "bitcast"),
    "edit_distance": ("._src.ops.sparse.edit_distance", "edit_distance"),
    "space_to_batch_nd": ("._src.ops.array.space_batch", "space_to_batch_nd"),
    "space_to_batch": ("._src.ops.array.space_batch", "space_to_batch"),
    "batch_to_space": ("._src.ops.array.space_batch", "batch_to_space"),
    "required_space_to_batch_paddings": ("._src.ops.array.space_batch", "required_space_to_batch_paddings"),
    "parallel_stack": ("._src.ops.array.parallel_stack", "parallel_stack"),
    "distribute": (".distribute", None),
    # Namespaces that load on first use (tests/test_import_modules.py keeps the eager set from growing).
    "data": ("._src.api.data", None),
    "image": ("._src.api.image", None),
    "io": ("._src.api.io", None),
    "linalg": ("._src.api.linalg", None),
    "ragged": ("._src.api.ragged", None),
    "signal": ("._src.api.signal", None),
    "sparse": ("._src.api.sparse", None),
    "strings": ("._src.api.strings", None),
    "test": ("._src.api.test", None),
    "saved_model": (".saved_model", None),
    "summary": (".summary", None),
    "train": (".train", None),
    "experimental": ("._src.api.experimental", None),
}


def __getattr__(name):
    target = _LAZY.get(name)
    if target is None:
        raise AttributeError(f"module 'eagerflow' has no attribute {name!r}")
    import importlib
    module, attribute = target
    value = importlib.import_module(module, __name__)
    if attribute is not None:
        value = getattr(value, attribute)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
