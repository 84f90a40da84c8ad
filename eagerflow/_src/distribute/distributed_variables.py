"""MirroredVariable and SyncOnReadVariable: what a Variable made in a Mirrored or MultiWorkerMirrored
strategy's scope becomes (TensorFlow's DistributedValues variables, with their class names).

The variable is made as usual and then given one of these classes (a subclass of its own class, so a
Keras weight stays a Keras weight): every op, tape and checkpoint that takes a Variable takes it.
`.values` / `experimental_local_results` hold one component per local replica.

- MirroredVariable (ON_WRITE, the default): the replicas hold the same value. Local replicas share
  this process's one CPU, so its components are views of the one storage. Written in a replica with
  an aggregation (SUM, MEAN, ONLY_FIRST_REPLICA), the replicas' values are combined first (a
  merge_call; across workers too) and the result written everywhere; with aggregation NONE each
  replica writes its own copy, as TensorFlow 2.21 allows.
- SyncOnReadVariable (ON_READ): each replica keeps its own value (component 0 is this variable's
  storage, the others their own), read and written locally inside a replica; read in the
  cross-replica context (or outside every scope) it is the replicas' SUM / MEAN over all workers, or
  the first local replica's value (ONLY_FIRST_REPLICA). Assigned there, a SUM variable's value is
  divided among the replicas so that it reads back whole; added to there, a Keras variable (a
  metric's state, which Keras updates there too) adds the update to its first replica's copy, where
  a tf.Variable refuses.
"""
from __future__ import annotations

import threading

import numpy as np

from ..ops.math import elementwise as _math
from ..state.variable_options import VariableAggregation, VariableSynchronization
from ..state.variables import Variable
from ..ops.variables import resource as _ops
from . import context as _context
from .values import DistributedValues

_making_components = threading.local()  # set while a SyncOnReadVariable makes its other replicas' copies


def check_distributable(variable):
    """TensorFlow's refusals for a variable made in a distribution strategy's scope."""
    if variable._synchronization is VariableSynchronization.NONE:
        raise ValueError("`NONE` variable synchronization mode is not supported with tf.distribute strategy. Please "
                         f"change the `synchronization` for variable: {variable.name}")
    if variable._aggregation is VariableAggregation.MEAN and not variable.dtype.is_floating:
        raise ValueError("creating distributed tf.Variable with aggregation=MEAN and a non-floating dtype is not "
                         "supported, please use a different aggregation or dtype")


def make_distributed(variable, strategy):
    """Turns `variable` (just made in `strategy`'s scope) into its Mirrored or SyncOnRead variable."""
    if getattr(_making_components, "active", False) or isinstance(variable, DistributedVariable):
        return
    check_distributable(variable)
    on_read = variable._synchronization is VariableSynchronization.ON_READ
    variable.__class__ = _distributed_class(SyncOnReadVariable if on_read else MirroredVariable, type(variable))
    variable._distribute_strategy = strategy
    if not on_read:
        variable._synchronization = VariableSynchronization.ON_WRITE
    variable._components = None
    if variable._array is not None:  # the replicas' copies start from the initial value (else on first use)
        variable.values


_classes = {}  # (kind, variable class) -> the distributed class made for it


def _distributed_class(kind, base):
    if issubclass(base, kind):
        return base
    key = (kind, base)
    if key not in _classes:
        if base is Variable:
            _classes[key] = kind
        else:  # e.g. a Keras weight: still a Keras weight to its users (name, repr), as Keras 3's wraps one
            _classes[key] = type(base.__name__, (kind, base), {"__module__": base.__module__,
                                                               "__qualname__": base.__qualname__,
                                                               "__repr__": base.__repr__, "__str__": base.__str__})
    return _classes[key]


def _base_name(variable):
    name = variable._name  # TensorFlow's form, "x:0" (a Keras weight's `name` is its short one)
    return name[:-2] if name.endswith(":0") else name


class DistributedVariable(Variable, DistributedValues):
    """A Variable with a component per local replica (see the module docstring)."""

    _is_distributed_variable = True  # Strategy.run hands it to every replica whole (values.select_replica)

    @property
    def distribute_strategy(self):
        return self._distribute_strategy

    @property
    def values(self):
        if self._components is None:
            self._components = tuple(self._make_component(i) for i in range(self._local_replica_count()))
        return self._components

    def _local_replica_count(self):
        return self._distribute_strategy.extended._num_local_replicas

    def _make_component(self, index):
        return _SharedComponent(self, index)

    def _local_index(self):
        """The local replica this code runs as, when it is one of this variable's strategy's replicas."""
        context = _context.get_replica_context()
        if context is None or context.strategy is not self._distribute_strategy:
            return None
        return getattr(context, "_local_index", 0)

    def __repr__(self):
        return DistributedValues.__repr__(self)

    __str__ = __repr__


class MirroredVariable(DistributedVariable):
    """Every replica holds the same value (see the module docstring)."""

    def _write(self, opdef, value, read_value):
        aggregation = self._aggregation
        if aggregation is VariableAggregation.NONE or self._local_index() is None:
            return Variable._write(self, opdef, value, read_value)

        def write_combined(strategy, per_replica):
            combined = _combine(strategy, aggregation, per_replica)
            Variable._write(self, opdef, combined, False)
            return self

        _context.get_replica_context().merge_call(write_combined, args=(value,))
        return self if read_value else None


