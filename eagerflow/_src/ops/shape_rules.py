"""Shared shape-and-dtype rules for OpDefs. Each works on partially known shapes (None dims).

Rules raise InvalidArgumentError with TensorFlow's eager wording; graph tracing reports the same
message as a ValueError at trace time, except a refused input dtype (InputTypeError), which
becomes TensorFlow's graph-mode TypeError.
"""
from __future__ import annotations

from ..core import dtypes as _dt
from ..core.context import state
from ..core.errors import InvalidArgumentError
from ..core.shape import TensorShape
from .registry import Spec
from .tf_allowed_types import tf_allowed_names
from .validation import InputTypeError, graph_type_error


def fmt_dims(shape: TensorShape) -> str:
    """`[2,3]` as TensorFlow prints shapes in error messages (`?` for unknown)."""
    if shape.rank is None:
        return "<unknown>"
    return dims_text(shape)


def dims_text(dims) -> str:
    """Sizes (a list, a NumPy shape, a TensorShape of known rank) as TensorFlow's messages print
    them: `[2,?]`, None as `?`."""
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def broadcast_shape(a: TensorShape, b: TensorShape) -> TensorShape:
    """NumPy/TensorFlow broadcasting of two static shapes; raises on a definite mismatch (in the words
    of the mode: the kernel's "Incompatible shapes", the shape function's "Dimensions must be equal")."""
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    da, db = list(a), list(b)
    n = max(len(da), len(db))
    da = [1] * (n - len(da)) + da
    db = [1] * (n - len(db)) + db
    out = []
    for x, y in zip(da, db):
        if x == 1:
            out.append(y)
        elif y == 1:
            out.append(x)
        elif x is None:
            out.append(y)
        elif y is None:
            out.append(x)
        elif x == y:
            out.append(x)
        else:
            refuse(f"Incompatible shapes: {fmt_dims(a)} vs. {fmt_dims(b)}",
                   f"Dimensions must be equal, but are {x} and {y}")
    return TensorShape(out)


def check_same_dtype(op_name: str, inputs, first_index: int = 0, list_input: bool = False,
                     positions=None) -> _dt.DType:
    """TensorFlow refuses mixed dtypes: eagerly an InvalidArgumentError naming the input position,
    while building a graph TensorFlow's TypeError (validation.graph_type_error, which graph
    building lets through). `first_index`: the op input `inputs[0]` is (SelectV2 checks `t` and `e`, inputs 1
    and 2); `list_input`: the inputs are one list-valued input (AddN's, Pack's, ConcatV2's); `positions`:
    each input's position among the op's inputs when they are not consecutive (ScatterNd's 0 and 2)."""
    first = inputs[0].dtype
    if positions is not None:
        first_index = positions[0]
    for i, t in enumerate(inputs[1:], start=1):
        at = positions[i] - first_index if positions is not None else i
        if t.dtype is not first:
            if state.graph is not None or any(getattr(x, "is_symbolic", False) for x in inputs):
                if list_input:
                    names = _OP_INPUTS(op_name)
                    types = ", ".join(x.dtype.name for x in inputs)
                    raise graph_type_error(f"Tensors in list passed to '{names[0] if names else 'values'}' of "
                                         f"'{op_name}' Op have types [{types}] that don't all match.")
                raise graph_type_error(_graph_dtype_message(op_name, first_index + at, t.dtype, first, first_index))
            raise InvalidArgumentError(
                None, None,
                f"cannot compute {op_name} as input #{first_index + at}(zero-based) was expected to be a "
                f"{tf_type_word(first)} tensor but is a {tf_type_word(t.dtype)} tensor [Op:{op_name}]")
    return first


def _graph_dtype_message(op_name, i, got, expected, base=0):
    names = _OP_INPUTS(op_name)
    if len(names) > i:
        return (f"Input '{names[i]}' of '{op_name}' Op has type {got.name} that does not match type "
                f"{expected.name} of argument '{names[base]}'.")
    return (f"Input #{i} of '{op_name}' Op has type {got.name} that does not match type {expected.name} of "
            f"input #{base}.")


_CPP_TYPE_WORD = {"float32": "float", "float64": "double", "float16": "half"}


