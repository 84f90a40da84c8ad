"""`tf.saved_model.save(obj, export_dir, signatures=None)`: the object tree, its traced functions,
signatures and variables, written in TensorFlow's layout (tf_format/) only. (Directories in eagerflow's
earlier format, docs/savedmodel-format.md, still load; legacy_writer.py keeps that format's writer for the
loader's tests.)

What is saved: walking `obj`'s attributes (and the tf.functions its class defines), every
Variable, every tf.function (all its traced ConcreteFunctions), every ConcreteFunction, and every
tf.Module or plain object, list, tuple or dict that holds some of those, under its attribute name.
Signatures are ConcreteFunctions whose outputs become a dict of named outputs, as TensorFlow does.
"""
from __future__ import annotations

import inspect
import os

from .._src.core import nest
from .._src.core.tensor import Tensor, TensorSpec
from .._src.io.atomic import atomic_directory
from .._src.trace.function import ConcreteFunction, Function
from .default_save_signature import DefaultSaveFunctions
from .format import DOCUMENT_NAME, TENSOR_DIR
from .load import RestoredFunction
from .save_options import check_save_options


# What a save writes into its directory (ours, and TensorFlow's SavedModel layout): replaced by a new
# save. Anything else a user keeps in the directory is carried over into the new save.
OWNED_ENTRIES = (DOCUMENT_NAME, TENSOR_DIR, "saved_model.pb", "saved_model.pbtxt", "variables", "assets",
                 "assets.extra", "fingerprint.pb")


def save(obj, export_dir, signatures=None, options=None):
    """Writes `obj` to `export_dir` (created if needed; an earlier model there is replaced).

    The model is written into a temporary directory beside `export_dir` that takes its place only when
    everything is written (io/atomic.py): a save that fails, for any reason, leaves an earlier model
    there as it was."""
    export_dir = os.fspath(export_dir)
    check_save_options(options)
    defaults = DefaultSaveFunctions()  # each Keras model's _default_save_signature, made once per save
    signature_map = _signature_functions(signatures) if signatures is not None else _default_signatures(obj, defaults)
    with atomic_directory(export_dir, owns=OWNED_ENTRIES) as building:
        _write_tensorflow_format(building, obj, signature_map, defaults)


def _write_tensorflow_format(building, obj, signature_map, defaults=None):
    """TensorFlow's files (tf_format/), the only format a save writes. A graph TensorFlow's ops cannot
    express (an op type graph_export/coverage.py lists, with its reason) is an ExportError, a
    ValueError naming the function and the op, raised before anything replaces `export_dir`."""
    from .tf_format.build import build
    from .tf_format.write import write_saved_model
    write_saved_model(building, build(obj, signature_map, defaults))


def _signature_functions(signatures) -> dict:
    """{key: ConcreteFunction}, refusing what TensorFlow 2.21 refuses with its ValueError."""
    if signatures is None:
        return {}
    if not isinstance(signatures, dict):
        signatures = {"serving_default": signatures}
    out = {}
    for key, fn in signatures.items():
        if not isinstance(key, str):
            raise ValueError(f"Signature keys must be strings, got {key!r}.")
        if isinstance(fn, Function) and fn.input_signature is not None:
            fn = fn.get_concrete_function()
        if not isinstance(fn, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a signature, but got {fn}. "
                             f"Only `tf.functions` with an input signature or concrete functions can be used as "
                             f"a signature.")
        out[key] = fn
    return out


def _default_signatures(obj, defaults=None) -> dict:
    """What TensorFlow exports as `serving_default` when given no signatures: the function the
    object's `_default_save_signature()` hook returns (a built Keras model's call,
    keras_export.py), else the root's one attribute that is a tf.function with an input_signature
    or a ConcreteFunction whose outputs a signature can name, when there is exactly one."""
    fn = (defaults or DefaultSaveFunctions()).function_of(obj)
    if fn is not None:
        return _signature_functions({"serving_default": fn})
    candidates = []
    if hasattr(obj, "__dict__") and not isinstance(obj, (Function, ConcreteFunction, RestoredFunction, type)):
        for _, value in _attributes(obj):
            if isinstance(value, Function) and value.input_signature is not None:
                value = value.get_concrete_function()
            if isinstance(value, ConcreteFunction):
                try:
                    _signature_output_names(value, "serving_default")
                except ValueError:
                    continue
                candidates.append(value)
    return {"serving_default": candidates[0]} if len(candidates) == 1 else {}


def concrete_functions_of(fn: Function):
    """Every ConcreteFunction a tf.function keeps; one with an input_signature is traced for it if
    it never was (TensorFlow saves that trace too)."""
    if fn.input_signature is not None:
        fn.get_concrete_function()
    return fn._list_all_concrete_functions()


def _attributes(obj):
    """(name, value) of what an object holds: its instance attributes, then the tf.functions its
    class defines (bound to it), each name once, sorted."""
    found = {}
    for name, value in vars(obj).items():
        if name == "signatures" and isinstance(value, dict):
            continue  # a loaded model's signatures: saved again only when passed as `signatures`
        if not name.startswith("_self_") and name != "_name":
            found[name] = value
    for name in dir(type(obj)):
        if name in found:
            continue
        try:
            static = inspect.getattr_static(type(obj), name)
        except AttributeError:
            continue
        if isinstance(static, Function):
            found[name] = getattr(obj, name)
    return sorted(found.items())


def signature_input_names(cf):
    """A signature's input names, as TensorFlow names them: a TensorSpec's own name, else the flat
    parameter name (`x`, `inputs_1`)."""
    flat = [spec.name for spec in cf.flat_input_signature]
    specs = [t for _, _, template in cf.traced_parameters for t in nest.flatten(template, expand_composites=True)
             if isinstance(t, TensorSpec)]
    inputs = [spec.name or name for spec, name in zip(specs, flat)] if len(specs) == len(flat) else flat
    return inputs if len(set(inputs)) == len(inputs) else flat


def _signature_output_names(cf, key):
    """The signature's output names in the order of the function's flat outputs (TensorFlow's
    rule: a dict's keys, else `output_<i>`); TensorFlow's ValueError for what it refuses."""
    structure = cf.traced_outputs
    where = f"in the output of the function {cf.name} used to generate the SavedModel signature {key!r}"
    if isinstance(structure, dict):
        for k, v in structure.items():
            if not isinstance(k, str):
                raise ValueError(f"Got a dictionary with a non-string key {k!r} {where}.")
        names = sorted(structure)  # the flat outputs follow sorted keys (nest.flatten)
        values = [structure[k] for k in names]
    elif isinstance(structure, (list, tuple)):
        values = list(structure)
        names = [f"output_{i}" for i in range(len(values))]
    else:
        values, names = [structure], ["output_0"]
    for name, v in zip(names, values):
        if not isinstance(v, Tensor):
            raise ValueError(f"Got a non-Tensor value {v!r} for key {name!r} {where}. Outputs for functions used "
                             f"as signatures must be a single Tensor, a sequence of Tensors, or a dictionary from "
                             f"string to Tensor.")
    return names
