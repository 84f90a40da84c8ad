"""eagerflow: TensorFlow 2's programming model on NumPy. `import eagerflow as tf`.

This file is the whole `tf` surface as one explicit import list. Namespaces (`tf.math`, `tf.nn`,
`tf.random`, ...) are modules under _src/api/ with their own lists. Everything else lives in
_src/ (the implementation, as `jax._src`), so `dir(tf)` holds TensorFlow's names only
(tests/api/test_namespace.py).
"""
from ._src.core.dtypes import (DType, as_dtype, bfloat16, bool_ as bool, complex64, complex128, float16, float32, float64,
                               int8, int16, int32, int64, resource, string, uint8, uint16, uint32, uint64, variant)
from ._src.core.shape import TensorShape
from ._src.core.tensor import Tensor, TensorSpec
from ._src.ops import tensor_methods as _tensor_methods  # noqa: F401 - fills Tensor's operator table (core/ never imports ops/)
from ._src.core.convert import convert_to_tensor
from ._src.core.context import executing_eagerly
from ._src.autodiff.tape import GradientTape, UnconnectedGradients
from ._src.autodiff.custom_gradient import custom_gradient, recompute_grad
from ._src.autodiff.gradients import gradients
from ._src.state.variables import Variable
from ._src.state.variable_options import VariableAggregation, VariableSynchronization
from ._src.state.indexed_slices import IndexedSlices
from ._src.composite.indexed_slices_spec import IndexedSlicesSpec
from ._src.state.module import Module
from ._src.trace.function import function
from ._src.control_flow.cond import case, cond, switch_case
from ._src.control_flow.while_loop import while_loop
from ._src.control_flow.tensor_array import TensorArray
from ._src.ops.io.printing import print_ as print  # noqa: A001 - TensorFlow's name: `tf.print`
from ._src.ops.debugging.checks import Assert, assert_equal, assert_greater, assert_less
from ._src.ops.debugging.static_checks import assert_rank

from ._src.ops.math.elementwise import (abs, add, add_n, cast, clip_by_value, cos, divide, equal, exp, floor,
                            greater, greater_equal, less, less_equal, logical_and, logical_not,
                            logical_or, maximum, minimum, multiply, negative, not_equal, pow, round,
                            scalar_mul, sigmoid, sign, sin, sqrt, square, subtract, tanh, truediv)
from ._src.ops.linalg.matmul import matmul, tensordot
from ._src.ops.array.basic import (broadcast_to, constant, fill, identity, ones, ones_like, rank, reshape, shape, size,
                             stop_gradient, transpose, where, zeros, zeros_like)
from ._src.ops.array.joining import stack, unstack
from ._src.ops.math.reduce import (reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod,
                              reduce_sum)

from ._src.api import autograph, config, data, debugging, dtypes, errors, linalg, math, nest

# TensorFlow's alias names (kept here, with the names they alias, as the only place for them).
double = float64
half = float16

# --- array ops: owned by the array-ops work (ops/array/basic.py, ops/array/slicing.py) ---
from ._src.ops.array.basic import expand_dims, newaxis, squeeze  # noqa: E402
from ._src.ops.array.joining import concat, split, tile  # noqa: E402
from ._src.ops.array.ordering import argsort, reverse, sort  # noqa: E402
from ._src.ops.array.padding import pad  # noqa: E402
from ._src.ops.array.sequences import linspace, one_hot, range  # noqa: E402
from ._src.ops.array.slicing import (boolean_mask, gather, gather_nd, scatter_nd, slice, strided_slice)  # noqa: E402
from ._src.ops.array.tensor_scatter import (tensor_scatter_nd_add, tensor_scatter_nd_max, tensor_scatter_nd_min,  # noqa: E402
                                      tensor_scatter_nd_sub, tensor_scatter_nd_update)
from ._src.ops.array.unique import unique, unique_with_counts  # noqa: E402
from ._src.ops.array.repeat import meshgrid, repeat  # noqa: E402
from ._src.autodiff.py_function import numpy_function, py_function  # noqa: E402
# --- end array ops ---

# --- reductions, argmax/argmin/cumsum, einsum: owned by the math work (ops/math/reduce.py, ops/linalg/einsum.py) ---
from ._src.ops.math.reduce import argmax, argmin, cumsum, reduce_logsumexp  # noqa: E402
from ._src.ops.linalg.einsum import einsum  # noqa: E402
# --- end reductions ---

# --- nn, random, image: owned by the nn work (ops/nn/basic.py, ops/random/draws.py, ops/image/resizing.py, api/nn.py, ...) ---
from ._src.api import image, nn, random  # noqa: E402
# --- end nn ---

