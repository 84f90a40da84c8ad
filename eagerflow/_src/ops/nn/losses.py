"""Losses (`tf.nn`): softmax and sparse softmax cross-entropy, sigmoid cross-entropy, l2_loss.

The two softmax cross-entropies are real ops (as in TensorFlow), computing the loss and its
backprop in one pass from a shifted log-softmax so neither overflows; their gradients reuse the
Softmax and LogSoftmax ops of ops/nn/basic.py. Ranks other than 2 are flattened to [batch, classes].
"""
from __future__ import annotations

import math as _pymath

import numpy as np

from ...core import context as _context
from ...core import dtypes as _dt
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from ..array import basic as _array
from ..math import elementwise as _math
from ..math import reduce as _reduce
from .. import shape_rules as R
from .basic import LogSoftmax, Softmax, relu
from ..operands import as_tensor
from ..registry import Spec, bind, defop, static_value
from ..lazy_jax import jnp  # callables that import JAX on first use only

# ----------------------------------------------------------------------------------------------
# Cross-entropy losses
# ----------------------------------------------------------------------------------------------


def _xent_grad_features(op, g_loss, g_backprop):
    """d/d features of (loss, backprop): the loss term uses backprop = softmax - labels; the
    backprop output (used only by second derivatives) contributes through softmax's Jacobian."""
    features, backprop = op.inputs[0], op.outputs[1]
    # sparse_output_grads: a gradient is None for an output nothing depended on (the usual case for
    # backprop), so the Softmax of the second term is built only when a second derivative needs it.
    gf = None if g_loss is None else _array.reshape(g_loss, [-1, 1]) * backprop
    if g_backprop is not None:
        gg = static_value(g_backprop)
        if gg is None or np.any(gg):
            sm = bind(Softmax, (features,))
            term = (g_backprop - _reduce.reduce_sum(g_backprop * sm, -1, keepdims=True)) * sm
            gf = term if gf is None else gf + term
    return gf


def _xent_kernel(features, labels):
    shifted = features - np.max(features, axis=1, keepdims=True)
    log_sm = shifted - np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))
    labels = np.broadcast_to(labels, log_sm.shape)
    loss = -np.sum(labels * log_sm, axis=1)
    return loss.astype(features.dtype, copy=False), (np.exp(log_sm) - labels).astype(features.dtype, copy=False)


def _xent_infer(inputs, attrs):
    features, labels = inputs
    R.check_same_dtype("SoftmaxCrossEntropyWithLogits", inputs)
    R.check_dtype_in("SoftmaxCrossEntropyWithLogits", features.dtype, R.FLOATS, "features")
    try:
        shape = R.broadcast_shape(features.shape, labels.shape)
    except InvalidArgumentError:
        if R.graph_shape_check(inputs):
            raise InvalidArgumentError(None, None, "Dimensions must be equal, but are {} and {}".format(
                *R.broadcast_mismatch(features.shape, labels.shape))) from None
        raise InvalidArgumentError(None, None, f"logits and labels must be broadcastable: logits_size="
                                               f"{R.fmt_dims(features.shape)} labels_size="
                                               f"{R.fmt_dims(labels.shape)}") from None
    if shape.rank is not None and shape.rank != 2:
        raise InvalidArgumentError(None, None, "logits and labels must be either 2-dimensional, or "
                                               "broadcasted to be 2-dimensional")
    batch = shape[0] if shape.rank == 2 else None
    return [Spec(TensorShape([batch]), features.dtype), Spec(shape, features.dtype)]


def _xent_grad(op, g_loss, g_backprop):
    features, labels = op.inputs
    gl = _array.reshape(g_loss, [-1, 1]) * _math.negative(bind(LogSoftmax, (features,))) - g_backprop
    return (_math.sum_to(_xent_grad_features(op, g_loss, g_backprop), features), _math.sum_to(gl, labels))


SoftmaxCrossEntropyWithLogits = defop(
    "SoftmaxCrossEntropyWithLogits", inputs=("features", "labels"), kernel=_xent_kernel, infer=_xent_infer,
    grad=_xent_grad, multi_output=True)


def _sparse_xent_kernel(features, labels):
    """loss = log(sum(exp(shifted))) - shifted[label], backprop = softmax - one_hot, with
    shifted = features - max: one exp over the logits, as the kernel a careful NumPy programmer
    writes (this runs once per training step)."""
    classes = features.shape[1]
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        bad = (labels < 0) | (labels >= classes)
        first = labels[np.argmax(bad)]
        shown = " ".join(str(int(v)) for v in labels)
        raise InvalidArgumentError(None, None, f"Received a label value of {first} which is outside the valid "
                                               f"range of [0, {classes}).  Label values: {shown}")
    shifted = features - features.max(axis=1, keepdims=True)
    backprop = np.exp(shifted)
    total = backprop.sum(axis=1, keepdims=True)
    rows = np.arange(features.shape[0])
    loss = np.log(total[:, 0])
    loss -= shifted[rows, labels]
    backprop /= total
    backprop[rows, labels] -= 1
    return loss.astype(features.dtype, copy=False), backprop.astype(features.dtype, copy=False)


