"""The errors a traced function's call raises. When a kernel in its generated code fails: TensorFlow's
exception class and message, naming the graph node, the function and the user's line that created
the node, with the shapes the node's inputs had on this call. And the stand-in for the code of a
function that closes over an enclosing trace's tensor, which can only run inlined there.

Its own module because it reads Python's traceback frames of the generated code (the line -> node
tables codegen records) and re-judges the failing values with the op's rule, none of which the
call path itself needs until something fails.
"""
from __future__ import annotations

import re

import numpy as np

from ..core.errors import InvalidArgumentError, OpError, ParityError, graph_error_message
from ..core.tensor import wrap_array
from ..ops.validation import out_of_memory_error, rule_refusal


def runtime_error(exc, generated, function_name):
    """The error to raise for `exc`, raised while the generated code `generated` (codegen's
    GeneratedCode: its file name and line -> node tables) of `function_name` ran."""
    if isinstance(exc, ParityError):  # the parity check's mode="raise" (trace/parity.py): as it is
        return exc
    tb = exc.__traceback__
    op = None
    inputs = ""
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == generated.filename:
            op = generated.line_ops.get(tb.tb_lineno)
            if op is not None:
                arg_names = generated.line_args.get(tb.tb_lineno)
                inputs = _input_shapes(op, tb.tb_frame, arg_names)
                if not isinstance(exc, OpError):  # NumPy's words: the op's TF message
                    exc = _op_error(op, tb.tb_frame, arg_names, exc)
        tb = tb.tb_next
    if op is not None and (isinstance(exc, MemoryError) or "array is too big" in str(exc)):
        exc = out_of_memory_error(op.opdef, op.inputs, op.attrs, exc)  # TensorFlow's ResourceExhaustedError
    message = exc.message if isinstance(exc, OpError) else str(exc)
    message = message.split(" [Op:")[0]
    if isinstance(exc, IndexError):  # an index written as `x[i]` in the generated code
        found = re.match(r"index (-?\d+) is out of bounds for axis (\d+)", message)
        if found:
            message = f"slice index {found.group(1)} of dimension {found.group(2)} out of bounds."
    if op is None:
        return exc if isinstance(exc, OpError) else InvalidArgumentError(None, None, message)
    # The public TensorFlow class (a kernel may raise a private subclass of it).
    cls = next((c for c in type(exc).__mro__ if c.__module__ == OpError.__module__), InvalidArgumentError) \
        if isinstance(exc, OpError) else InvalidArgumentError
    return cls(None, op, graph_error_message(message, op.name, function_name, op.source, inputs))


def _input_shapes(op, frame, arg_names):
    """`Inputs of node add (AddV2): x:0 float32 [2], y:0 float32 [3]`: the shapes the failing op got
    on this call (read from the generated function's frame), else its traced (static) shapes."""
    parts = []
    for i, t in enumerate(op.inputs):
        value = None
        if arg_names is not None and len(arg_names) == len(op.inputs):
            value = frame.f_locals.get(arg_names[i], frame.f_globals.get(arg_names[i]))
        if isinstance(value, (np.ndarray, np.generic)):
            shape = list(np.shape(value))
        else:
            shape = t.shape.as_list() if t.shape.rank is not None else "<unknown>"
        parts.append(f"{t.name} {t.dtype.name} {shape}")
    return f"Inputs of node {op.name} ({op.type}): {', '.join(parts)}" if parts else ""


def _op_error(op, frame, arg_names, exc):
    """The error eager execution gives for `op` on the values its generated line failed on (read
    from the generated function's frame): the op's rule judges them, as for an eager kernel failure
    (ops/validation.py `kernel_error`). `exc` itself when the values cannot be found or the rule
    finds nothing wrong."""
    if arg_names is None or len(arg_names) != len(op.inputs):
        return exc
    values = []
    for name in arg_names:
        value = frame.f_locals.get(name, frame.f_globals.get(name))
        if not isinstance(value, (np.ndarray, np.generic)):
            return exc
        values.append(wrap_array(value))
    refusal = rule_refusal(op.opdef, values, op.attrs)
    return exc if refusal is None else refusal


def runs_inlined_only(name, tensor):
    """The stand-in for the generated code of a function traced inside another one and closing
    over that one's tensor `tensor`: it has no value outside the enclosing trace."""
    def fail(*arrays):
        raise InvalidArgumentError(
            None, None, f"{name} captured {tensor.name} of the enclosing tf.function's graph {tensor.graph.name!r}: "
                        f"it can only be called while that function is traced; pass the tensor as an argument.")
    return fail
