"""ConvLSTM: an LSTM whose input and recurrent transforms are convolutions, so its states are feature
maps (next-frame prediction over (batch, time, *spatial, channels) videos). ConvLSTM1D/2D/3D set the
spatial rank; the weights live in an inner `conv_lstm_cell` layer, as Keras names them.

As in Keras 3: while training, `dropout` and `recurrent_dropout` draw one mask per gate (four) for the
input frames and for the hidden state, at the sequence's start, used by every step; a `stateful`
layer (its batch size fixed) starts each call from the states the previous call ended with, held in
variables that are not weights, until `reset_states()`."""
from __future__ import annotations

import weakref

import numpy as np

from ...._src.control_flow.tensor_array import TensorArray
from ...._src.control_flow.while_loop import while_loop
from ...._src.core import nest
from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import concat, split
from ...._src.ops.array.slicing import gather
from ...._src.ops.math import elementwise as _math
from ...._src.core.scopes import init_scope
from ...._src.ops.nn import conv as _conv
from ...._src.ops.nn.basic import dropout
from ...._src.state.variables import Variable
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..arguments import as_list, check_channels_last, int_pair, padding_mode, single_int
from ..base import Layer
from ..convolutional.conv3d import conv3d_by_depth_taps
from ..reshaping.zero_padding3d import triple
from .cells import build_in_scope

_PARSE = {1: single_int, 2: int_pair, 3: triple}


def _tuple(value, rank, name):
    parsed = _PARSE[rank](value, name)
    return (parsed,) if rank == 1 else tuple(parsed)


def _convolve(x, kernel, strides, padding, dilation_rate):
    """x (batch, *spatial, c) by kernel (*k, c, f), for 1, 2 or 3 spatial dimensions."""
    rank = len(strides)
    if rank == 1:
        return _conv.conv1d(x, kernel, stride=strides[0], padding=padding, dilations=dilation_rate[0])
    if rank == 2:
        return _conv.conv2d(x, kernel, strides=(1,) + strides + (1,), padding=padding,
                            dilations=(1,) + dilation_rate + (1,))
    return conv3d_by_depth_taps(x, kernel, strides, padding, dilation_rate)


