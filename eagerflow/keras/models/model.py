"""keras.Model: subclassing (`call(self, x, training=None)`) and the functional form
(`keras.Model(inputs, outputs)`), with compile/fit/evaluate/predict from `Trainer`."""
from __future__ import annotations

from ..._src.core import nest
from ..layers.base import Layer
from ..naming import to_snake_case, unique_name
from .functional import FunctionalGraph
from .functional_inputs import functional_input_spec, standardize_inputs
from .summary import summary_lines
from .training import Trainer


class Model(Trainer, Layer):
    def __new__(cls, *args, **kwargs):
        if cls is Model and (len(args) >= 2 or "inputs" in kwargs or "outputs" in kwargs):
            return super().__new__(Functional)
        return super().__new__(cls, *args, **kwargs)

    def __init__(self, *args, **kwargs):
        if functional_init_arguments(args, kwargs) and not isinstance(self, Functional):
            # `class M(keras.Model)` built as M(inputs=..., outputs=...): a functional model with M's methods,
            # Functional put into M's bases as Keras 3 does
            inject_functional_class(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        Layer.__init__(self, trainable=trainable, name=name if name is not None else
                       unique_name(to_snake_case(type(self).__name__)), **kwargs)
        Trainer.__init__(self)
        # Model.build is for users (`model.build((None, 784))`); a model otherwise builds by being called.
        build = type(self).build
        self._build_overridden = build is not Layer.build and not getattr(build, "_on_request_only", False)

    def build(self, input_shape=None):
        """Builds the weights by calling the model once on a symbolic batch of `input_shape`."""
        if self.built and self.weights:
            return
        from ..layers.keras_tensor import KerasTensor
        shape = tuple(input_shape)
        self(KerasTensor(shape))
        self.built = True

    build._on_request_only = True

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None):
        graph = getattr(self, "_graph", None)
        for line in summary_lines(self, self._summary_layers(), graph.nodes_by_depth if graph is not None else None):
            (print_fn or print)(line)

    def _summary_layers(self):
        return self.layers

    # --- SavedModel (the logic is in saved_model/keras_export.py) ---
    def _maybe_build(self, inputs):
        """Also records the first call's inputs as TensorSpecs: the serving signature of a model
        built by being called takes those (Keras keeps them as its build shapes)."""
        if not self.built and inputs is not None:
            from ...saved_model.keras_export import input_specs_of
            self._build_input_specs = input_specs_of(inputs)
        super()._maybe_build(inputs)

    def _default_save_signature(self):
        """TensorFlow's hook: the tf.function `tf.saved_model.save` makes `serving_default` from when
        given no signatures; None while the model is not built."""
        from ...saved_model.keras_export import default_save_signature
        return default_save_signature(self)

    def export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs):
        """Writes a SavedModel for inference with a `serve` endpoint (Keras 3's `export`)."""
        from ...saved_model.keras_export import export
        export(self, filepath, format=format, verbose=verbose, input_signature=input_signature, **kwargs)

    _config_with_objects = True

    @classmethod
    def from_config(cls, config, module_objects=None, custom_objects=None):
        """A functional config (input_layers/output_layers) rebuilds the graph through `cls(inputs, outputs)`
        when the class takes those (Keras 3's Model.from_config); any other config goes to __init__."""
        if "input_layers" in config and "output_layers" in config and _revivable_as_functional(cls):
            from ..saving.serialization import keras_classes
            from .config import functional_from_config
            return functional_from_config(Functional if cls is Model else cls, config,
                                          module_objects or keras_classes(), custom_objects)
        return cls(**config)

    def to_json(self, **kwargs):
        """The model's architecture (and compile config) as JSON; `keras.models.model_from_json` reads it."""
        from .cloning import model_to_json
        return model_to_json(self, **kwargs)

    def get_layer(self, name=None, index=None):
        if index is not None:
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in self.layers]}.")


class Functional(Model):
    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        graph = FunctionalGraph(inputs, outputs)
        super().__init__(name=name if name is not None else unique_name("functional"), trainable=trainable, **kwargs)
        self._graph = graph
        for layer in graph.layers:
            self._tracked_layers.append(layer)
        self.built = True

    @property
    def inputs(self):
        """The input KerasTensors as a flat list (Keras 3); `input` keeps the structure given."""
        return list(nest.flatten(self._graph.inputs, expand_composites=True))

    @property
    def outputs(self):
        return list(nest.flatten(self._graph.outputs, expand_composites=True))

    @property
    def input(self):
        return self._graph.inputs

    @property
    def output(self):
        return self._graph.outputs

    @property
    def output_names(self):
        """The name of the layer (or keras.ops operation) producing each output, in `outputs`' order;
        fit/evaluate accept targets, losses and metrics keyed by these (Keras 3)."""
        return [t._keras_history.layer.name for t in self.outputs]

    @property
    def input_shape(self):
        """Keras 3: the input's shape as a tuple, or a list of them for several inputs."""
        return _shapes(self.inputs)

    @property
    def output_shape(self):
        return _shapes(self.outputs)

    _convert_input_args = False  # its call converts each input to its Input's dtype instead

    @property
    def input_spec(self):
        """One InputSpec per Input: a call's inputs are checked against them before it runs (Keras 3)."""
        spec = self.__dict__.get("_input_spec")
        if spec is None:
            spec = self.__dict__["_input_spec"] = functional_input_spec(self._graph.inputs, self.inputs) or ()
        return spec

    @input_spec.setter
    def input_spec(self, value):
        self.__dict__["_input_spec"] = value

    def call(self, inputs, training=None):
        return self._graph.run(standardize_inputs(self._graph.inputs, self.inputs, inputs))

    def _summary_layers(self):
        return self._graph.operations  # keras.ops operations have rows too (Keras 3)

    _config_with_objects = True

    def get_config(self):
        from .config import functional_config
        return functional_config(self)

    def get_build_config(self):
        return {"input_shape": None}


def functional_init_arguments(args, kwargs):
    """Whether a Model is constructed the functional way: (inputs, outputs) positionally or by keyword."""
    return len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or ("inputs" in kwargs and "outputs" in kwargs)


def inject_functional_class(cls):
    """Replaces Model by Functional among the bases of `cls` (and of its bases), once."""
    if cls is Model:
        return Functional
    if cls is object or issubclass(cls, Functional) or not issubclass(cls, Model):
        return cls
    cls.__bases__ = tuple(inject_functional_class(base) for base in cls.__bases__)
    return cls


def _revivable_as_functional(cls):
    """Keras 3 rebuilds a functional config through `cls(inputs, outputs, name=...)` when `cls.__init__`
    takes those (Model, Functional, a subclass without its own __init__, or one taking *args, **kwargs)."""
    import inspect
    if cls is Model or cls is Functional:
        return True
    spec = inspect.getfullargspec(cls.__init__)
    return spec.args[1:] == inspect.getfullargspec(Functional.__init__).args[1:] or (
        spec.varargs is not None and spec.varkw is not None)


def _shapes(tensors):
    shapes = [tuple(t.shape) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes
