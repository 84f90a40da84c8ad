"""SpaceToDepth / DepthToSpace (NHWC): moving block_size x block_size pixel blocks into channels
and back. Each is the other's gradient, since both are pure permutations of the elements.

Output channel order is TensorFlow's: in SpaceToDepth, the value at block offset (bh, bw) and input
channel c lands in channel (bh * block_size + bw) * C + c.
"""
from __future__ import annotations

from ...core.context import state
from ...core.errors import InvalidArgumentError
from ...core.shape import TensorShape
from .. import shape_rules as R
from ..operands import as_tensor
from ..registry import Spec, bind, defop
from ..shape_rules import rank_message
from ..nn.windows import check_format
from ..lazy_jax import jnp  # callables that import JAX on first use only


def _space_to_depth_kernel(x, block_size):
    b = int(block_size)
    n, h, w, c = x.shape
    _check_space(h, w, b)
    return x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5).reshape(n, h // b, w // b, b * b * c)


def _depth_to_space_kernel(x, block_size):
    b = int(block_size)
    n, h, w, c = x.shape
    _check_depth(c, b)
    return x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5).reshape(n, h * b, w * b, c // (b * b))


def _check_space(h, w, b, graph_words=False):
    """TensorFlow words the refusal differently eagerly (the kernel) and while tracing (the shape function)."""
    if graph_words:
        for d in (h, w):
            if d is not None and d % b:
                raise InvalidArgumentError(None, None, f"Dimension size must be evenly divisible by {b} but is {d}")
    if (h is not None and h % b) or (w is not None and w % b):
        raise InvalidArgumentError(None, None, f"Image width {w} and height {h} should be divisible by block_size: {b}")


def _check_depth(c, b, graph_words=False):
    if graph_words and c is not None and c % (b * b):
        raise InvalidArgumentError(None, None, f"Dimension size must be evenly divisible by {b * b} but is {c}")
    if c is not None and c % (b * b):
        raise InvalidArgumentError(None, None, f"Input depth dimension {c} should be divisible by: {b * b}")


def _rule(op_name):
    def infer(inputs, attrs):
        x = inputs[0]
        b = int(attrs["block_size"])
        if b < 2:
            raise InvalidArgumentError(None, None, f"Value for attr 'block_size' of {b} must be at least minimum 2")
        if x.shape.rank is None:
            return [Spec(TensorShape([None] * 4), x.dtype)]
        if x.shape.rank != 4:
            raise InvalidArgumentError(None, None, rank_message(x.shape.rank, f"Input rank should be 4 instead of "
                                                                              f"{x.shape.rank}"))
        n, h, w, c = x.shape
        if op_name == "SpaceToDepth":
            _check_space(h, w, b, graph_words=state.graph is not None)
            dims = [n, _div(h, b), _div(w, b), None if c is None else c * b * b]
        else:
            _check_depth(c, b, graph_words=state.graph is not None)
            dims = [n, None if h is None else h * b, None if w is None else w * b, _div(c, b * b)]
        return [Spec(TensorShape(dims), x.dtype)]
    return infer


def _div(d, b):
    return None if d is None else d // b


SpaceToDepth = defop("SpaceToDepth", inputs=("input",), kernel=_space_to_depth_kernel, infer=_rule("SpaceToDepth"),
                     grad=lambda op, g: bind(DepthToSpace, (g,), op.attrs))
DepthToSpace = defop("DepthToSpace", inputs=("input",), kernel=_depth_to_space_kernel, infer=_rule("DepthToSpace"),
                     grad=lambda op, g: bind(SpaceToDepth, (g,), op.attrs))


def _public(opdef, input, block_size, data_format):
    check_format(data_format)
    x = as_tensor(input)
    attrs = {"block_size": int(block_size)}
    return bind(opdef, (x,), attrs)


def space_to_depth(input, block_size, data_format="NHWC", name=None):
    """`tf.nn.space_to_depth`: [N, H, W, C] -> [N, H/b, W/b, b*b*C]."""
    return _public(SpaceToDepth, input, block_size, data_format)


def depth_to_space(input, block_size, data_format="NHWC", name=None):
    """`tf.nn.depth_to_space`: [N, H, W, C] -> [N, H*b, W*b, C/(b*b)]."""
    return _public(DepthToSpace, input, block_size, data_format)


# --- JAX lowerings (jit_compile=True, codegen/xla.py): the same reshape-transpose-reshape ---


def _jax_space_to_depth(x, block_size):
    b = int(block_size)
    n, h, w, c = x.shape
    return jnp.reshape(jnp.transpose(jnp.reshape(x, (n, h // b, b, w // b, b, c)), (0, 1, 3, 2, 4, 5)),
                       (n, h // b, w // b, b * b * c))


def _jax_depth_to_space(x, block_size):
    b = int(block_size)
    n, h, w, c = x.shape
    return jnp.reshape(jnp.transpose(jnp.reshape(x, (n, h, w, b, b, c // (b * b))), (0, 1, 3, 2, 4, 5)),
                       (n, h * b, w * b, c // (b * b)))


SpaceToDepth.jax = _jax_space_to_depth
DepthToSpace.jax = _jax_depth_to_space
