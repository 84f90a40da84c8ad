"""`ConcreteFunction.function_def`: the function as TensorFlow's FunctionDef message, written by the
same exporter a SavedModel's functions go through (function_export.py), its outputs named as
TensorFlow names them ("identity", "identity_1", ...)."""
from __future__ import annotations

from .function_export import FunctionLibrary, export_concrete_function
from .proto_fill import fill


def output_names(count):
    return ["identity" if i == 0 else f"identity_{i}" for i in range(count)]


def function_def_message(cf):
    """A function_pb2.FunctionDef of `cf` (its variables as resource arguments, as TF writes them)."""
    from ..protos import function_pb2
    library = FunctionLibrary()
    export_concrete_function(library, cf, output_names=output_names(len(cf.outputs)))
    return fill(function_pb2.FunctionDef(), library.functions[0])
