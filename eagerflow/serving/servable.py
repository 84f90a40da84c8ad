"""A loaded model version as the server sees it: its signatures, each with named, typed inputs and
outputs, and a call that takes and returns NumPy arrays.

`load_servable` is the one place that reads a SavedModel (through tf.saved_model.load), so a new
SavedModel format only changes this file. The shapes and dtypes here answer the metadata API and
check requests before the model runs: a request the signature cannot take is INVALID_ARGUMENT with
the input's name, never an error from deep inside the model.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .._src.graph.graph_def import datatype_name
from .errors import ServingError, invalid_argument
from .runners import CallCost

PREDICT_METHOD = "tensorflow/serving/predict"
DEFAULT_SIGNATURE = "serving_default"


def dt_name(dtype) -> str:
    """TensorFlow's enum name of an eagerflow dtype: float32 -> DT_FLOAT, string -> DT_STRING."""
    return datatype_name(dtype)


def type_name(dtype) -> str:
    """TensorFlow's DataTypeString, the name its messages use: float32 -> float, float64 -> double."""
    return dt_name(dtype)[3:].lower()


@dataclass(frozen=True)
class TensorInfo:
    """One named input or output: `shape` is a tuple with None for unknown dimensions, or None for an
    unknown rank; `numpy_dtype` is what requests are decoded into (object for strings)."""
    alias: str
    dtype: object          # eagerflow DType
    shape: tuple | None
    tensor_name: str

    @property
    def dt_name(self) -> str:
        return dt_name(self.dtype)

    @property
    def type_name(self) -> str:
        return type_name(self.dtype)

    @property
    def numpy_dtype(self):
        return np.dtype(object) if self.dtype.name == "string" else np.dtype(self.dtype.as_numpy_dtype)

    def accepts_shape(self, shape) -> bool:
        if self.shape is None:
            return True
        return len(shape) == len(self.shape) and all(d is None or d == s for d, s in zip(self.shape, shape))

    def shape_text(self) -> str:
        return "[?]" if self.shape is None else "[" + ",".join("-1" if d is None else str(d) for d in self.shape) + "]"


class Signature:
    """A signature of a loaded version: `inputs`/`outputs` map aliases to TensorInfo, in sorted order."""

    def __init__(self, key: str, function, inputs: dict, outputs: dict, method_name: str = PREDICT_METHOD):
        self.key = key
        self.function = function
        self.inputs = dict(sorted(inputs.items()))
        self.outputs = dict(sorted(outputs.items()))
        self.method_name = method_name
        self.cost = CallCost()  # how long its calls take lately (runners.DirectRunner reads it)

    def check_inputs(self, arrays: dict):
        """INVALID_ARGUMENT unless `arrays` has exactly the signature's inputs, each of an accepted shape and
        of the input's dtype (the message lists what was sent, what is extra and what is missing)."""
        sent, expected = set(arrays), set(self.inputs)
        if sent != expected:
            raise invalid_argument(
                f"input size does not match signature: {len(sent)}!={len(expected)} "
                f"len({{{','.join(sorted(sent))}}}) != len({{{','.join(sorted(expected))}}}). "
                f"Sent extra: {{{','.join(sorted(sent - expected))}}}. "
                f"Missing but required: {{{','.join(sorted(expected - sent))}}}.")
        for alias, info in self.inputs.items():
            array = arrays[alias]
            if array.dtype != info.numpy_dtype:
                raise invalid_argument(f"Expects arg[{list(self.inputs).index(alias)}] ({alias}) to be "
                                       f"{type_name(info.dtype)} but {_dtype_text(array.dtype)} is provided")
            if not info.accepts_shape(array.shape):
                raise invalid_argument(f"input '{alias}' has shape [{','.join(map(str, array.shape))}] but the "
                                       f"signature accepts {info.shape_text()} (-1: any size)")

    def run(self, arrays: dict) -> dict:
        """The signature on NumPy inputs (checked first): its outputs as NumPy arrays, by alias."""
        self.check_inputs(arrays)
        try:
            results = self.function(**arrays)
        except ServingError:
            raise
        except (ValueError, TypeError, ArithmeticError) as err:
            raise invalid_argument(f"{type(err).__name__}: {err}") from None
        except Exception as err:  # the model's own failure (an op's InvalidArgumentError, ...)
            code = "INVALID_ARGUMENT" if "InvalidArgument" in type(err).__name__ else "INTERNAL"
            raise ServingError(code, f"{type(err).__name__}: {err}") from None
        return {alias: _to_numpy(results[alias]) for alias in self.outputs}


def _dtype_text(dtype) -> str:
    """TensorFlow's DataTypeString of a request array's dtype (float64 is "double", float16 "half")."""
    if dtype == np.dtype(object):
        return "string"
    return {"float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _to_numpy(value):
    array = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
    return np.asarray(array)


@dataclass
class Servable:
    """One loaded version: `signatures` by key. Immutable once published, so requests share it freely."""
    version: int
    path: str
    signatures: dict

    def signature(self, key: str | None, api: str = "predict_rest") -> Signature:
        """The signature a request names (serving_default when it names none). TensorFlow Serving words a
        missing one differently per API: `api` is "predict_rest", "predict_grpc" or "examples"
        (:classify/:regress over either API)."""
        key = key or DEFAULT_SIGNATURE
        if key not in self.signatures:
            if api == "predict_grpc":
                raise ServingError("FAILED_PRECONDITION", f'Serving signature key "{key}" not found.')
            if api == "examples":
                raise invalid_argument(f"No signature was found with the name: {key}")
            raise invalid_argument(f'Serving signature name: "{key}" not found in signature def')
        return self.signatures[key]


def _shape_tuple(shape):
    if shape.rank is None:
        return None
    return tuple(shape.as_list())


def _signature(key, function) -> Signature:
    specs = function.structured_input_signature[1]
    placeholders = dict(zip([spec.name for spec in function.flat_input_signature], function.inputs))
    inputs = {alias: TensorInfo(alias, spec.dtype, _shape_tuple(spec.shape), placeholders[alias].name)
              for alias, spec in specs.items()}
    outputs = {alias: TensorInfo(alias, tensor.dtype, _shape_tuple(tensor.shape), tensor.name)
               for alias, tensor in function.traced_outputs.items()}
    return Signature(key, function, inputs, outputs)


def load_servable(path: str, version: int) -> Servable:
    """Load the SavedModel in `path` (the one call of tf.saved_model.load in the server), then replay its
    warmup requests if it has them (warmup.py)."""
    from ..saved_model.load import load
    root = load(os.fspath(path))
    signatures = dict(getattr(root, "signatures", None) or {})
    if not signatures:
        raise ValueError(f"the SavedModel in {path} has no signatures to serve")
    servable = Servable(version, os.fspath(path), {key: _signature(key, fn) for key, fn in signatures.items()})
    if os.path.exists(os.path.join(os.fspath(path), "assets.extra")):
        from .warmup import replay
        replay(servable, path)
    return servable
