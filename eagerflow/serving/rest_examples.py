"""The REST API's :classify and :regress bodies: JSON examples become serialized tf.train.Example
protos (TensorFlow Serving's rules: a feature's kind is its first value's: integers and booleans go
to int64_list, decimals to float_list, strings and `{"b64": ...}` to bytes_list; `context` features
are added to every example and must not appear in one), fed to the signature's one string input
"inputs"; the answers are read from the outputs "classes"/"scores" and "outputs"."""
from __future__ import annotations

import numpy as np

from .._src.formats.protos import example_pb2
from .errors import invalid_argument
from .json_tensors import debug_text, decode_b64, is_b64, json_type

CLASSIFY_INPUTS, CLASSES, SCORES, REGRESS_OUTPUTS = "inputs", "classes", "scores", "outputs"


def _kind_of(value):
    if isinstance(value, bool) or isinstance(value, int):
        return "int64"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str) or is_b64(value):
        return "bytes"
    return None


def _fill_feature(feature, name, value):
    """Set the tf.train.Feature message `feature` from a JSON value or list of values."""
    values = value if isinstance(value, list) else [value]
    kind = None
    for item in values:
        item_kind = _kind_of(item)
        if item_kind is None:
            raise invalid_argument(f"Feature: {name} has element with unexpected JSON type: {json_type(item)}")
        if kind is not None and item_kind != kind:
            raise invalid_argument(f"Unexpected element type in feature: {name} expecting type: {kind}")
        kind = item_kind
        if item_kind == "bytes":
            feature.bytes_list.value.append(decode_b64(item) if is_b64(item) else item.encode("utf-8"))
        elif item_kind == "int64":
            if not isinstance(item, bool) and not -2**63 <= item < 2**63:
                raise invalid_argument(f"Feature: {name} has uint64_t element. Only int64_t is supported.")
            feature.int64_list.value.append(int(item))
        else:
            feature.float_list.value.append(item)


def _check_object(example):
    if not isinstance(example, dict):
        raise invalid_argument(f"Example must be JSON object but got JSON {json_type(example)}")
    return example


def serialized_examples(document: dict, method: str) -> np.ndarray:
    """The request's examples, each merged with the context, as a 1-D array of serialized Examples."""
    if "examples" not in document:
        raise invalid_argument(f"JSON Value: {debug_text(document)} When method is {method}, key 'examples' is "
                               f"expected and was not found")
    examples = document["examples"]
    if not isinstance(examples, list):
        raise invalid_argument(f"JSON Value: {debug_text(document)} Expecting 'examples' value to be an list/array")
    if not examples:
        raise invalid_argument(f"JSON Value: {debug_text(document)} 'examples' value is an empty array")
    context = _check_object(document.get("context", {}))
    out = np.empty(len(examples), dtype=object)
    for index, example in enumerate(examples):
        shared = sorted(set(_check_object(example)) & set(context))
        if shared:
            raise invalid_argument(f"Feature: {shared[0]} appears in both the context and example {index}")
        message = example_pb2.Example()
        for name, value in {**context, **example}.items():
            _fill_feature(message.features.feature[name], name, value)
        out[index] = message.SerializeToString()
    return out


def check_classify_signature(signature):
    if len(signature.inputs) != 1:
        raise invalid_argument("Expected one input Tensor.")
    if len(signature.outputs) not in (1, 2):
        raise invalid_argument(f"Expected one or two output Tensors, found {len(signature.outputs)}")
    if CLASSIFY_INPUTS not in signature.inputs:
        raise invalid_argument(f"No classification inputs found in SignatureDef: {signature.key}")
    if CLASSES not in signature.outputs and SCORES not in signature.outputs:
        raise invalid_argument(f'Expected classification signature outputs to contain at least one of "{CLASSES}" '
                               f'or "{SCORES}". Signature was: {signature.key}')


def check_regress_signature(signature):
    if len(signature.inputs) != 1:
        raise invalid_argument("Expected one input Tensor.")
    if len(signature.outputs) != 1:
        raise invalid_argument("Expected one output Tensor.")
    if CLASSIFY_INPUTS not in signature.inputs:
        raise invalid_argument(f"No regression inputs found in SignatureDef: {signature.key}")
    if REGRESS_OUTPUTS not in signature.outputs:
        raise invalid_argument(f"No regression outputs found in SignatureDef: {signature.key}")


def classification_results(outputs: dict, count: int) -> list:
    """[[(label, score), ...] per example]: label '' without a classes output, score 0 without scores."""
    classes, scores = outputs.get(CLASSES), outputs.get(SCORES)
    for name, array in ((CLASSES, classes), (SCORES, scores)):
        if array is None:
            continue
        if array.ndim != 2:
            raise invalid_argument(f"Expected Tensor shape: [batch_size num_classes] but got "
                                   f"[{','.join(map(str, array.shape))}]")
        if array.shape[0] != count:
            raise invalid_argument(f"Expected {name} output batch size of {count}. Got: {array.shape[0]}")
    if classes is not None and classes.dtype != np.dtype(object):
        raise invalid_argument(f"Expected classes Tensor of DT_STRING. Got: {classes.dtype.name}")
    if scores is not None and scores.dtype != np.float32:
        raise invalid_argument(f"Expected scores Tensor of DT_FLOAT. Got: {scores.dtype.name}")
    if classes is not None and scores is not None and classes.shape[1] != scores.shape[1]:
        raise invalid_argument(f"Tensors class and score should match in dim_size(1). Got {classes.shape[1]} vs. "
                               f"{scores.shape[1]}")
    width = (classes if classes is not None else scores).shape[1]
    results = []
    for row in range(count):
        labels = [_label(classes[row, c]) if classes is not None else "" for c in range(width)]
        values = scores[row].tolist() if scores is not None else [0.0] * width
        results.append(list(zip(labels, values)))
    return results


def _label(value) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def regression_values(outputs: dict, count: int) -> list:
    values = outputs[REGRESS_OUTPUTS]
    if values.ndim == 2 and values.shape[1] == 1:
        values = values[:, 0]
    if values.ndim != 1:
        raise invalid_argument(f"Expected output Tensor shape to be either [batch_size] or [batch_size, 1] but got "
                               f"[{','.join(map(str, values.shape))}]")
    if values.shape[0] != count:
        raise invalid_argument(f"Input batch size did not match output batch size: {count} vs. {values.shape[0]}")
    if values.dtype != np.float32:
        raise invalid_argument(f"Expected output Tensor of DT_FLOAT.  Got: {values.dtype.name}")
    return values.tolist()
