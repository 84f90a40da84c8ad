"""Keras models as SavedModels: the `serving_default` that `tf.saved_model.save(model, d)` makes
from a model's call when given no signatures, and Keras 3's `model.export(d)`.

What TensorFlow 2.21 with Keras 3 does, and this module follows:
- `tf.saved_model.save(model, d)`: a built model gets `serving_default`, a function of one argument
  `inputs` calling the model. Its input specs are the model's `keras.Input`s (functional, or a
  Sequential given an input shape) or else the shapes of the first call, batch size included
  (Keras's build shapes). Inputs are named after that argument (`inputs`, `inputs_1`, ... for a
  list or dict of inputs); outputs `output_0`, `output_1`, ... or the keys of a dict output. An
  unbuilt model is saved without signatures (no error).
- `model.export(d)`: an archive whose root holds `serve` (the model's call) and the model's
  `variables`, `trainable_variables` and `non_trainable_variables`; signatures `serve` and
  `serving_default`, both that call. Inputs are named after the `keras.Input` tensors (`features`,
  or `args_0` for a subclassed model, whose batch size becomes unknown). An unbuilt model is
  Keras's ValueError.
The Keras side only records the first call's inputs (`Model._maybe_build`) and forwards to here.
"""
from __future__ import annotations

import os

from .._src.core import nest
from .._src.core.shape import TensorShape
from .._src.core.tensor import TensorSpec


def default_save_signature(model):
    """The tf.function `tf.saved_model.save` uses as the model's serving_default, or None when the
    model is not built (TensorFlow then saves no signature)."""
    specs = _input_specs(model, relax_batch=False, named=False)
    if specs is None:
        return None
    from .._src.trace.function import function

    def serving_default(inputs):
        return model(inputs)

    return function(serving_default, input_signature=[specs])


def export(model, filepath, format="tf_saved_model", verbose=None, input_signature=None, **kwargs):
    """Keras 3's `Model.export` for format="tf_saved_model"."""
    if format != "tf_saved_model":
        raise ValueError(f"Unrecognized format={format}. Supported formats are: 'tf_saved_model'.")
    if kwargs:
        raise TypeError(f"Unrecognized keyword arguments passed to export: {sorted(kwargs)}")
    if not model.built:
        raise ValueError("The model provided has not yet been built. It must be built before export.")
    if input_signature is None:
        input_signature = [_input_specs(model, relax_batch=True, named=True)]
    else:
        input_signature = [nest.map_structure(_as_spec, s, expand_composites=True) for s in input_signature]
    from .._src.trace.function import function
    from .save import save

    def serve(*args):
        return model(*args)

    archive = _ExportArchive()
    archive.serve = function(serve, input_signature=input_signature)
    archive.variables = list(model.variables)
    archive.trainable_variables = list(model.trainable_variables)
    archive.non_trainable_variables = list(model.non_trainable_variables)
    endpoint = archive.serve.get_concrete_function()
    save(archive, filepath, signatures={"serve": endpoint, "serving_default": endpoint})
    if verbose is None or verbose:
        lines = endpoint.pretty_printed_signature().split("\n")
        print(f"Saved artifact at '{os.fspath(filepath)}'. The following endpoints are available:\n\n"
              + "\n".join(["* Endpoint 'serve'"] + lines[1:]))


class _ExportArchive:
    """The root `export` saves (Keras's ExportArchive): the endpoint and the model's variables."""


def _input_specs(model, relax_batch, named):
    """The model's input structure as TensorSpecs: its keras.Input tensors, or the first call's
    inputs; None before the model is built."""
    inputs = _keras_inputs(model)
    if inputs is not None:
        return nest.map_structure(lambda t: _as_spec(t, named=named), inputs, expand_composites=True)
    recorded = getattr(model, "_build_input_specs", None)
    if recorded is None or not model.built:
        return None
    if not relax_batch:
        return recorded
    return nest.map_structure(lambda s: TensorSpec(_without_batch(s.shape), s.dtype, s.name), recorded,
                              expand_composites=True)


def _keras_inputs(model):
    """The KerasTensors a functional model, or a Sequential given its input shape, is defined on."""
    if getattr(model, "_graph", None) is not None:
        return model._graph.inputs  # the structure given to keras.Model (model.input)
    input_layer = getattr(model, "_input_layer", None)
    return None if input_layer is None else input_layer.output


def _as_spec(value, named=True):
    if isinstance(value, TensorSpec):
        return value
    return TensorSpec(TensorShape(list(value.shape)), value.dtype, value.name if named else None)


def _without_batch(shape):
    dims = shape.as_list() if shape.rank is not None else None
    return shape if not dims else TensorShape([None] + dims[1:])


def input_specs_of(inputs):
    """A first call's inputs as TensorSpecs (what `Model._maybe_build` records)."""
    def spec(v):
        shape, dtype = getattr(v, "shape", None), getattr(v, "dtype", None)
        if shape is None or dtype is None:
            return v
        return TensorSpec(TensorShape(list(shape)) if not isinstance(shape, TensorShape) else shape, dtype)
    return nest.map_structure(spec, inputs, expand_composites=True)
