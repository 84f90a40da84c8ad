"""Recurrent layers: SimpleRNN, GRU (Keras 3's reset_after form) and LSTM.

The input projection x_t @ kernel + bias is one matmul over every time step up front; the time
loop is a `tf.while_loop` (a Python loop eagerly, a `While` op under tf.function, differentiable
either way) that reads the step's projection from a TensorArray, applies the recurrent update and
writes the output. Gate layouts follow Keras so weights are interchangeable:
LSTM [i, f, c, o] (forget-gate bias starts at 1), GRU [z, r, h] with bias rows (input, recurrent).
"""
from __future__ import annotations

import numpy as np

from ..._src.control_flow.tensor_array import TensorArray
from ..._src.control_flow.while_loop import while_loop
from ..._src.core.convert import convert_to_tensor
from ..._src.ops import array as _array
from ..._src.ops import math as _math
from ..._src.ops.joining import split
from ..._src.ops.slicing import gather
from ..._src.ops.matmul import matmul
from .. import activations as _act
from .. import initializers as _init
from ..naming import name_scope, to_snake_case
from .base import Layer
from .core import matmul_last_axis


class _RNN(Layer):
    _gates = 1
    _n_states = 1

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, unroll=False, **kwargs):
        for k in ("dropout", "recurrent_dropout"):
            if kwargs.pop(k, 0):
                raise NotImplementedError(f"{type(self).__name__}: `{k}` is not supported yet.")
        for k in ("kernel_regularizer", "recurrent_regularizer", "bias_regularizer", "activity_regularizer",
                  "kernel_constraint", "recurrent_constraint", "bias_constraint", "seed", "use_cudnn"):
            kwargs.pop(k, None)
        self._extra = {k: kwargs.pop(k) for k in ("recurrent_activation", "unit_forget_bias", "reset_after")
                       if k in kwargs}
        super().__init__(**kwargs)
        if stateful:
            raise NotImplementedError("stateful RNN layers are not supported yet.")
        self.units = units
        self.activation = _act.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = _init.get(kernel_initializer)
        self.recurrent_initializer = _init.get(recurrent_initializer)
        self.bias_initializer = _init.get(bias_initializer)
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards
        self.recurrent_activation = _act.get(self._extra.get("recurrent_activation", "sigmoid"))

    def _bias_value(self, shape, dtype):
        return self.bias_initializer(shape, dtype)

    def build(self, input_shape):
        if len(input_shape) != 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={len(input_shape)}. Full shape received: {tuple(input_shape)}")
        g = self._gates * self.units
        with name_scope(to_snake_case(type(self).__name__) + "_cell"):  # Keras keeps the weights on a cell
            self.kernel = self.add_weight((input_shape[-1], g), self.kernel_initializer, name="kernel")
            self.recurrent_kernel = self.add_weight((self.units, g), self.recurrent_initializer,
                                                    name="recurrent_kernel")
            self.bias = self.add_weight(self._bias_shape(), self._bias_value, name="bias") if self.use_bias else None
        self.built = True

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _project(self, inputs):
        """x @ kernel (+ input bias) for every step, time-major: (T, B, gates * units)."""
        proj = matmul_last_axis(inputs, self.kernel)
        if self.bias is not None:
            proj = proj + self._input_bias()
        return _array.transpose(proj, [1, 0, 2])

    def _input_bias(self):
        return self.bias

    def call(self, inputs, initial_state=None, training=None, mask=None):
        proj = self._project(inputs)
        steps = _array.shape(proj)[0]
        if initial_state is None:
            zero = _array.zeros_like(proj[0][:, :self.units])  # (batch, units), the batch known at run time only
            states = [zero] * self._n_states
        else:
            states = [convert_to_tensor(s) for s in (initial_state if isinstance(initial_state, (list, tuple))
                                                       else [initial_state])]
        recurrent = convert_to_tensor(self.recurrent_kernel)
        extra = tuple(None if c is None else convert_to_tensor(c) for c in self._loop_constants())
        backwards, sequences = self.go_backwards, self.return_sequences

        def cond(t, *rest):
            return _math.less(t, steps)

        def body(t, *loop):
            hs = loop[:self._n_states]
            index = steps - 1 - t if backwards else t
            new = self._step(gather(proj, index), hs, recurrent, extra)
            return (t + 1, *new, loop[-1].write(t, new[0])) if sequences else (t + 1, *new)

        loop_vars = (convert_to_tensor(0), *states) + ((TensorArray(proj.dtype, size=steps),) if sequences else ())
        result = while_loop(cond, body, loop_vars)
        final_states = list(result[1:1 + self._n_states])
        seq = _array.transpose(result[-1].stack(), [1, 0, 2]) if sequences else final_states[0]
        return [seq] + final_states if self.return_state else seq

    def _loop_constants(self):
        return ()


class SimpleRNN(_RNN):
    """h_t = activation(x_t W + h_{t-1} U + b)."""

    def _step(self, x, hs, recurrent, extra):
        return (self.activation(x + matmul(hs[0], recurrent)),)


class LSTM(_RNN):
    """i, f, o = sigmoid(.), c~ = tanh(.); c_t = f c_{t-1} + i c~; h_t = o tanh(c_t)."""
    _gates = 4
    _n_states = 2

    def _bias_value(self, shape, dtype):
        value = np.asarray(self.bias_initializer((self.units * 4,), dtype))
        if self._extra.get("unit_forget_bias", True):
            value = value.copy()
            value[self.units:2 * self.units] = 1.0
        return value

    def _step(self, x, hs, recurrent, extra):
        h, c = hs
        z = x + matmul(h, recurrent)
        i, f, cc, o = split(z, 4, axis=1)
        i, f, o = self.recurrent_activation(i), self.recurrent_activation(f), self.recurrent_activation(o)
        c = f * c + i * self.activation(cc)
        return (o * self.activation(c), c)


class GRU(_RNN):
    """Keras 3's default GRU (reset_after=True): z, r = sigmoid(x W + b_in + h U + b_rec);
    h~ = tanh(x W_h + b_in_h + r * (h U_h + b_rec_h)); h_t = z h_{t-1} + (1 - z) h~."""
    _gates = 3

    def __init__(self, units, **kwargs):
        super().__init__(units, **kwargs)
        if not self._extra.get("reset_after", True):
            raise NotImplementedError("GRU(reset_after=False) is not supported yet.")

    def _bias_shape(self):
        return (2, 3 * self.units)

    def _input_bias(self):
        return self.bias[0]

    def _loop_constants(self):
        return (self.bias[1] if self.bias is not None else None,)

    def _step(self, x, hs, recurrent, extra):
        h = hs[0]
        rec = matmul(h, recurrent)
        if extra[0] is not None:
            rec = rec + extra[0]
        x_z, x_r, x_h = split(x, 3, axis=1)
        r_z, r_r, r_h = split(rec, 3, axis=1)
        z = self.recurrent_activation(x_z + r_z)
        r = self.recurrent_activation(x_r + r_r)
        hh = self.activation(x_h + r * r_h)
        return (z * h + (1.0 - z) * hh,)