def _sparse_xent_infer(inputs, attrs):
    features, labels = inputs
    R.check_dtype_in("SparseSoftmaxCrossEntropyWithLogits", features.dtype, R.FLOATS, "features")
    R.check_dtype_in("SparseSoftmaxCrossEntropyWithLogits", labels.dtype, (_dt.int32, _dt.int64), "labels")
    fs, ls = features.shape, labels.shape
    if fs.rank is not None and fs.rank != 2:
        raise InvalidArgumentError(None, None, f"logits must be 2-D, but got shape {R.fmt_dims(fs)}")
    if ls.rank is not None and ls.rank != 1:
        raise InvalidArgumentError(None, None, f"labels must be 1-D, but got shape {R.fmt_dims(ls)}")
    batch = fs[0] if fs.rank == 2 else None
    if ls.rank == 1 and batch is not None and ls[0] is not None and ls[0] != batch:
        raise InvalidArgumentError(None, None, f"logits and labels must have the same first dimension, got "
                                               f"logits shape {R.fmt_dims(fs)} and labels shape {R.fmt_dims(ls)}")
    if batch is None and ls.rank == 1:
        batch = ls[0]
    return [Spec(TensorShape([batch]), features.dtype), Spec(fs if fs.rank else TensorShape([batch, None]),
                                                             features.dtype)]


SparseSoftmaxCrossEntropyWithLogits = defop(
    "SparseSoftmaxCrossEntropyWithLogits", inputs=("features", "labels"), kernel=_sparse_xent_kernel,
    infer=_sparse_xent_infer, multi_output=True, sparse_output_grads=True,
    grad=lambda op, g_loss, g_backprop: (_xent_grad_features(op, g_loss, g_backprop), None))


def _static_dims(x):
    return x.shape.as_list() if x.shape.is_fully_defined() else None


def _leading_shape(x):
    """shape(x)[:-1], statically when known (the reshape target for per-example losses)."""
    dims = _static_dims(x)
    if dims is not None:
        return dims[:-1]
    return _array.shape(x)[:-1]


def _move_to_last(x, axis):
    """x with `axis` moved to the end, the other axes keeping their order (so per-example losses
    come out in the input's order)."""
    rank = x.shape.rank
    axis = int(axis)
    if axis == -1 or (rank is not None and axis == rank - 1):
        return x
    if rank is None:
        raise ValueError(f"cross-entropy over axis {axis} needs a tensor of known rank")
    axis %= rank
    return _array.transpose(x, [i for i in range(rank) if i != axis] + [axis])


def _upcast_half(x):
    return _math.cast(x, _dt.float32) if x.dtype is _dt.float16 else x


