"""The REST API's request and response bodies for :predict, in TensorFlow Serving's row ("instances")
and columnar ("inputs") formats, with its messages for each malformed request."""
from __future__ import annotations

import json

from .errors import ServingError, invalid_argument
from .json_tensors import debug_text, is_b64, to_array, to_json_value

ROW, COLUMNAR = "row", "columnar"
try:  # optional (eagerflow[serve] installs it): parses a row of numbers about ten times faster than json
    import orjson
except ImportError:
    orjson = None
# 19 digits in a row may be an integer outside int64/uint64, which orjson reads as a float and json as an int:
# found as 19 zeros once every digit is a zero (two C loops over the bytes; a regular expression costs more)
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_LONG_DIGITS = b"0" * 19


def _has_long_digits(body: bytes) -> bool:
    return _LONG_DIGITS in body.translate(_DIGITS_AS_ZERO)


def _loads(body: bytes):
    """json.loads(body)'s value, through orjson where it gives the same one. orjson refuses what standard
    JSON has not (NaN, Infinity, a number beyond a double's range, lone surrogates, other encodings, a
    byte-order mark), and every malformed document: json.loads then decides, with its own messages."""
    if orjson is not None and not _has_long_digits(body):
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
    return json.loads(body)


def parse_json(body: bytes):
    """The request body as a JSON object (NaN/Infinity accepted, as TensorFlow Serving accepts them)."""
    if not body.strip():
        raise invalid_argument("JSON Parse error: The document is empty")
    try:
        document = _loads(body)
    except UnicodeDecodeError:
        raise invalid_argument("JSON Parse error: Invalid encoding in string.") from None
    except json.JSONDecodeError as err:
        raise invalid_argument(f"JSON Parse error: {err.msg} at offset: {err.pos}") from None
    except RecursionError:
        raise invalid_argument("JSON Parse error: the document is nested too deeply") from None
    if not isinstance(document, dict):
        raise invalid_argument(f"JSON Value: {debug_text(document)} Is not object")
    return document


def signature_name(document: dict):
    name = document.get("signature_name")
    if name is not None and not isinstance(name, str):
        raise invalid_argument(f"JSON Value: {debug_text(document)} not formatted correctly. "
                               f"'signature_name' key must be a string value.")
    return name or None


def decode_predict(document: dict, signature, may_hold_bools=True):
    """({input alias: array}, ROW or COLUMNAR) from a :predict body, decoded into the signature's dtypes
    (`may_hold_bools`: see json_tensors.to_array)."""
    infos = signature.inputs
    if not infos:
        raise invalid_argument(f"Failed to get input map for signature: {signature.key}")
    has_instances, has_inputs = "instances" in document, "inputs" in document
    if has_instances and has_inputs:
        raise invalid_argument(f"JSON Value: {debug_text(document)} Not formatted correctly expecting only "
                               f"one of 'inputs' or 'instances' keys to exist ")
    if has_instances:
        instances = document["instances"]
        if not isinstance(instances, list):
            raise invalid_argument(f"JSON Value: {debug_text(document)} Expecting 'instances' to be an list/array")
        if not instances:
            raise invalid_argument(f"JSON Value: {debug_text(document)} No values in 'instances' array")
        return _from_instances(instances, infos, may_hold_bools), ROW
    if has_inputs:
        return _from_inputs(document["inputs"], infos, may_hold_bools), COLUMNAR
    raise invalid_argument("Missing 'inputs' or 'instances' key")


def _is_named(value) -> bool:
    return isinstance(value, dict) and not is_b64(value)


