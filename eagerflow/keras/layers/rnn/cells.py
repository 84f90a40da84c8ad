"""RNN cells (one time step: `cell(x_t, states) -> (output, new_states)`), StackedRNNCells and the generic
`keras.layers.RNN(cell)` that loops a cell over time. The step math is rnn.py's (SimpleRNNMath, LSTMMath,
GRUMath): the SimpleRNN/LSTM/GRU layers and these cells compute with one definition, and weights move
between them unchanged (kernel, recurrent_kernel, bias; Keras' gate layouts). A cell's dropout and
recurrent_dropout masks are drawn at a sequence's first step and reused at every step, as Keras does."""
from __future__ import annotations

import threading

from ...._src.control_flow.tensor_array import TensorArray
from ...._src.control_flow.while_loop import while_loop
from ...._src.core import nest
from ...._src.core.convert import convert_to_tensor
from ...._src.ops import array as _array
from ...._src.ops import math as _math
from ...._src.ops import nn as _nn
from ...._src.ops.joining import concat
from ...._src.ops.matmul import matmul
from ...._src.ops.slicing import gather
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ...naming import name_scope, scope_stack
from ..base import Layer
from .recurrent import GRUMath, LSTMMath, SimpleRNNMath


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


def _deserialize(config, custom_objects=None):
    from ...saving.serialization import deserialize_keras_object, keras_classes
    config = {k: v for k, v in config.items() if k != "build_config"}
    return deserialize_keras_object(config, keras_classes(), custom_objects, kind="layer")


def _serialize(layer):
    from ...saving.serialization import serialize_layer
    return serialize_layer(layer)


class StackedRNNCells(Layer):
    """Cells run one after another within a time step: each cell's output is the next one's input; the
    states are one list per cell."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError(f"All cells must have a `call` method and a `state_size` attribute. Received "
                                 f"cells={cells}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        return self.cells[-1].output_size

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            build_in_scope(self, cell, shape)
            shape = shape[:-1] + (cell.output_size,)
        self.built = True

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            cell_states = list(cell_states) if isinstance(cell_states, (list, tuple)) else [cell_states]
            inputs, cell_states = cell(inputs, cell_states, training=training)
            new_states.append(cell_states)
        return inputs, new_states

    def get_config(self):
        return {**super().get_config(), "cells": [_serialize(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config, custom_objects=None, **_):
        config = dict(config)
        config["cells"] = [_deserialize(c, custom_objects) for c in config["cells"]]
        return cls(**config)


def _state_template(cell):
    """The nesting of a cell's states as the layer hands them over: a list per stacked cell, else one list."""
    if isinstance(cell, StackedRNNCells):
        return [_state_template(c) for c in cell.cells]
    size = cell.state_size
    return [0] * (len(size) if isinstance(size, (list, tuple)) else 1)


def _leaf_cells(cell):
    """The cells that draw dropout masks (those of a stack, else the cell; user cells need not)."""
    if isinstance(cell, StackedRNNCells):
        return [c for inner in cell.cells for c in _leaf_cells(inner)]
    return [cell] if hasattr(cell, "begin_sequence") else []


def _state_sizes(cell):
    if isinstance(cell, StackedRNNCells):
        return [s for c in cell.cells for s in _state_sizes(c)]
    size = cell.state_size
    return list(size) if isinstance(size, (list, tuple)) else [size]


