"""The weights a Keras layer owns: a tf.Variable that also knows Keras 3's short name and path.

Why a subclass: Keras 3 reports `kernel.name == "kernel"` and `kernel.path == "dense/kernel"`,
while a tf.Variable's name carries ":0". Everything else (ops, tapes, tf.function capture) treats
it as the tf.Variable it is.

`aggregation` and `synchronization` are Keras' words ("sum", "on_read", ...), as Keras 3 reports
them; the tf.Variable underneath gets TensorFlow's enums, which is what a distribution strategy's
scope reads: a metric's "sum"/"on_read" state becomes a SyncOnReadVariable there, read as the sum
over every replica outside them.
"""
from __future__ import annotations

from .._src.ops.math.elementwise import cast
from .._src.state.variable_options import VariableAggregation, VariableSynchronization
from .._src.state.variables import Variable
from .mixed_precision import autocast_dtype

_AGGREGATIONS = {"none": VariableAggregation.NONE, "mean": VariableAggregation.MEAN, "sum": VariableAggregation.SUM,
                 "only_first_replica": VariableAggregation.ONLY_FIRST_REPLICA}
_SYNCHRONIZATIONS = {"none": VariableSynchronization.NONE, "on_read": VariableSynchronization.ON_READ,
                     "on_write": VariableSynchronization.ON_WRITE, "auto": VariableSynchronization.AUTO}


def _keras_option(value, argument, choices):
    """A distribution option in Keras' words, validated as Keras does (None: the default)."""
    if value is None:
        return "none" if argument == "aggregation" else "auto"
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(f"`'{c}'`" for c in choices)
        raise ValueError(f"Invalid value for argument `{argument}`. Expected one of `None`, {listed}. "
                         f"Received: {argument}={value}")
    return value


class KerasVariable(Variable):
    # Made an on-read "sum" variable in a strategy's scope, an add outside the replicas adds to the
    # replicas' sum (Keras updates metrics there; a bare tf.Variable refuses): distributed_variables.py
    _updates_across_replicas = True

    def __init__(self, initial_value, trainable=True, name="variable", path=None, dtype=None, constraint=None,
                 regularizer=None, aggregation="none", synchronization="auto", autocast=True):
        aggregation = _keras_option(aggregation, "aggregation", _AGGREGATIONS)
        synchronization = _keras_option(synchronization, "synchronization", _SYNCHRONIZATIONS)
        self._keras_options = (aggregation, synchronization)  # set first: a strategy's hook runs inside __init__
        self._autocast = bool(autocast)  # False: read in its own dtype inside a mixed-precision call
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype, constraint=constraint,
                         aggregation=_AGGREGATIONS[aggregation], synchronization=_SYNCHRONIZATIONS[synchronization])
        self._keras_name = name
        self._path = path or name
        self.regularizer = regularizer  # evaluated by the owning layer's `losses` (Keras 3 keeps it on the weight)
        self.overwrite_with_gradient = False  # True: the optimizer assigns the gradient (optimizers/base.py)

    @property
    def name(self) -> str:
        return self._keras_name

    @property
    def aggregation(self) -> str:
        return self._keras_options[0]

    @property
    def synchronization(self) -> str:
        return self._keras_options[1]

    @property
    def constraint(self):
        return self._constraint

    @constraint.setter
    def constraint(self, value):
        self._constraint = value

    @property
    def path(self) -> str:
        return self._path

    @property
    def value_shape(self):
        return self._array.shape

    def _as_tensor(self):
        """The value; inside a mixed-precision layer's call, a float weight reads as the layer's compute
        dtype (keras/mixed_precision.py), so its gradient comes back through the Cast as float32."""
        value = Variable._as_tensor(self)
        target = autocast_dtype()
        if target is not None and target is not self._dtype and self._dtype.is_floating and self._autocast:
            return cast(value, target)
        return value

    def __repr__(self):
        return (f"<KerasVariable shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}, "
                f"path={self._path}>")
