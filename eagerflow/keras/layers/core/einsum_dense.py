"""EinsumDense: a dense layer whose kernel contraction is an einsum equation ("abc,cde->abde" projects
(batch, steps, d) to (batch, steps, heads, key_dim)). MultiHeadAttention builds its four projections
from it. The kernel and bias shapes are read off the equation, the input shape and `output_shape`
(the output without its batch dimension), with Keras 3's three equation forms: "[X],[Y]->[Z]",
"...[X],[Y]->...[Z]" (leading dims carried through) and "[X]...,[Y]->[Z]..." (trailing dims carried)."""
from __future__ import annotations

import re

from ...._src.ops.linalg.einsum import einsum
from ... import activations as _act
from ... import constraints as _con
from ... import initializers as _init
from ... import regularizers as _reg
from ..base import Layer

_FORMS = ((re.compile(r"([a-zA-Z]+),([a-zA-Z]+)->([a-zA-Z]+)$"), None),
          (re.compile(r"\.\.\.([a-zA-Z]+),([a-zA-Z]+)->\.\.\.([a-zA-Z]+)$"), True),
          (re.compile(r"([a-zA-Z]{2,})\.\.\.,([a-zA-Z]+)->([a-zA-Z]{2,})\.\.\.$"), False))


def analyze_equation(equation, bias_axes, input_shape, output_shape):
    """(kernel shape, bias shape or None, full output shape) for `equation` on `input_shape`."""
    for pattern, left_elided in _FORMS:
        match = pattern.match(equation)
        if match:
            return _analyze(*match.groups(), bias_axes, list(input_shape), output_shape, bool(left_elided))
    raise ValueError(f"Invalid einsum equation '{equation}'. Equations must be in the form [X],[Y]->[Z], "
                     f"...[X],[Y]->...[Z], or [X]...,[Y]->[Z]....")


def _analyze(input_spec, weight_spec, output_spec, bias_axes, input_shape, output_shape, left_elided):
    elided = len(input_shape) - len(input_spec)
    output_shape = [output_shape] if isinstance(output_shape, int) else list(output_shape)
    output_shape.insert(0, input_shape[0])
    if elided > 0 and left_elided:
        for i in range(1, elided):
            output_shape.insert(1, input_shape[i])
    elif elided > 0:
        output_shape.extend(input_shape[len(input_shape) - elided:])
    if left_elided:
        input_at = {d: i + elided - len(input_shape) for i, d in enumerate(input_spec)}
        output_at = {d: i + elided - len(output_shape) for i, d in enumerate(output_spec)}
    else:
        input_at = {d: i for i, d in enumerate(input_spec)}
        output_at = {d: i for i, d in enumerate(output_spec)}
    for d in input_spec:
        if d in output_at:
            have, want = input_shape[input_at[d]], output_shape[output_at[d]]
            if want is not None and want != have:
                raise ValueError(f"Input shape and output shape do not match at shared dimension '{d}'. Input shape "
                                 f"is {have}, and output shape is {want}.")
    for d in output_spec:
        if d not in input_spec and d not in weight_spec:
            raise ValueError(f"Dimension '{d}' was specified in the output '{output_spec}' but has no corresponding "
                             f"dim in the input spec '{input_spec}' or weight spec '{output_spec}'")
    kernel_shape = []
    for d in weight_spec:
        if d in input_at:
            kernel_shape.append(input_shape[input_at[d]])
        elif d in output_at:
            kernel_shape.append(output_shape[output_at[d]])
        else:
            raise ValueError(f"Weight dimension '{d}' did not have a match in either the input spec '{input_spec}' "
                             f"or the output spec '{output_spec}'. For this layer, the weight must be fully specified.")
    bias_shape = None
    if bias_axes is not None:
        for d in bias_axes:
            if d not in output_spec:
                raise ValueError(f"Bias dimension '{d}' was requested, but is not part of the output spec "
                                 f"'{output_spec}'")
        # the bias spans the output from its first biased axis on, 1 where an axis is not biased
        first = min(output_spec.find(d) for d in bias_axes)
        bias_shape = [output_shape[output_at[d]] if d in bias_axes else 1 for d in output_spec[first:]]
        if not left_elided:
            bias_shape += [1] * max(elided, 0)
    return kernel_shape, bias_shape, output_shape


class EinsumDense(Layer):
    """y = activation(einsum(equation, x, kernel) + bias)."""

    def __init__(self, equation, output_shape, activation=None, bias_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, lora_rank=None, lora_alpha=None, **kwargs):
        kwargs.pop("quantization_config", None)
        if lora_rank:
            raise NotImplementedError("EinsumDense(lora_rank=...) is not supported yet.")
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.activation = _act.get(activation)
        self.bias_axes = bias_axes
        self.kernel_initializer, self.bias_initializer = _init.get(kernel_initializer), _init.get(bias_initializer)
        self.kernel_regularizer, self.bias_regularizer = _reg.get(kernel_regularizer), _reg.get(bias_regularizer)
        self.kernel_constraint, self.bias_constraint = _con.get(kernel_constraint), _con.get(bias_constraint)
        self.full_output_shape = None
        self.bias = None

    def build(self, input_shape):
        kernel_shape, bias_shape, full = analyze_equation(self.equation, self.bias_axes, input_shape,
                                                          self.partial_output_shape)
        self.full_output_shape = tuple(full)
        self.kernel = self.add_weight(kernel_shape, self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None if bias_shape is None else self.add_weight(
            bias_shape, self.bias_initializer, name="bias", regularizer=self.bias_regularizer,
            constraint=self.bias_constraint)
        self.built = True

    def compute_output_shape(self, input_shape):
        return tuple(analyze_equation(self.equation, self.bias_axes, input_shape, self.partial_output_shape)[2])

    def call(self, inputs):
        y = einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            y = y + self.bias
        return y if self.activation is None else self.activation(y)  # None may be set after construction

    def get_config(self):
        return {**super().get_config(), "output_shape": list(self.partial_output_shape), "equation": self.equation,
                "activation": _act.serialize(self.activation), "bias_axes": self.bias_axes,
                "kernel_initializer": _init.serialize(self.kernel_initializer),
                "bias_initializer": _init.serialize(self.bias_initializer),
                "kernel_regularizer": _reg.serialize(self.kernel_regularizer),
                "bias_regularizer": _reg.serialize(self.bias_regularizer),
                "activity_regularizer": _reg.serialize(self.activity_regularizer),
                "kernel_constraint": _con.serialize(self.kernel_constraint),
                "bias_constraint": _con.serialize(self.bias_constraint), "quantization_config": None}
