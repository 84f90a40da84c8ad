"""The base of the built-in recurrent layers (SimpleRNN, LSTM, GRU): weights, masks, dropout and the time loop.

The input projection x_t @ kernel + bias is one matmul over every time step up front; the time
loop is a `tf.while_loop` (a Python loop eagerly, a `While` op under tf.function, differentiable
either way) that reads the step's projection from a TensorArray, applies the recurrent update and
writes the output. Gate layouts follow Keras so weights are interchangeable:
LSTM [i, f, c, o] (forget-gate bias starts at 1), GRU [z, r, h] with bias rows (input, recurrent).
"""
from __future__ import annotations

from ...._src.control_flow.tensor_array import TensorArray
from ...._src.control_flow.while_loop import while_loop
from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.nn import basic as _nn
from ...._src.ops.array.joining import concat
from ...._src.ops.linalg.matmul import matmul
from ...._src.ops.array.slicing import gather
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ...naming import name_scope, to_snake_case
from ..base import Layer
from ..core.dense import matmul_last_axis


class GateMath:
    """The step math a recurrent layer and its cell share (rnn_cells.py's SimpleRNNCell/LSTMCell/GRUCell mix in
    the same classes below): gate layout, bias shape and value, and x_proj, h -> new states."""
    _gates = 1
    _n_states = 1

    def _bias_value(self, shape, dtype):
        return self.bias_initializer(shape, dtype)

    def _bias_shape(self):
        return (self._gates * self.units,)

    def _input_bias(self):
        return self.bias

    def _loop_constants(self):
        return ()

    def _recurrent(self, h, recurrent, masks):
        """h @ recurrent_kernel, with the recurrent dropout masks (one, or one per gate) applied to h."""
        if masks is None:
            return matmul(h, recurrent)
        if len(masks) == 1:
            return matmul(h * masks[0], recurrent)
        u = self.units
        return concat([matmul(h * m, recurrent[:, g * u:(g + 1) * u]) for g, m in enumerate(masks)], 1)


class RecurrentLayer(GateMath, Layer):
    supports_masking = True

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", return_sequences=False,
                 return_state=False, go_backwards=False, stateful=False, unroll=False, kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None, recurrent_constraint=None,
                 bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, **kwargs):
        # zero_output_for_mask: masked steps of a returned sequence are zeros (True; Bidirectional sets it)
        # rather than the last unmasked output (False, the default)
        self.zero_output_for_mask = bool(kwargs.pop("zero_output_for_mask", False))
        for k in ("seed", "use_cudnn"):
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
        self.dropout = min(1.0, max(0.0, float(dropout)))  # Keras 3 clips the rates to [0, 1]
        self.recurrent_dropout = min(1.0, max(0.0, float(recurrent_dropout)))
        self.recurrent_activation = _act.get(self._extra.get("recurrent_activation", "sigmoid"))
        self.kernel_regularizer, self.recurrent_regularizer, self.bias_regularizer = (
            _reg.get(kernel_regularizer), _reg.get(recurrent_regularizer), _reg.get(bias_regularizer))
        self.kernel_constraint, self.recurrent_constraint, self.bias_constraint = (
            _con.get(kernel_constraint), _con.get(recurrent_constraint), _con.get(bias_constraint))

    def build(self, input_shape):
        if len(input_shape) != 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={len(input_shape)}. Full shape received: {tuple(input_shape)}")
        g = self._gates * self.units
        with name_scope(to_snake_case(type(self).__name__) + "_cell"):  # Keras keeps the weights on a cell
            self.kernel = self.add_weight((input_shape[-1], g), self.kernel_initializer, name="kernel",
                                          regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
            self.recurrent_kernel = self.add_weight((self.units, g), self.recurrent_initializer,
                                                    name="recurrent_kernel", regularizer=self.recurrent_regularizer,
                                                    constraint=self.recurrent_constraint)
            self.bias = self.add_weight(self._bias_shape(), self._bias_value, name="bias",
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def _per_gate_masks(self):
        """Keras 3 draws one dropout mask per gate when recurrent_dropout is set (its implementation 1),
        one shared mask otherwise; SimpleRNN has a single gate."""
        return self._gates if self.recurrent_dropout != 0.0 else 1

    def _dropout_masks(self, like, rate):
        """Masks of 0 and 1/(1-rate) shaped like `like` (batch, features), drawn once per call and used at
        every time step, as Keras does; None outside training or for a rate of 0 or 1 (Keras skips those)."""
        if not 0.0 < rate < 1.0:
            return None
        ones = _array.ones_like(like)
        return [_nn.dropout(ones, rate) for _ in range(self._per_gate_masks())]

    def _project(self, inputs, masks=None):
        """x @ kernel (+ input bias) for every step, time-major: (T, B, gates * units)."""
        if masks is None:
            proj = matmul_last_axis(inputs, self.kernel)
        elif len(masks) == 1:
            proj = matmul_last_axis(inputs * _array.expand_dims(masks[0], 1), self.kernel)
        else:
            kernel, u = convert_to_tensor(self.kernel), self.units
            proj = concat([matmul_last_axis(inputs * _array.expand_dims(m, 1), kernel[:, g * u:(g + 1) * u])
                           for g, m in enumerate(masks)], -1)
        if self.bias is not None:
            proj = proj + self._input_bias()
        return _array.transpose(proj, [1, 0, 2])

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * self._n_states if self.return_state else output_mask

    def get_initial_state(self, batch_size):
        """Zeros for each state, [batch_size, units] (`batch_size` may be a tensor, e.g. tf.shape(x)[0]):
        the states a call starts from when given none, for programs that carry states between calls."""
        return [_array.zeros([batch_size, self.units], dtype=self.compute_dtype)
                for _ in range(self._n_states)]

    def call(self, inputs, initial_state=None, training=None, mask=None):
        in_masks = self._dropout_masks(inputs[:, 0, :], self.dropout) if training else None
        proj = self._project(inputs, in_masks)
        steps = _array.shape(proj)[0]
        if initial_state is None:
            zero = _array.zeros_like(proj[0][:, :self.units])  # (batch, units), the batch known at run time only
            states = [zero] * self._n_states
        else:
            states = [convert_to_tensor(s) for s in (initial_state if isinstance(initial_state, (list, tuple))
                                                       else [initial_state])]
        recurrent = convert_to_tensor(self.recurrent_kernel)
        extra = tuple(None if c is None else convert_to_tensor(c) for c in self._loop_constants())
        rec_masks = self._dropout_masks(states[0], self.recurrent_dropout) if training else None
        backwards, sequences, zero_masked = self.go_backwards, self.return_sequences, self.zero_output_for_mask
        # time-major (T, B, 1) booleans: a masked step keeps every state (and so repeats the last output)
        step_mask = None if mask is None else _array.expand_dims(
            _array.transpose(_math.cast(convert_to_tensor(mask), "bool"), [1, 0]), -1)

        def cond(t, *rest):
            return _math.less(t, steps)

        def body(t, *loop):
            hs = loop[:self._n_states]
            index = steps - 1 - t if backwards else t
            new = self._step(gather(proj, index), hs, recurrent, extra, rec_masks)
            output = None
            if step_mask is not None:
                keep = gather(step_mask, index)
                if zero_masked and sequences:
                    output = _array.where(_array.broadcast_to(keep, _array.shape(new[0])), new[0],
                                          _array.zeros_like(new[0]))
                new = tuple(_array.where(_array.broadcast_to(keep, _array.shape(n)), n, h) for n, h in zip(new, hs))
            output = new[0] if output is None else output
            return (t + 1, *new, loop[-1].write(t, output)) if sequences else (t + 1, *new)

        loop_vars = (convert_to_tensor(0), *states) + ((TensorArray(proj.dtype, size=steps),) if sequences else ())
        result = while_loop(cond, body, loop_vars)
        final_states = list(result[1:1 + self._n_states])
        seq = _array.transpose(result[-1].stack(), [1, 0, 2]) if sequences else final_states[0]
        if sequences:  # the loop's stack hides the step count a traced call knows: restate it, as Keras shows it
            seq.set_shape(inputs.shape.as_list()[:2] + [self.units])
        return [seq] + final_states if self.return_state else seq

    def get_config(self):
        config = {**super().get_config(), "return_sequences": self.return_sequences,
                  "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": False,
                  "unroll": False, "zero_output_for_mask": self.zero_output_for_mask, "units": self.units,
                  "activation": _act.serialize(self.activation)}
        if self._gates > 1:
            config["recurrent_activation"] = _act.serialize(self.recurrent_activation)
        config.update({"use_bias": self.use_bias, "kernel_initializer": _init.serialize(self.kernel_initializer),
                       "recurrent_initializer": _init.serialize(self.recurrent_initializer),
                       "bias_initializer": _init.serialize(self.bias_initializer)})
        if self._gates == 4:
            config["unit_forget_bias"] = self._extra.get("unit_forget_bias", True)
        config.update({"kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                       "recurrent_regularizer": _reg.serialize(self.recurrent_regularizer),
                       "bias_regularizer": _reg.serialize(self.bias_regularizer),
                       "activity_regularizer": _reg.serialize(self.activity_regularizer),
                       "kernel_constraint": _con.serialize(self.kernel_constraint),
                       "recurrent_constraint": _con.serialize(self.recurrent_constraint),
                       "bias_constraint": _con.serialize(self.bias_constraint), "dropout": self.dropout,
                       "recurrent_dropout": self.recurrent_dropout})
        if self._gates == 3:
            config["reset_after"] = True
        if self._gates > 1:
            config["seed"] = None
        return config


