"""The distribution options a Variable accepts: `tf.VariableSynchronization`, `tf.VariableAggregation`.

Why they exist here: programs written for `tf.distribute` pass them to every Variable (Keras
does), and TensorFlow validates them even with one device. There is one replica here, so they
change nothing but what the variable reports, and one rule: an ON_READ variable is not trainable
unless asked (TF 2.21 leaves `trainable=True` with ON_READ allowed).
"""
from __future__ import annotations

import enum


class VariableSynchronization(enum.Enum):
    """When a distributed variable is aggregated (TensorFlow's values and order)."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """How a distributed variable's per-replica updates are combined (TensorFlow's values and order)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def check_synchronization(value, name):
    """The validated synchronization mode (AUTO for None); TF's ValueError for anything else,
    strings included ("auto" is refused by TensorFlow too)."""
    if value is None:
        return VariableSynchronization.AUTO
    if not isinstance(value, VariableSynchronization):
        raise ValueError(f"Invalid variable synchronization mode: {value} for variable: {name}")
    return value


def check_aggregation(value, name):
    if value is None:
        return VariableAggregation.NONE
    if not isinstance(value, VariableAggregation):
        raise ValueError(f"Invalid variable aggregation mode: {value} for variable: {name}")
    return value


def check_constraint(constraint):
    """A constraint is a callable applied by optimizers after each update (`v.assign(c(v))`)."""
    if constraint is not None and not callable(constraint):
        # NOTE: TensorFlow 2.21's message repeats "a callable." and has two spaces before the value.
        raise ValueError(f"Argument `constraint` must be None or a callable. a callable. Got a "
                         f"{type(constraint)}:  {constraint}")
    return constraint


def default_trainable(trainable, synchronization):
    if trainable is None:
        return synchronization is not VariableSynchronization.ON_READ
    return bool(trainable)