# --- everyday helpers (issue 9 point 5): norms, clipping, eye, map_fn & co. ---
from ._src.ops.linalg.matrix_parts import eye  # noqa: E402
from ._src.ops.linalg.norms import clip_by_global_norm, clip_by_norm, norm  # noqa: E402
from ._src.control_flow.functional import foldl, foldr, map_fn, scan, vectorized_map  # noqa: E402
from ._src.core.predicates import is_tensor  # noqa: E402
from ._src.ops.math.elementwise import tan  # noqa: E402
from ._src.ops.math.special import acos, acosh, asin, asinh, atan, atan2, atanh, cosh, sinh  # noqa: E402
from ._src.core.scopes import get_current_name_scope, init_scope, name_scope  # noqa: E402
from ._src.core.devices import device  # noqa: E402
from ._src.api import test, version  # noqa: E402
from ._src.api import strings  # noqa: E402
from ._src.api import io  # noqa: E402  (tf.io: gfile, read_file, TFRecord, CSV, Example parsing)
from ._src.api import signal  # noqa: E402  (tf.signal: FFTs, framing, STFT, windows, mel, DCT)
from ._src.api import sparse  # noqa: E402  (tf.sparse: SparseTensor and its ops)
from ._src.composite.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: E402
from ._src.api import ragged  # noqa: E402  (tf.ragged: RaggedTensor factories and partitions)
from ._src.composite.ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: E402
from ._src.ops.strings.elementwise import as_string  # noqa: E402
from ._src.ops.strings.hashing import fingerprint  # noqa: E402
from ._src.ops.math.complex import complex  # noqa: E402,A004 - TensorFlow's name
from ._src.ops.array.partitions import histogram_fixed_width_bins  # noqa: E402
from ._src.api.small_names import AggregationMethod, grad_pass_through, is_symbolic_tensor  # noqa: E402
from ._src.api.linalg import eig, eigvals  # noqa: E402
from ._src.api.linalg import sqrtm as matrix_square_root  # noqa: E402
from . import summary  # noqa: E402  (tf.summary: event files for TensorBoard)

# The TensorFlow API version this package implements, which is what programs written for TensorFlow
# check (`tf.__version__.startswith("2.")`, version comparisons). eagerflow's own release number is
# separate: `importlib.metadata.version("eagerflow")` (pyproject.toml).
__version__ = version.VERSION
# --- end everyday helpers ---
# --- keras: owned by the keras work (eagerflow/keras/) ---
# `tf.keras` loads on first use (PEP 562 `__getattr__` below): it is a quarter of what
# `import eagerflow` would otherwise cost, and many programs never touch it.
# The same for a few rarely used names: name -> (module, attribute of it, or None for the module).
_LAZY = {"keras": (".keras", None), "sets": ("._src.api.sets", None), "bitcast": ("._src.ops.array.bitcast", "bitcast"),
         "bitwise": ("._src.api.bitwise", None), "compat": ("._src.api.compat", None),
         "lookup": ("._src.api.lookup", None),
         # TensorFlow 2.21's tf.losses / tf.metrics / tf.optimizers / tf.initializers are Keras 3's modules
         "losses": (".keras.losses", None), "metrics": (".keras.metrics", None),
         "optimizers": (".keras.optimizers", None), "initializers": (".keras.initializers", None),
         "space_to_batch_nd": ("._src.ops.array.space_batch", "space_to_batch_nd"),
         "space_to_batch": ("._src.ops.array.space_batch", "space_to_batch"),
         "batch_to_space": ("._src.ops.array.space_batch", "batch_to_space"),
         "required_space_to_batch_paddings": ("._src.ops.array.space_batch", "required_space_to_batch_paddings"),
         "edit_distance": ("._src.ops.sparse.edit_distance", "edit_distance")}


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
# --- end keras ---
# --- SavedModel and checkpoints: owned by the SavedModel work (saved_model/, train/) ---
from . import saved_model, train  # noqa: E402
# --- end SavedModel ---
# --- everyday top-level functions (API breadth sweep): masks, rolls, searches, shape checks, grouping ---
from ._src.ops.array.sequence_masks import reverse_sequence, roll, sequence_mask  # noqa: E402
from ._src.ops.array.searchsorted import searchsorted  # noqa: E402
from ._src.ops.array.static_shapes import (broadcast_dynamic_shape, broadcast_static_shape, ensure_shape,  # noqa: E402
                                     get_static_value, shape_n, unravel_index)
from ._src.ops.math.truncating import realdiv, saturate_cast, truncatediv, truncatemod  # noqa: E402
from ._src.ops.array.partitions import dynamic_partition, dynamic_stitch, histogram_fixed_width  # noqa: E402
from ._src.ops.control.dependencies import (control_dependencies, group, inside_function, no_op,  # noqa: E402
                                            timestamp, tuple)
from ._src.ops.array.initializers import (constant_initializer, ones_initializer, random_normal_initializer,  # noqa: E402
                                    random_uniform_initializer, zeros_initializer)
from ._src.autodiff.hessians import hessians, identity_n  # noqa: E402
from ._src.core.logger import get_logger  # noqa: E402
# --- end everyday top-level functions ---
