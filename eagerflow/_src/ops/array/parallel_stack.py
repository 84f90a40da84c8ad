"""`tf.parallel_stack`: `tf.stack` along a new first axis, for graphs only.

TensorFlow builds it as one ParallelConcat node that copies each input into its slot as soon as that
input is ready; the values are those of `stack(values)`, which is what the graph gets here (Pack).
TensorFlow refuses it eagerly, and so does this; an empty list has no first value to take the shape
from, which TensorFlow reports as Python's IndexError.
"""
from __future__ import annotations

from ...core.context import state
from .joining import stack


def parallel_stack(values, name="parallel_stack"):
    """`tf.parallel_stack`: the values stacked along a new first axis (inside tf.function only)."""
    if state.graph is None:
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    values = list(values)
    values[0]  # noqa: B018 - TensorFlow reads the first value's shape first: IndexError for an empty list
    return stack(values, 0, name)