class RNN(Layer):
    """Runs `cell` over the time axis of (batch, time, features) with a while loop (a Python loop eagerly,
    a While op under tf.function): returns the last output, or every step's output (return_sequences),
    followed by the final states (return_state). A masked step keeps the states and repeats the output."""
    supports_masking = True

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell) or not hasattr(cell, "state_size"):
            raise ValueError(f"The RNN cell should have a `state_size` attribute (single integer or list of "
                             f"integers, one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        if stateful:
            raise NotImplementedError("stateful RNN layers are not supported yet.")
        self.cell = cell
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards
        self.zero_output_for_mask = zero_output_for_mask

    def build(self, input_shape):
        if len(input_shape) != 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={len(input_shape)}. Full shape received: {tuple(input_shape)}")
        build_in_scope(self, self.cell, (input_shape[0], input_shape[-1]))
        self.built = True

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * len(_state_sizes(self.cell)) if self.return_state else output_mask

    def call(self, sequences, initial_state=None, mask=None, training=False):
        cells = _leaf_cells(self.cell)
        for cell in cells:
            cell.begin_sequence()
        try:
            return self._run(sequences, initial_state, mask, training)
        finally:
            for cell in cells:
                cell.end_sequence()

    def _run(self, sequences, initial_state, mask, training):
        steps = _array.shape(sequences)[1]
        xs = _array.transpose(sequences, [1, 0, 2])  # time-major
        template = _state_template(self.cell)
        if initial_state is None:
            batch = _array.shape(sequences)[:1]
            states = [_array.zeros(concat([batch, _array.constant([size], dtype=batch.dtype)], 0),
                                   dtype=sequences.dtype) for size in _state_sizes(self.cell)]
        else:
            states = [convert_to_tensor(s) for s in nest.flatten(initial_state, expand_composites=True)]
        n = len(states)
        step_mask = None if mask is None else _array.expand_dims(
            _array.transpose(_math.cast(convert_to_tensor(mask), "bool"), [1, 0]), -1)
        backwards, sequences_out, cell = self.go_backwards, self.return_sequences, self.cell
        zero_masked = self.zero_output_for_mask

        def step(index, flat_states):
            packed = nest.pack_sequence_as(template, list(flat_states), expand_composites=True)
            output, new = cell(gather(xs, index), packed, training=training)
            return output, nest.flatten(new, expand_composites=True)

        # the first step runs before the loop: it fixes the output's shape and dtype for the loop variables, and
        # draws the cells' dropout masks there, so every step inside the loop reuses them
        first = steps - 1 if backwards else 0
        output, new_states = step(first, states)
        if step_mask is not None:
            keep = gather(step_mask, first)
            new_states = [_array.where(_array.broadcast_to(keep, _array.shape(s)), s, h)
                          for s, h in zip(new_states, states)]
            output = _array.where(_array.broadcast_to(keep, _array.shape(output)), output, _array.zeros_like(output))

        def cond(t, *rest):
            return _math.less(t, steps)

        def body(t, *loop):
            hs, last = loop[:n], loop[n]
            index = steps - 1 - t if backwards else t
            out, new = step(index, hs)
            written = out
            if step_mask is not None:
                keep = gather(step_mask, index)
                new = [_array.where(_array.broadcast_to(keep, _array.shape(s)), s, h) for s, h in zip(new, hs)]
                written = _array.where(_array.broadcast_to(keep, _array.shape(out)), out,
                                       _array.zeros_like(out) if zero_masked else last)
                out = written
            tail = (loop[-1].write(t, written),) if sequences_out else ()
            return (t + 1, *new, out) + tail

        ta = (TensorArray(output.dtype, size=steps).write(0, output),) if sequences_out else ()
        result = while_loop(cond, body, (convert_to_tensor(1), *new_states, output) + ta)
        final_states, last = list(result[1:1 + n]), result[1 + n]
        out = _array.transpose(result[-1].stack(), [1, 0, 2]) if sequences_out else last
        if sequences_out:
            out.set_shape(sequences.shape.as_list()[:2] + out.shape.as_list()[2:])
        if not self.return_state:
            return out
        return [out] + nest.pack_sequence_as(template, final_states, expand_composites=True)

    def get_config(self):
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": False,
                "unroll": False, "zero_output_for_mask": self.zero_output_for_mask, "cell": _serialize(self.cell)}

    @classmethod
    def from_config(cls, config, custom_objects=None, **_):
        config = dict(config)
        config["cell"] = _deserialize(config["cell"], custom_objects)
        return cls(**config)
