"""RNN cells (one time step: `cell(x_t, states) -> (output, new_states)`). The step math is that of
simple_rnn.py, lstm.py and gru.py (SimpleRNNMath, LSTMMath, GRUMath): the SimpleRNN/LSTM/GRU layers and
these cells compute with one definition, and weights move between them unchanged (kernel, recurrent_kernel,
bias; Keras' gate layouts). A cell's dropout and recurrent_dropout masks are drawn at a sequence's first
step and reused at every step, as Keras does."""
from __future__ import annotations

import threading

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.nn import basic as _nn
from ...._src.ops.linalg.matmul import matmul
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ...naming import name_scope, scope_stack
from ..base import Layer
from .gru import GRUMath
from .lstm import LSTMMath
from .simple_rnn import SimpleRNNMath


def build_in_scope(owner, layer, input_shape):
    """Builds `layer` with its weights under owner/layer/..., as a call of it inside `owner` would."""
    if layer.built:
        return
    names = ([] if owner.name in scope_stack() else [owner.name]) + [layer.name]
    scopes = [name_scope(n) for n in names]
    for scope in scopes:
        scope.__enter__()
    try:
        layer.build(tuple(input_shape))
        layer._build_shapes_for_config = tuple(input_shape)
        layer.built = True
    finally:
        for scope in reversed(scopes):
            scope.__exit__(None, None, None)


class _Cell(Layer):
    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        self._extra = {k: kwargs.pop(k) for k in ("unit_forget_bias", "reset_after") if k in kwargs}
        super().__init__(**kwargs)
        if units <= 0:
            raise ValueError(f"Received an invalid value for argument `units`, expected a positive integer, got "
                             f"{units}.")
        self.units, self.use_bias, self.seed = units, use_bias, seed
        self.activation, self.recurrent_activation = _act.get(activation), _act.get(recurrent_activation)
        self.kernel_initializer = _init.get(kernel_initializer)
        self.recurrent_initializer = _init.get(recurrent_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer, self.recurrent_regularizer, self.bias_regularizer = (
            _reg.get(kernel_regularizer), _reg.get(recurrent_regularizer), _reg.get(bias_regularizer))
        self.kernel_constraint, self.recurrent_constraint, self.bias_constraint = (
            _con.get(kernel_constraint), _con.get(recurrent_constraint), _con.get(bias_constraint))
        self.dropout = min(1.0, max(0.0, float(dropout)))  # Keras clips the rates to [0, 1]
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.bias = None
        object.__setattr__(self, "_sequence", threading.local())

    # --- dropout masks: drawn at a sequence's first step, reused by every later step (Keras' rule) ---
    def begin_sequence(self):
        """keras.layers.RNN calls this before a sequence: masks drawn from now on are kept until end_sequence."""
        self._sequence.masks = {}

    def end_sequence(self):
        self._sequence.masks = None

    def _dropout_mask(self, kind, like, rate, training):
        if not training or not 0.0 < rate < 1.0:
            return None
        cache = getattr(self._sequence, "masks", None)
        mask = None if cache is None else cache.get(kind)
        if mask is None:
            mask = _nn.dropout(_array.ones_like(like), rate, seed=self.seed)
            if cache is not None:
                cache[kind] = mask
        return mask

    @property
    def state_size(self):
        return self.units if self._n_states == 1 else [self.units] * self._n_states

    @property
    def output_size(self):
        return self.units

    def build(self, input_shape):
        self._build_shapes_for_config = tuple(input_shape)  # Keras records it however build is reached
        g = self._gates * self.units
        self.kernel = self.add_weight((input_shape[-1], g), self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight((self.units, g), self.recurrent_initializer, name="recurrent_kernel",
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight(self._bias_shape(), self._bias_value, name="bias",
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs, states, training=False):
        nested = isinstance(states, (list, tuple))
        hs = [convert_to_tensor(s) for s in (states if nested else [states])]
        input_mask = self._dropout_mask("input", inputs, self.dropout, training)
        recurrent_mask = self._dropout_mask("recurrent", hs[0], self.recurrent_dropout, training)
        x = matmul(inputs * input_mask if input_mask is not None else inputs, self.kernel)
        if self.bias is not None:
            x = x + self._input_bias()
        extra = tuple(None if c is None else convert_to_tensor(c) for c in self._loop_constants())
        # the recurrent mask applies to h in the recurrent matmul only (GRU mixes the undropped h), as in Keras
        new = self._step(x, hs, convert_to_tensor(self.recurrent_kernel), extra,
                         None if recurrent_mask is None else [recurrent_mask])
        return new[0], (list(new) if nested or self._n_states > 1 else new[0])

    def get_initial_state(self, batch_size=None):
        return [_array.zeros([batch_size, self.units], dtype=self.compute_dtype) for _ in range(self._n_states)]

    def get_config(self):
        config = {**super().get_config(), "units": self.units, "activation": _act.serialize(self.activation)}
        if self._gates > 1:
            config["recurrent_activation"] = _act.serialize(self.recurrent_activation)
        config["use_bias"] = self.use_bias
        if self._gates == 4:
            config["unit_forget_bias"] = self._extra.get("unit_forget_bias", True)
        config.update({"kernel_initializer": _init.serialize(self.kernel_initializer),
                       "recurrent_initializer": _init.serialize(self.recurrent_initializer),
                       "bias_initializer": _init.serialize(self.bias_initializer),
                       "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                       "recurrent_regularizer": _reg.serialize(self.recurrent_regularizer),
                       "bias_regularizer": _reg.serialize(self.bias_regularizer),
                       "kernel_constraint": _con.serialize(self.kernel_constraint),
                       "recurrent_constraint": _con.serialize(self.recurrent_constraint),
                       "bias_constraint": _con.serialize(self.bias_constraint), "dropout": self.dropout,
                       "recurrent_dropout": self.recurrent_dropout})
        if self._gates == 3:
            config["reset_after"] = True
        config["seed"] = self.seed
        return config


class SimpleRNNCell(SimpleRNNMath, _Cell):
    __doc__ = SimpleRNNMath.__doc__

    def __init__(self, units, activation="tanh", use_bias=True, **kwargs):
        super().__init__(units, activation=activation, use_bias=use_bias, **kwargs)


class LSTMCell(LSTMMath, _Cell):
    __doc__ = LSTMMath.__doc__


class GRUCell(GRUMath, _Cell):
    __doc__ = GRUMath.__doc__

    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        if not self._extra.get("reset_after", True):
            raise NotImplementedError("GRUCell(reset_after=False) is not supported yet.")


def deserialize_cell(config, custom_objects=None):
    from ...saving.serialization import deserialize_keras_object, keras_classes
    config = {k: v for k, v in config.items() if k != "build_config"}
    return deserialize_keras_object(config, keras_classes(), custom_objects, kind="layer")


def serialize_cell(layer):
    from ...saving.serialization import serialize_layer
    return serialize_layer(layer)