def tf_type_word(dtype: _dt.DType) -> str:
    """The name TensorFlow's C++ messages use for a dtype (DataTypeString)."""
    return _CPP_TYPE_WORD.get(dtype.name, dtype.name)


def check_dtype_in(op_name: str, dtype: _dt.DType, allowed, arg: str | None = None, attr: str = "T"):
    """TensorFlow's refusal of an input dtype the op does not accept: eagerly an InvalidArgumentError
    ("Value for attr 'T' of bool is not in the list of allowed values: float, double, ..."), while
    building a graph a TypeError ("Value passed to parameter 'features' has DataType bool not in list
    of allowed values: float32, float64, ..."): see validation.InputTypeError. `arg` is the input's
    name (default: the op's first input)."""
    if dtype not in allowed and not (dtype is _dt.bfloat16 and _allows_bfloat16(op_name, attr, allowed)):
        arg = arg or _first_input_name(op_name)
        # TensorFlow's list, in its order and with dtypes we lack (bfloat16, qint8, ...), when we know it
        listed = tf_allowed_names(op_name, attr) or [d.name for d in allowed]
        eager_names = ", ".join(_CPP_TYPE_WORD.get(n, n) for n in listed)
        graph_names = ", ".join(listed)
        raise InputTypeError(
            f"Value for attr '{attr}' of {tf_type_word(dtype)} is not in the list of allowed values: {eager_names}\n"
            f"\t; NodeDef: {{{{node {op_name}}}}}; Op<name={op_name}; signature={arg}:{attr} -> y:T> [Op:{op_name}]",
            f"Value passed to parameter '{arg}' has DataType {dtype.name} not in list of allowed values: "
            f"{graph_names}")


def _allows_bfloat16(op_name, attr, allowed) -> bool:
    """The `allowed` tuples leave bfloat16 out (it needs ml_dtypes); TensorFlow's list decides. An op
    whose list we do not hold takes bfloat16 where it takes half, as TensorFlow's float ops do."""
    listed = tf_allowed_names(op_name, attr)
    if listed is not None:
        return "bfloat16" in listed
    return _dt.float16 in allowed


def check_input_dtype(op_name: str, inputs, index: int, expected: _dt.DType):
    """An input whose dtype is fixed by the op (SelectV2's bool condition), in TensorFlow's eager
    (InvalidArgumentError) and graph-mode (TypeError) wording."""
    got = inputs[index].dtype
    if got is not expected:
        names = _OP_INPUTS(op_name)
        arg = names[index] if index < len(names) else f"#{index}"
        raise InputTypeError(
            f"cannot compute {op_name} as input #{index}(zero-based) was expected to be a "
            f"{tf_type_word(expected)} tensor but is a {tf_type_word(got)} tensor [Op:{op_name}]",
            f"Input '{arg}' of '{op_name}' Op has type {got.name} that does not match expected type of "
            f"{expected.name}.")


def _OP_INPUTS(op_name):
    from .registry import OPS
    return OPS[op_name].inputs if op_name in OPS else ()


def _first_input_name(op_name):
    names = _OP_INPUTS(op_name)
    return names[0] if names else "x"


FLOATS = (_dt.float16, _dt.float32, _dt.float64)
FLOAT_COMPLEX = FLOATS + (_dt.complex64, _dt.complex128)
SIGNED_NUMBERS = FLOAT_COMPLEX + (_dt.int8, _dt.int16, _dt.int32, _dt.int64)
NUMBERS = SIGNED_NUMBERS + (_dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64)
INTEGERS = (_dt.int8, _dt.int16, _dt.int32, _dt.int64, _dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64)
REAL_NUMBERS = FLOATS + INTEGERS


def unary(allowed=None, out_dtype=None):
    """Rule for elementwise unary ops: same shape; output dtype = input dtype unless given."""
    def infer(inputs, attrs):
        x = inputs[0]
        if allowed is not None:
            check_dtype_in(infer.op_name, x.dtype, allowed)
        return [Spec(x.shape, out_dtype or x.dtype)]
    infer.op_name = "?"  # set by defop: shared rules report the op they serve
    return infer