def _out_size(n, k, s, d, padding):
    if n is None:
        return None
    return -(-n // s) if padding == "SAME" else (n - ((k - 1) * d + 1)) // s + 1


class ConvLSTMCell(Layer):
    """One step: gates [i, f, c, o] = conv(x, kernel) + bias + conv(h, recurrent_kernel, 'same');
    c_t = f c + i act(c~); h_t = o act(c_t). Not exported (Keras keeps its cell private too)."""

    def __init__(self, owner, **kwargs):
        super().__init__(name="conv_lstm_cell", **kwargs)
        self._owner = weakref.ref(owner)  # the layer holds the cell: a strong link back would be a cycle

    @property
    def owner(self):
        return self._owner()

    def build(self, input_shape):
        o = self.owner
        gates = 4 * o.filters
        self.kernel = self.add_weight(o.kernel_size + (input_shape[-1], gates), o.kernel_initializer, name="kernel",
                                      regularizer=o.kernel_regularizer, constraint=o.kernel_constraint)
        self.recurrent_kernel = self.add_weight(o.kernel_size + (o.filters, gates), o.recurrent_initializer,
                                                name="recurrent_kernel", regularizer=o.recurrent_regularizer,
                                                constraint=o.recurrent_constraint)
        self.bias = None
        if o.use_bias:
            def bias_value(shape, dtype=None):
                value = np.array(o.bias_initializer(shape, dtype), copy=True)
                if o.unit_forget_bias:
                    value[o.filters:2 * o.filters] = 1.0
                return value
            self.bias = self.add_weight((gates,), bias_value, name="bias", regularizer=o.bias_regularizer,
                                        constraint=o.bias_constraint)
        self.built = True

    def call(self, x, h, c, masks=(None, None)):
        o = self.owner
        ones = (1,) * len(o.strides)
        if masks[0] is None and masks[1] is None:
            z = _convolve(x, self.kernel, o.strides, o.padding, o.dilation_rate)
            if self.bias is not None:
                z = z + self.bias
            z = z + _convolve(h, self.recurrent_kernel, ones, "SAME", ones)
            i, f, cc, out = split(z, 4, axis=-1)
        else:  # a dropout mask per gate: each gate convolves its own masked input and state
            kernels, recurrent = split(self.kernel, 4, axis=-1), split(self.recurrent_kernel, 4, axis=-1)
            biases = split(self.bias, 4) if self.bias is not None else [None] * 4
            gates = []
            for gate in range(4):
                xg = x if masks[0] is None else x * masks[0][gate]
                hg = h if masks[1] is None else h * masks[1][gate]
                z = _convolve(xg, kernels[gate], o.strides, o.padding, o.dilation_rate)
                z = z if biases[gate] is None else z + biases[gate]
                gates.append(z + _convolve(hg, recurrent[gate], ones, "SAME", ones))
            i, f, cc, out = gates
        gate = o.recurrent_activation
        c = gate(f) * c + gate(i) * o.activation(cc)
        return gate(out) * o.activation(c), c


class ConvLSTM(Layer):
    _rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", unit_forget_bias=True,
                 kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, **kwargs):
        kwargs.pop("unroll", None)
        kwargs.pop("zero_output_for_mask", None)
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        check_channels_last(data_format)
        rank = self._rank
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        self.padding = padding_mode(padding).upper()
        self.activation, self.recurrent_activation = _act.get(activation), _act.get(recurrent_activation)
        self.use_bias, self.unit_forget_bias = use_bias, unit_forget_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.recurrent_initializer = _init.get(recurrent_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.kernel_regularizer, self.recurrent_regularizer, self.bias_regularizer = (
            _reg.get(kernel_regularizer), _reg.get(recurrent_regularizer), _reg.get(bias_regularizer))
        self.kernel_constraint, self.recurrent_constraint, self.bias_constraint = (
            _con.get(kernel_constraint), _con.get(recurrent_constraint), _con.get(bias_constraint))
        self.dropout = min(1.0, max(0.0, float(dropout)))  # Keras clips the rates to [0, 1]
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.seed, self.stateful, self.states = seed, bool(stateful), None
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards
        self.cell = ConvLSTMCell(self, dtype=kwargs.get("dtype"))

    def _check_rank(self, rank):
        expected = self._rank + 3
        if rank != expected:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected "
                             f"ndim={expected}, found ndim={rank}.")

    def build(self, input_shape):
        self._check_rank(len(input_shape))
        build_in_scope(self, self.cell, (input_shape[0],) + tuple(input_shape[2:]))
        if self.stateful:
            if input_shape[0] is None:
                raise ValueError(f"When using `stateful=True` in a RNN, the batch size must be static. Found dynamic "
                                 f"batch size: sequence.shape={tuple(input_shape)}")
            shape = [input_shape[0]] + self._state_dims(list(input_shape[2:-1]))
            with init_scope():  # the states are variables of their own, not weights (Keras 3)
                self.states = [Variable(np.zeros(shape, self._compute.np_dtype), trainable=False, name="rnn_state")
                               for _ in range(2)]
        self.built = True

    def reset_states(self):
        """A stateful layer's states back to zeros."""
        for state in self.states or ():
            state.assign(np.zeros(state.shape.as_list(), state.dtype.np_dtype))

    reset_state = reset_states

    def _masks(self, like, rate, training):
        """Four dropout masks (one per gate) shaped like `like`, or None."""
        if not training or not 0.0 < rate < 1.0:
            return None
        return [dropout(_array.ones_like(like), rate, seed=self.seed) for _ in range(4)]

    def _state_dims(self, frame_dims):
        dims = [_out_size(n, k, s, d, self.padding)
                for n, k, s, d in zip(frame_dims, self.kernel_size, self.strides, self.dilation_rate)]
        if None in dims:
            raise NotImplementedError(f"{type(self).__name__} needs the frames' spatial dimensions known.")
        return dims + [self.filters]

    def call(self, inputs, initial_state=None, training=None, mask=None):
        self._check_rank(inputs.shape.rank)
        static = inputs.shape.as_list()
        state_dims = self._state_dims(static[2:-1])
        perm = [1, 0] + list(range(2, inputs.shape.rank))
        frames = _array.transpose(inputs, perm)  # time-major
        steps = _array.shape(inputs)[1]
        if initial_state is None and self.stateful:
            if static[0] is not None and static[0] != self.states[0].shape.as_list()[0]:
                raise ValueError(f"If an RNN is stateful, the batch size of the input sequences must be the same as "
                                 f"the batch size of the initial state. \n- Expected batch size: "
                                 f"{self.states[0].shape.as_list()[0]}\n- Received batch size: {static[0]}")
            h, c = (_array.identity(state) for state in self.states)
        elif initial_state is None:
            batch = _array.shape(inputs)[:1]
            zeros = _array.zeros(concat([batch, _array.constant(state_dims, dtype=batch.dtype)], 0),
                                 dtype=inputs.dtype)
            zeros.set_shape(static[:1] + state_dims)
            h, c = zeros, zeros
        else:
            h, c = (convert_to_tensor(s) for s in nest.flatten(initial_state))
        backwards, cell = self.go_backwards, self.cell

        def frame(t):
            x = gather(frames, steps - 1 - t if backwards else t)
            x.set_shape(static[:1] + static[2:])  # a loop-index gather keeps only the rank
            return x

        masks = (self._masks(frame(0), self.dropout, training), self._masks(h, self.recurrent_dropout, training))
        h, c = cell(frame(0), h, c, masks)
        first = h

        def cond(t, *rest):
            return _math.less(t, steps)

        def body(t, h, c, *ta):
            for state in (h, c):
                state.set_shape(static[:1] + state_dims)
            h, c = cell(frame(t), h, c, masks)
            return (t + 1, h, c) + ((ta[0].write(t, h),) if ta else ())

        ta = (TensorArray(first.dtype, size=steps).write(0, first),) if self.return_sequences else ()
        result = while_loop(cond, body, (convert_to_tensor(1), h, c) + ta)
        h, c = result[1], result[2]
        if self.return_sequences:
            out = _array.transpose(result[3].stack(), perm)
            out.set_shape(static[:2] + state_dims)
        else:
            out = h
        for state in (h, c):
            state.set_shape(static[:1] + state_dims)
        if self.stateful:
            for variable, state in zip(self.states, (h, c)):
                variable.assign(state)
        return [out, h, c] if self.return_state else out

    def get_config(self):
        return {**super().get_config(), "return_sequences": self.return_sequences, "return_state": self.return_state,
                "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": False,
                "zero_output_for_mask": False,
                "filters": self.filters, "kernel_size": as_list(self.kernel_size), "strides": as_list(self.strides),
                "padding": self.padding.lower(), "data_format": "channels_last",
                "dilation_rate": as_list(self.dilation_rate), "activation": _act.serialize(self.activation),
                "recurrent_activation": _act.serialize(self.recurrent_activation), "use_bias": self.use_bias,
                "kernel_initializer": _init.serialize(self.kernel_initializer),
                "recurrent_initializer": _init.serialize(self.recurrent_initializer),
                "bias_initializer": _init.serialize(self.bias_initializer), "unit_forget_bias": self.unit_forget_bias,
                "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                "recurrent_regularizer": _reg.serialize(self.recurrent_regularizer),
                "bias_regularizer": _reg.serialize(self.bias_regularizer),
                "activity_regularizer": _reg.serialize(self.activity_regularizer),
                "kernel_constraint": _con.serialize(self.kernel_constraint),
                "recurrent_constraint": _con.serialize(self.recurrent_constraint),
                "bias_constraint": _con.serialize(self.bias_constraint), "dropout": self.dropout,
                "recurrent_dropout": self.recurrent_dropout, "seed": self.seed}
