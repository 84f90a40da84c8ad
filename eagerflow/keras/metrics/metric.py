"""The base of every Keras metric: `Metric` keeps running statistics in non-trainable variables, so
`update_state` works eagerly and inside the tf.function that fit compiles (the variables are created
with the metric, outside any trace).

The state variables are Keras' on-read ("on_read", aggregated by "sum" unless asked otherwise): made
in a distribution strategy's scope they are SyncOnReadVariables, so each replica (and each worker)
counts its own batches and `result()` read outside the replicas is the whole job's."""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from ..naming import to_snake_case
from ..variables import KerasVariable


class Metric:
    _direction = None  # 'up' or 'down': which way is better (monitoring callbacks in mode='auto' read it)

    def __init__(self, name=None, dtype=None):
        self.name = name or to_snake_case(type(self).__name__)
        self._dtype = _dt.float32
        self._metric_variables = []

    def add_variable(self, name, shape=(), initializer="zeros", dtype=None, aggregation="sum"):
        """A state variable named as Keras 3 names it: `name` is "total", `path` is "<metric
        name>/total" (the metric's name when the variable is made); on-read, combined by `aggregation`."""
        dtype = _dt.as_dtype(dtype or "float32")
        shape = tuple(shape)
        zeros = initializer is None or (isinstance(initializer, str) and initializer == "zeros")
        value = np.zeros(shape, dtype.np_dtype) if zeros else _initial_value(initializer, shape, dtype)
        v = KerasVariable(value, trainable=False, name=name, path=f"{self.name}/{name}", dtype=dtype,
                          aggregation=aggregation, synchronization="on_read")
        self._metric_variables.append(v)
        return v

    @property
    def variables(self):
        return list(self._metric_variables)

    def reset_state(self):
        for v in self._metric_variables:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.np_dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError

    def result(self):
        raise NotImplementedError

    def __call__(self, *args, **kwargs):
        self.update_state(*args, **kwargs)
        return self.result()

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _initial_value(initializer, shape, dtype):
    from .. import initializers
    value = initializers.get(initializer)(shape, dtype=dtype.name)
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype.np_dtype)


class NamedMetric:
    """get_config of a metric whose only settings are its name and dtype (Keras 3's layout), so a
    compiled model's metric objects survive `.keras` saving."""

    def get_config(self):
        return {"name": self.name, "dtype": "float32"}