def _combine(strategy, aggregation, per_replica):
    """The replicas' values as an aggregation combines them (all workers included). A value that is
    not a DistributedValues is every local replica's (the same object reached each of them)."""
    if isinstance(per_replica, DistributedValues):
        values = per_replica.values
    else:
        values = (per_replica,) * strategy.extended._num_local_replicas
    if aggregation is VariableAggregation.ONLY_FIRST_REPLICA:
        return values[0]
    op = "SUM" if aggregation is VariableAggregation.SUM else "MEAN"
    return strategy.extended.batch_all_reduce(op, [DistributedValues(values)])[0]


class SyncOnReadVariable(DistributedVariable):
    """Each replica keeps its own value, combined when read across replicas (see the module docstring)."""

    def _make_component(self, index):
        if index == 0:
            return _SharedComponent(self, 0)
        _making_components.active = True
        try:
            return Variable(np.array(self._array), trainable=False, name=f"{_base_name(self)}/replica_{index}",
                            dtype=self._dtype, synchronization=self._synchronization, aggregation=self._aggregation)
        finally:
            _making_components.active = False

    def _component(self, index):
        return self if index == 0 else self.values[index]

    # --- reading ---
    def _as_tensor(self):
        index = self._local_index()
        if index is not None:
            return super()._as_tensor() if index == 0 else self.values[index]._as_tensor()
        aggregation = self._aggregation
        if aggregation is VariableAggregation.NONE:
            raise ValueError("Could not convert from `tf.VariableAggregation` VariableAggregation.NONE to"
                             "`tf.distribute.ReduceOp` type")
        if aggregation is VariableAggregation.ONLY_FIRST_REPLICA:
            return super()._as_tensor()
        reads = [super()._as_tensor()] + [c._as_tensor() for c in self.values[1:]]
        op = "SUM" if aggregation is VariableAggregation.SUM else "MEAN"
        return self._distribute_strategy.extended.batch_all_reduce(op, [DistributedValues(reads)])[0]

    def numpy(self):
        value = np.asarray(self._as_tensor())
        return value[()] if value.ndim == 0 else value

    def __array__(self, dtype=None, copy=None):
        return np.array(np.asarray(self._as_tensor()), dtype=dtype)

    # --- writing ---
    def _write(self, opdef, value, read_value):
        index = self._local_index()
        if index is not None:
            if index == 0:
                return super()._write(opdef, value, read_value)
            self.values[index]._write(opdef, value, False)
            return self if read_value else None
        if self._aggregation is VariableAggregation.SUM:
            if opdef is not _ops.AssignVariableOp:
                self._refuse_cross_replica_update(opdef)
                super()._write(opdef, value, False)  # a Keras variable: the first replica's copy takes it
                return self if read_value else None
            count = self._distribute_strategy.num_replicas_in_sync
            value = _math.cast(_math.divide(value, count), self._dtype) if count > 1 else value
        super()._write(opdef, value, False)
        for component in self.values[1:]:
            component._write(opdef, value, False)
        if read_value and self._aggregation is VariableAggregation.NONE:
            self._as_tensor()  # TensorFlow reads the combined value back, which NONE cannot give
        return self if read_value else None

    def _refuse_cross_replica_update(self, opdef):
        """TensorFlow refuses an add/sub outside the replicas to a SUM variable. A Keras variable
        (`_updates_across_replicas`: a metric's state, which Keras updates there too) takes it into
        the first local replica's copy: the sum read back is the old one plus the update, exactly
        (integer counts too; Keras' own divides the new sum among the replicas), with no all-reduce."""
        if not getattr(self, "_updates_across_replicas", False):
            method = "assign_add" if opdef is _ops.AssignAddVariableOp else "assign_sub"
            raise ValueError(f"SyncOnReadVariable does not support `{method}` in cross-replica context when "
                             "aggregation is set to `tf.VariableAggregation.SUM`.")

    def _scatter_refused(self, method):
        raise NotImplementedError(f"Variables with `synchronization=ON_READ` doesn't support `{method}`")

    def scatter_update(self, *args, **kwargs):
        self._scatter_refused("scatter_update")

    def scatter_add(self, *args, **kwargs):
        self._scatter_refused("scatter_add")

    def scatter_sub(self, *args, **kwargs):
        self._scatter_refused("scatter_sub")

    def scatter_mul(self, *args, **kwargs):
        self._scatter_refused("scatter_mul")

    def scatter_div(self, *args, **kwargs):
        self._scatter_refused("scatter_div")

    def scatter_max(self, *args, **kwargs):
        self._scatter_refused("scatter_max")

    def scatter_min(self, *args, **kwargs):
        self._scatter_refused("scatter_min")


class _SharedComponent(Variable):
    """One local replica's copy that is the distributed variable's own storage: reads and writes go
    to it (through its handle), under the replica's name (`x:0`, `x/replica_1:0`)."""

    def __init__(self, owner, index):  # noqa: D107 - no Variable.__init__: nothing new is stored
        self._owner = owner
        base = _base_name(owner)
        self._name = f"{base}:0" if index == 0 else f"{base}/replica_{index}:0"

    def __getattr__(self, attribute):  # everything but the name is the owner's
        if attribute == "_owner":
            raise AttributeError(attribute)
        return getattr(self._owner, attribute)

    @property
    def _array(self):
        return Variable._array.fget(self._owner)

    @_array.setter
    def _array(self, value):
        Variable._array.fset(self._owner, value)

    def _as_tensor(self):
        return Variable._as_tensor(self._owner)

    def _write(self, opdef, value, read_value):
        Variable._write(self._owner, opdef, value, False)
        return self if read_value else None


def is_distributed_variable(value) -> bool:
    return isinstance(value, DistributedVariable)

