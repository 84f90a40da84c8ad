"""`PerReplica` as a tf.function argument or result: its type spec (one TensorSpec per replica), so a
traced distributed step is keyed by its replicas' dtypes and shapes and fed their tensors, as
TensorFlow's composite values are (trace/signature.py, placeholders.py and call_binding.py read
this protocol; SparseTensorSpec in composite/ is the model)."""
from __future__ import annotations

from ..core.tensor import TensorSpec


def _dims(shape):
    return None if shape.rank is None else tuple(shape.as_list())


class PerReplicaSpec:
    """The type of a PerReplica: the TensorSpec of each replica's value, in replica order."""

    __slots__ = ("_specs",)

    def __init__(self, specs):
        self._specs = tuple(specs)

    @property
    def value_type(self):
        from .values import PerReplica
        return PerReplica

    def _component_specs(self):
        return self._specs

    def __eq__(self, other):
        return type(other) is PerReplicaSpec and self._composite_key(None) == other._composite_key(None)

    def __hash__(self):
        return hash(self._composite_key(None))

    def __repr__(self):
        return f"PerReplicaSpec({list(self._specs)!r})"

    # --- tracing ---
    def _composite_key(self, tensors):
        return ("C", PerReplicaSpec) + tuple(("T", s.dtype, _dims(s.shape)) for s in self._specs)

    @staticmethod
    def _from_key(*parts):
        return PerReplicaSpec([TensorSpec(None if dims is None else list(dims), dtype) for _, dtype, dims in parts])

    def _placeholders(self, placeholder):
        from .values import PerReplica
        return PerReplica([placeholder(s) for s in self._specs])

    def bind_value(self, value, flat):
        """A ConcreteFunction's argument check: a PerReplica whose values fit the specs."""
        from .values import PerReplica
        if not isinstance(value, PerReplica) or len(value.values) != len(self._specs):
            return f"Can not cast {value!r} to {self!r}"
        for part, spec in zip(value.values, self._specs):
            if part.dtype is not spec.dtype or not spec.shape.is_compatible_with(part.shape):
                return f"Can not cast {TensorSpec(part.shape, part.dtype)!r} to {spec!r}"
        flat.extend(value.values)
        return True