def binary(allowed=None, out_dtype=None):
    """Rule for elementwise binary ops: equal dtypes, broadcast shapes."""
    def infer(inputs, attrs):
        dtype = check_same_dtype(infer.op_name, inputs)
        if allowed is not None:
            check_dtype_in(infer.op_name, dtype, allowed)
        return [Spec(broadcast_shape(inputs[0].shape, inputs[1].shape), out_dtype or dtype)]
    infer.op_name = "?"  # set by defop: shared rules report the op they serve
    return infer



def rank_message(rank, eager_message, expected=4):
    """A wrong input rank as TensorFlow words it: the kernel's own message eagerly, the shape
    function's "Shape must be rank N but is rank M" while tracing."""
    if state.graph is not None:
        return f"Shape must be rank {expected} but is rank {rank}"
    return eager_message


def fixed_dtype(expected, binary=False):
    """Rule for an elementwise op whose inputs have one fixed dtype (LogicalAnd's bool, not an attr
    T): TensorFlow refuses another dtype as a mismatch with the signature (check_input_dtype)."""
    def infer(inputs, attrs):
        for i in range(len(inputs)):
            check_input_dtype(infer.op_name, inputs, i, expected)
        shape = broadcast_shape(inputs[0].shape, inputs[1].shape) if binary else inputs[0].shape
        return [Spec(shape, expected)]
    infer.op_name = "?"  # set by defop: shared rules report the op they serve
    return infer


def graph_shape_check(inputs) -> bool:
    """Whether a rule judges graph tensors (a graph being built, or a built graph's op re-checked):
    TensorFlow's shape functions word some refusals otherwise than its kernels, and leave some checks
    to the kernel, which runs when the graph runs."""
    return state.graph is not None or any(getattr(t, "is_symbolic", False) for t in inputs)


def broadcast_mismatch(a: TensorShape, b: TensorShape):
    """The first pair of dimensions (from the right) that do not broadcast, or None: what TensorFlow's
    graph shape functions name ("Dimensions must be equal, but are 4 and 3")."""
    if a.rank is None or b.rank is None:
        return None
    for x, y in zip(reversed(list(a)), reversed(list(b))):
        if x is not None and y is not None and x != y and x != 1 and y != 1:
            return x, y
    return None


def building_graph() -> bool:
    """Whether the rule runs for graph building (TensorFlow's shape function, whose refusals are
    ValueErrors in its own words) rather than for an eager call or a kernel's failure (the kernel's
    InvalidArgumentError words). A check that TensorFlow's shape function leaves to the kernel is
    skipped while building, so that the traced call fails when it runs, with the kernel's class."""
    return state.graph is not None


def refuse(eager_message, graph_message=None):
    """Raises a rule's refusal in the words of the mode (see `building_graph`): `graph_message` None
    means TensorFlow's shape function lets the call through and its kernel refuses it at run time."""
    if state.graph is None:
        raise InvalidArgumentError(None, None, eager_message)
    if graph_message is not None:
        raise InvalidArgumentError(None, None, graph_message)


def merge_shapes(a: TensorShape, b: TensorShape) -> TensorShape:
    """Two partial shapes that must be one, merged as TensorFlow's shape functions merge them, and
    refused in their words ("Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are
    [2] and [3]." or "Shapes must be equal rank, but are 1 and 2")."""
    if a.rank is None:
        return b
    if b.rank is None:
        return a
    if a.rank != b.rank:
        raise InvalidArgumentError(None, None, f"Shapes must be equal rank, but are {a.rank} and {b.rank}")
    dims = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x is not None and y is not None and x != y:
            raise InvalidArgumentError(None, None, f"Dimension {i} in both shapes must be equal, but are {x} and "
                                                   f"{y}. Shapes are {fmt_dims(a)} and {fmt_dims(b)}.")
        dims.append(x if x is not None else y)
    return TensorShape(dims)


def graph_shape_from_values(dims) -> TensorShape:
    """A shape-valued input's known values as TensorFlow's shape functions read them: -1 is an
    unknown size, anything below refused ("Invalid value in tensor used for shape: -3")."""
    bad = next((d for d in dims if d < -1), None)
    if bad is not None:
        raise InvalidArgumentError(None, None, f"Invalid value in tensor used for shape: {bad}")
    return TensorShape([None if d == -1 else d for d in dims])