def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """`tf.nn.softmax_cross_entropy_with_logits` (v2): per-example cross-entropy; gradients reach
    both logits and labels. Other axes than the last are moved last; higher ranks are flattened."""
    logits = as_tensor(logits)
    in_dtype = logits.dtype
    logits = _upcast_half(logits)
    labels = _math.cast(as_tensor(labels), logits.dtype)
    logits, labels = _move_to_last(logits, axis), _move_to_last(labels, axis)
    rank = logits.shape.rank
    if rank == 0:
        raise InvalidArgumentError(None, None, "logits must have >= 1 dimension, got []")
    if rank == 2:
        loss, _ = bind(SoftmaxCrossEntropyWithLogits, (logits, labels))
    else:
        lead = _leading_shape(logits)
        classes = logits.shape[-1] if rank is not None and logits.shape[-1] is not None else -1
        flat_logits = _array.reshape(logits, [-1, classes])
        flat_labels = _array.reshape(labels, [-1, classes])
        loss, _ = bind(SoftmaxCrossEntropyWithLogits, (flat_logits, flat_labels))
        loss = _array.reshape(loss, lead)
    return _math.cast(loss, in_dtype) if in_dtype is not loss.dtype else loss


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """`tf.nn.sparse_softmax_cross_entropy_with_logits`: integer class labels of rank
    `rank(logits) - 1`; a label outside [0, classes) raises InvalidArgumentError."""
    logits = as_tensor(logits)
    labels = as_tensor(labels, _dt.int32)
    lr, gr = labels.shape.rank, logits.shape.rank
    if lr is not None and gr is not None:
        if gr == 0:
            raise ValueError(f"Logits cannot be scalars - received shape {logits.shape}.")
        if lr != gr - 1:
            raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: labels.shape="
                             f"{tuple(labels.shape.as_list())} of rank {lr} and logits.shape="
                             f"{tuple(logits.shape.as_list())} of rank {gr}")
        if not labels.shape.is_compatible_with(logits.shape[:-1]):
            raise ValueError(f"`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                             f"labels.shape={tuple(labels.shape.as_list())} and logits.shape="
                             f"{tuple(logits.shape.as_list())}")
    # the shapes first, as TensorFlow's Python checks them before the op refuses the labels' dtype
    R.check_dtype_in("SparseSoftmaxCrossEntropyWithLogits", labels.dtype, (_dt.int32, _dt.int64), "labels")
    in_dtype = logits.dtype
    logits = _upcast_half(logits)
    if gr == 2:
        loss, _ = bind(SparseSoftmaxCrossEntropyWithLogits, (logits, labels))
    else:
        lead = _leading_shape(logits)
        classes = logits.shape[-1] if gr is not None and logits.shape[-1] is not None else -1
        loss, _ = bind(SparseSoftmaxCrossEntropyWithLogits,
                       (_array.reshape(logits, [-1, classes]), _array.reshape(labels, [-1])))
        loss = _array.reshape(loss, lead)
    return _math.cast(loss, in_dtype) if in_dtype is not loss.dtype else loss


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """`tf.nn.sigmoid_cross_entropy_with_logits`: max(x, 0) - x * z + log(1 + exp(-|x|)), the
    form that neither overflows for large |x| nor loses precision."""
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")
    logits = as_tensor(logits)
    labels = as_tensor(labels, logits.dtype)
    if labels.dtype is not logits.dtype:
        labels = _math.cast(labels, logits.dtype)
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({tuple(logits.shape.as_list())} vs {tuple(labels.shape.as_list())}).")
    zeros = _array.zeros_like(logits)
    relu_logits = _array.where(_math.greater_equal(logits, zeros), logits, zeros)
    neg_abs = _array.where(_math.greater_equal(logits, zeros), _math.negative(logits), logits)
    return relu_logits - logits * labels + _math.log1p(_math.exp(neg_abs))

# ----------------------------------------------------------------------------------------------
# L2Loss
# ----------------------------------------------------------------------------------------------


def _l2_loss_kernel(x):
    """Each square halved before the sum, in x's dtype, as TensorFlow's kernel: float16 [200, 200, 200]
    gives 60000 (summing the squares first would pass float16's largest value, 65504)."""
    halves = np.square(x) * x.dtype.type(0.5)
    if x.dtype.itemsize > 2:
        return np.asarray(np.sum(halves, dtype=x.dtype), dtype=x.dtype)
    return np.asarray(_half_sum_as_tensorflow(halves.ravel()), dtype=x.dtype)


def _half_sum_as_tensorflow(v, lanes=8):
    """A float16/bfloat16 sum rounded where TensorFlow's vectorised CPU reduction rounds: 8 running
    sums in the dtype over the leading multiple of 8 values, the rest added one by one in the dtype,
    the 8 sums added pairwise in float32; so [64, 1, 1, 1, 1] halved sums to 2048, not 2050."""
    dt = v.dtype.type
    whole = len(v) // lanes * lanes
    tail = dt(0)
    for t in v[whole:]:
        tail = dt(tail + t)
    if not whole:
        return tail
    acc = np.zeros(lanes, v.dtype)
    for block in v[:whole].reshape(-1, lanes):
        acc = (acc + block).astype(v.dtype)
    acc = acc.astype(np.float32)
    while len(acc) > 1:
        acc = acc[:len(acc) // 2] + acc[len(acc) // 2:]
    return dt(tail + dt(acc[0]))


def _l2_loss_infer(inputs, attrs):
    R.check_dtype_in("L2Loss", inputs[0].dtype, R.FLOATS, "t")
    return [Spec(TensorShape([]), inputs[0].dtype)]


L2Loss = defop("L2Loss", inputs=("t",), infer=_l2_loss_infer,
               kernel=lambda x: _l2_loss_kernel(x),
               grad=lambda op, g: op.inputs[0] * g)


def l2_loss(t, name=None):
    """`tf.nn.l2_loss`: sum(t ** 2) / 2."""
    return bind(L2Loss, (as_tensor(t),))

# --- JAX lowerings (jit_compile=True, codegen/xla.py); labels are valid under XLA (no range check) ---


def _jax_log_softmax(features):
    shifted = features - jnp.max(features, axis=1, keepdims=True)
    return shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis=1, keepdims=True))