def _from_instances(instances, infos, bools):
    names = list(infos)
    named = _is_named(instances[0])
    if not named and len(names) > 1:
        raise invalid_argument("instances is a plain list, but expecting list of objects as multiple input "
                               "tensors required as per tensorinfo_map")
    if not named:
        for index, item in enumerate(instances):
            if _is_named(item):
                raise invalid_argument(f"Expecting value/list but got object at item {index} of input list")
        return {names[0]: _element_array(instances, infos[names[0]], None, bools)}
    columns = {name: [] for name in names}
    for index, item in enumerate(instances):
        if not _is_named(item):
            raise invalid_argument(f"Expecting object but got list at item {index} of input list")
        for key in item:
            if key not in infos:
                raise invalid_argument(f"Failed to process element: {index} key: {key} of 'instances' list. "
                                       f"Error: INVALID_ARGUMENT: JSON object: does not have named input: {key}")
        if set(item) != set(names):
            raise invalid_argument(f"Failed to process element: {index} of 'instances' list. JSON object: "
                                   f"{debug_text(item)} keys must be equal to: {','.join(sorted(names))}")
        for name in names:
            columns[name].append(item[name])
    return {name: _element_array(values, infos[name], name, bools) for name, values in columns.items()}


def _element_array(rows, info, name, bools):
    """Rows of one input stacked into one array; rows of different shapes name the first one that differs."""
    try:
        return to_array(rows, info, bools)
    except ServingError:
        shapes = _row_shapes(rows)
        for index, shape in enumerate(shapes):
            if shape != shapes[0]:
                raise invalid_argument(f"Failed to process element: {index}" + (f" key: {name}" if name else "")
                                       + f" of 'instances' list. Error: INVALID_ARGUMENT: Expecting shape "
                                       f"[{','.join(map(str, shapes[0]))}] but got: "
                                       f"[{','.join(map(str, shape))}]") from None
        raise


def _row_shapes(rows):
    shapes = []
    for row in rows:
        shape = []
        while isinstance(row, list):
            shape.append(len(row))
            row = row[0] if row else None
        shapes.append(tuple(shape))
    return shapes


def _from_inputs(inputs, infos, bools):
    names = list(infos)
    if not _is_named(inputs):
        if len(names) > 1:
            raise invalid_argument("inputs is a plain value/list, but expecting an object as multiple input "
                                   "tensors required as per tensorinfo_map")
        return {names[0]: to_array(inputs, infos[names[0]], bools)}
    arrays = {}
    for name in names:
        if name not in inputs:
            raise invalid_argument(f"Missing named input: {name} in 'inputs' object.")
        arrays[name] = to_array(inputs[name], infos[name], bools)
    extra = sorted(set(inputs) - set(names))
    if extra:
        raise invalid_argument(f"input size does not match signature: {len(inputs)}!={len(names)} "
                               f"len({{{','.join(sorted(inputs))}}}) != len({{{','.join(names)}}}). "
                               f"Sent extra: {{{','.join(extra)}}}. Missing but required: {{}}.")
    return arrays


def encode_predict(outputs: dict, form: str) -> dict:
    """The :predict response: `predictions` (row) or `outputs` (columnar); one output is given without its
    name, several by name (row format: one object per batch row)."""
    if not outputs:
        raise invalid_argument("Cannot convert empty tensor map to JSON")
    if form == COLUMNAR:
        if len(outputs) == 1:
            (name, array), = outputs.items()
            return {"outputs": to_json_value(name, array)}
        return {"outputs": {name: to_json_value(name, array) for name, array in outputs.items()}}
    batch = None
    for name, array in outputs.items():
        if array.ndim == 0:
            raise invalid_argument(f"Tensor name: {name} has no shape information ")
        if batch is None:
            batch = array.shape[0]
        elif array.shape[0] != batch:
            raise invalid_argument(f"Tensor name: {name} has inconsistent batch size: {array.shape[0]} "
                                   f"expecting: {batch}")
    if len(outputs) == 1:
        (name, array), = outputs.items()
        return {"predictions": to_json_value(name, array)}
    columns = {name: to_json_value(name, array) for name, array in outputs.items()}
    return {"predictions": [{name: column[row] for name, column in columns.items()} for row in range(batch)]}
