"""The base of every Keras metric: `Metric` keeps running statistics in non-trainable variables, so
`update_state` works eagerly and inside the tf.function that fit compiles (the variables are created
with the metric, outside any trace).

The state variables are Keras' on-read ("on_read", aggregated by "sum" unless asked otherwise): made
in a distribution strategy's scope they are SyncOnReadVariables, so each replica (and each worker)
counts its own batches and `result()` read outside the replicas is the whole job's."""
from __future__ import annotations

import numpy as np

from ..._src.core import dtypes as _dt
from .. import mixed_precision as _mixed
from ..naming import to_snake_case, unique_name
from ..variables import KerasVariable


class Metric:
    _direction = None  # 'up' or 'down': which way is better (monitoring callbacks in mode='auto' read it)

    def __init__(self, dtype=None, name=None):  # Keras 3.15's order
        self.name = name or to_snake_case(type(self).__name__)
        self._dtype = _dt.as_dtype(_mixed.get(dtype).compute_dtype)  # a policy's compute dtype, as Keras
        self._metric_variables = []

    @property
    def dtype(self):
        """The metric's dtype name ("float32" unless given); its state variables default to float32."""
        return self._dtype.name

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """A state variable as Keras 3.15 makes it (its argument order): non-trainable, on-read,
        combined across replicas by `aggregation`; `name` "total" gets the path "<metric
        name>/total" (a "/" in the metric's name reads ">", as in Keras), an unnamed one
        "variable", "variable_1", ... session-wide."""
        zeros = isinstance(initializer, str) and initializer == "zeros"
        init = None if zeros else _initializer(initializer)  # checked first, as Keras does
        dtype = _dt.as_dtype(dtype or "float32")
        shape = tuple(shape)
        value = np.zeros(shape, dtype.np_dtype) if zeros else _initial_value(init, shape, dtype)
        name = name or unique_name("variable")
        v = KerasVariable(value, trainable=False, name=name, path=f"{self.name.replace('/', '>')}/{name}",
                          dtype=dtype, aggregation=aggregation, synchronization="on_read")
        self._metric_variables.append(v)
        return v

    def add_weight(self, shape=(), initializer=None, dtype=None, name=None):
        """Keras 3's older spelling of add_variable (aggregated by "sum")."""
        return self.add_variable(shape=shape, initializer=initializer, dtype=dtype, name=name)

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


def _initializer(identifier):
    from .. import initializers
    return initializers.get(identifier)


def _initial_value(init, shape, dtype):
    if init is None:  # Keras 3 has no default initializer here: it fails on the None value
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    value = init(shape, dtype=dtype.name)
    return np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype.np_dtype)


class NamedMetric:
    """get_config of a metric whose only settings are its name and dtype (Keras 3's layout), so a
    compiled model's metric objects survive `.keras` saving."""

    def get_config(self):
        return {"name": self.name, "dtype": "float32"}
