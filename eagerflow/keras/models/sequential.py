"""keras.Sequential: a stack of layers, each called on the previous one's output."""
from __future__ import annotations

from ..layers.base import Layer
from ..layers.core.input_layer import InputLayer
from ..layers.keras_tensor import KerasTensor
from ..naming import name_scope, unique_name
from .functional_inputs import standardize_inputs
from .model import Model


class Sequential(Model):
    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(name=name if name is not None else unique_name("sequential"), trainable=trainable)
        self._input_layer = None
        self._stack = []
        for layer in layers or ():
            self.add(layer, rebuild=False)
        if self._input_layer is not None and self._stack:
            self._build_symbolically()  # once for the whole list, as Keras builds it

    def add(self, layer, rebuild=True):
        if isinstance(layer, KerasTensor):
            layer = layer._keras_history.layer
        if isinstance(layer, InputLayer):
            if self._stack or self._input_layer is not None:
                raise ValueError("An InputLayer can only be added at the start of a Sequential model.")
            self._input_layer = layer
            return
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: {layer} "
                             f"(of type {type(layer)})")
        if not self._stack and self._input_layer is None and layer._input_shape_arg is not None:
            self._input_layer = InputLayer(shape=layer._input_shape_arg)
        previous_output = getattr(self, "_symbolic_output", None) if self.built else None
        self._stack.append(layer)
        self._tracked_layers.append(layer)
        self.built = False
        if not rebuild or self._input_layer is None:
            return
        if previous_output is not None:  # the stack so far is built: only the new layer is called
            with name_scope(self.name):
                self._symbolic_output = layer(previous_output)
            self.built = True
        else:
            self._build_symbolically()

    def _build_symbolically(self):
        """With a known input shape, build every layer now (as Keras does) and record its output shape."""
        if not getattr(self, "_functional_named", False):  # Keras wraps the stack in a Functional: it takes that name
            unique_name("functional")
            self._functional_named = True
        x = self._input_layer.output
        with name_scope(self.name):
            for layer in self._stack:
                x = layer(x)
        self._symbolic_output = x
        self.built = True

    def build(self, input_shape=None):
        """`model.build((None, 4))`: the input shape given up front, as if the model began with keras.Input."""
        if self._input_layer is None:
            if input_shape is None:
                raise ValueError("You must provide an `input_shape` argument.")
            self._input_layer = InputLayer(batch_shape=tuple(input_shape))
        self._build_symbolically()

    build._on_request_only = True

    def _maybe_build(self, inputs):
        """Called first on data, the model builds from that batch's shape (the batch size included), as
        Keras 3 does, so `layer.output` and `model.inputs` are defined after a plain call or fit."""
        super()._maybe_build(inputs)
        shape = getattr(inputs, "shape", None)
        if self._input_layer is None and self._stack and shape is not None and not isinstance(inputs, KerasTensor):
            dtype = inputs.dtype if not getattr(inputs.dtype, "is_floating", False) else self._compute
            self._input_layer = InputLayer(batch_shape=tuple(shape.as_list() if hasattr(shape, "as_list")
                                                             else shape), dtype=dtype)
            self._build_symbolically()

    @property
    def layers(self):
        return list(self._stack)

    @property
    def inputs(self):
        """[the input KerasTensor] once the input shape is known (keras.Input first, or build())."""
        if self._input_layer is None or getattr(self, "_symbolic_output", None) is None:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined input.")
        return [self._input_layer.output]

    @property
    def outputs(self):
        if getattr(self, "_symbolic_output", None) is None:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined output.")
        return [self._symbolic_output]

    @property
    def input_shape(self):
        return None if self._input_layer is None else self._input_layer.batch_shape

    @property
    def output_shape(self):
        if getattr(self, "_symbolic_output", None) is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined output shape yet.")
        return tuple(self._symbolic_output.shape)

    def pop(self):
        layer = self._stack.pop()
        self._tracked_layers.remove(layer)
        self._symbolic_output = None
        if self._input_layer is not None and self._stack:
            self._build_symbolically()  # outputs: the new last layer's
        return layer

    _config_with_objects = True

    def get_config(self):
        from .config import sequential_config
        return sequential_config(self)

    @classmethod
    def from_config(cls, config, module_objects=None, custom_objects=None):
        from ..saving.serialization import keras_classes
        from .config import sequential_from_config
        return sequential_from_config(cls, config, module_objects or keras_classes(), custom_objects)

    def get_build_config(self):
        return None if self._input_layer is None else {"input_shape": list(self._input_layer.batch_shape)}

    def call(self, inputs, training=None):
        x = inputs
        if self._input_layer is not None and getattr(self, "_symbolic_output", None) is not None:
            # as Keras' Sequential runs its functional form: the Input's dtype, a trailing 1 squeezed/expanded
            head = self._input_layer.output
            x = standardize_inputs(head, [head], x)[0]
        for layer in self._stack:
            x = layer(x)
        return x