def _jax_xent(features, labels):
    log_sm = _jax_log_softmax(features)
    labels = jnp.broadcast_to(labels, log_sm.shape)
    return (-jnp.sum(labels * log_sm, axis=1)).astype(features.dtype), (jnp.exp(log_sm) - labels).astype(features.dtype)


def _jax_sparse_xent(features, labels):
    log_sm = _jax_log_softmax(features)
    picked = jnp.take_along_axis(log_sm, labels.astype(np.int64)[:, None], axis=1)[:, 0]
    onehot = (labels[:, None] == jnp.arange(features.shape[1])[None, :]).astype(features.dtype)
    return (-picked).astype(features.dtype), (jnp.exp(log_sm) - onehot).astype(features.dtype)


SoftmaxCrossEntropyWithLogits.jax = _jax_xent
SparseSoftmaxCrossEntropyWithLogits.jax = _jax_sparse_xent
L2Loss.jax = lambda x: jnp.sum(jnp.square(x) * jnp.asarray(0.5, x.dtype), dtype=x.dtype)


# --- composed from ops (TensorFlow's Python wrappers): they trace and differentiate through them ---


def _c(value, like):
    return as_tensor(value, like.dtype)


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """`tf.nn.weighted_cross_entropy_with_logits`: sigmoid cross entropy whose positive term is
    scaled by `pos_weight`, in TensorFlow's overflow-free form
    (1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + relu(-x))."""
    x = as_tensor(logits)
    z = as_tensor(labels, x.dtype)
    log_weight = 1 + (pos_weight - 1) * z
    return (1 - z) * x + log_weight * (_math.log1p(_math.exp(-_math.abs(x))) + relu(-x))


def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """`tf.nn.log_poisson_loss`: exp(c) - z c; with `compute_full_loss` the Stirling term
    z log z - z + 0.5 log(2 pi z) is added where z > 1."""
    c = as_tensor(log_input)
    z = as_tensor(targets, c.dtype)
    if c.shape.rank is not None and z.shape.rank is not None and not c.shape.is_compatible_with(z.shape):
        raise ValueError(f"`log_input` and `targets` must have the same shape, received "
                         f"({tuple(c.shape.as_list())} vs {tuple(z.shape.as_list())}).")
    result = _math.exp(c) - c * z
    if compute_full_loss:
        stirling = z * _math.log(z) - z + 0.5 * _math.log(_c(2 * _pymath.pi, z) * z)
        small = _math.logical_and(_math.greater_equal(z, _c(0, z)), _math.less_equal(z, _c(1, z)))
        result = result + _array.where(small, _array.zeros_like(z), stirling)
    return result


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """`tf.nn.compute_average_loss`: sum(loss * weight) / global_batch_size (one replica: by
    default the batch's size, the first dimension). Integer losses are averaged in float64, as
    TensorFlow does."""
    loss = as_tensor(per_example_loss)
    if loss.shape.rank == 0:
        raise ValueError(f"Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={loss} with rank 0")
    if not loss.dtype.is_floating:
        loss = _math.cast(loss, _dt.float64)
    if sample_weight is not None:
        loss = loss * as_tensor(sample_weight, loss.dtype)
    replicas = _replicas_in_replica_context("compute_average_loss")
    if global_batch_size is None:  # under tf.distribute: this replica's batch times the replicas
        batch = _array.shape(loss)[0] * replicas
    else:
        batch = as_tensor(global_batch_size)
        value = static_value(batch)
        if value is not None and np.any(np.asarray(value) < 0):
            raise InvalidArgumentError(None, None, f"global_batch_size must be non-negative.  Condition x >= 0 did "
                                                   f"not hold element-wise: x (shape=() dtype={batch.dtype.name}) = "
                                                   f"{value}")
    return _math.div_no_nan(_reduce.reduce_sum(loss), _math.cast(batch, loss.dtype))


def scale_regularization_loss(regularization_loss):
    """`tf.nn.scale_regularization_loss`: the sum of the losses (a list is stacked) divided by the
    number of replicas in sync (tf.distribute's; one without a strategy)."""
    replicas = _replicas_in_replica_context("scale_regularization_loss")
    loss = as_tensor(regularization_loss)
    return _reduce.reduce_sum(loss) / _c(replicas, loss)


def _replicas_in_replica_context(caller):
    """num_replicas_in_sync for a loss that averages over every replica's examples; TensorFlow's
    RuntimeError when called in a strategy's cross-replica context."""
    replicas, cross_replica = _context.replica_info()
    if cross_replica:
        raise RuntimeError(f"You are calling `{caller}` in cross replica context, while it was expected to be called "
                           "in replica context.")
    return replicas
