"""`tf.distribute.ReduceOp`: how values from several replicas are combined."""
from __future__ import annotations

import enum

from ..state.variable_options import VariableAggregation


class ReduceOp(enum.Enum):
    """SUM adds the replicas' values; MEAN divides that sum by the number of values combined."""
    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        mapping = {VariableAggregation.SUM: ReduceOp.SUM, VariableAggregation.MEAN: ReduceOp.MEAN}
        if aggregation not in mapping:
            raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to"
                             "`tf.distribute.ReduceOp` type")
        return mapping[aggregation]


def as_reduce_op(value) -> ReduceOp:
    """A ReduceOp, or its name ("SUM", "MEAN"), as `Strategy.reduce` accepts both."""
    if isinstance(value, ReduceOp):
        return value
    if isinstance(value, str) and value.upper() in ReduceOp.__members__:
        return ReduceOp[value.upper()]
    raise ValueError(f"Unsupported reduce op: {value!r}; expected tf.distribute.ReduceOp.SUM or MEAN")
