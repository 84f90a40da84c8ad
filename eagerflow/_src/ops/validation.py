"""The one validation point of eager execution, and the one translation of kernel errors.

Eager `bind` runs an op's kernel straight on NumPy arrays. NumPy accepts much that TensorFlow
refuses (relu of bools, one_hot of float indices, a float condition in where), so the first time
an (op, input dtypes, input ranks, attributes) combination runs eagerly, `first_eager_run` also
runs the op's shape-and-dtype rule, exactly as graph building does, and checks the kernel's output
dtypes against the rule's. A passing verdict is cached in `OpDef.checked` under the key, so a
repeated call pays one dict lookup (registry.py builds the key inline for the common arities). The
verdict's value says whether the kernel must run with NumPy's floating-point warnings off
(ops/fp_errors.py): only ops that compute, on floating-point values or by integer division.

What a cached verdict may skip, and why that is safe:

* The key holds each input's dtype and rank and the op's attributes: everything a rule reads to
  accept or refuse dtypes, ranks and attribute values. It holds no dimension sizes and no input
  values, so checks on those (broadcast compatibility, MatMul's inner dimensions, an axis or an index
  in range) run only on the first sighting. They are the kernel's to enforce on every call: a kernel
  that refuses raises, and `kernel_error` asks the rule for TensorFlow's words. A rule check on
  sizes or values that its kernel does not also make would be skipped by later calls, so a new op
  must keep such checks in its kernel.
* So that the answer to a bad call does not depend on the calls before it, the rule's words win
  on both paths: a first call raises the rule's refusal, and a later call whose kernel fails, with
  NumPy's complaint or with an error of its own, raises the rule's refusal for the same inputs
  when there is one (`kernel_error`). A rule's eager words are therefore TensorFlow's kernel's.
* Attributes that are not plain data (the sub-graphs of If/While, the ConcreteFunction of a call op,
  a Const's array) make the call uncacheable (key None) and it is not validated: such ops are made by
  tracing, where their rule already ran when the graph op was built. A key never holds such objects,
  so the cache keeps no user object alive; it is bounded per op (cleared when full).

Thread safety: two threads may validate the same key at once; both run the rule and store the same
verdict, which is harmless (dict operations are atomic under the GIL).
"""
from __future__ import annotations

import numpy as np

from ..core import dtypes as _dt
from ..core.errors import InternalError, InvalidArgumentError, OpError, ResourceExhaustedError
from ..core.tensor import wrap_array
from .fp_errors import INTEGER_WARNINGS, quiet_call

_VERDICT_LIMIT = 1024  # per op: attribute values (a float alpha, a message) could vary without end
_UNCACHEABLE = object()
_PLAIN = (bool, int, float, str, bytes, type(None), _dt.DType)


class InputTypeError(InvalidArgumentError):
    """A rule's refusal of an input's dtype. Its message is TensorFlow's eager text (an
    InvalidArgumentError, as eager TensorFlow raises); graph building raises TensorFlow's graph-mode
    TypeError with `graph_message` instead (graph/graph.py), as TensorFlow does at op construction."""

    def __init__(self, message, graph_message):
        InvalidArgumentError.__init__(self, None, None, message)
        self.graph_message = graph_message


def graph_type_error(message: str) -> TypeError:
    """TensorFlow's graph-mode TypeError for mixed input dtypes (a plain TypeError, as TensorFlow's),
    marked so that graph building lets it through unchanged when a rule raises it (its other rule
    errors become ValueError): see `is_graph_type_error`."""
    err = TypeError(message)
    err.tf_graph_type_error = True
    return err


def is_graph_type_error(err) -> bool:
    return getattr(err, "tf_graph_type_error", False)


def _attr_key(value):
    if isinstance(value, _PLAIN):
        return value
    if isinstance(value, (list, tuple)):
        parts = tuple(_attr_key(v) for v in value)
        return _UNCACHEABLE if _UNCACHEABLE in parts else parts
    if isinstance(value, (np.ndarray, np.generic)) and value.size <= 64:
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    return _UNCACHEABLE


def eager_key(inputs, attrs):
    """The verdict key of an eager call: dtypes, then ranks of the inputs (the tuple registry.py
    builds inline for one or two inputs without attributes), then the attributes as hashable plain
    data; None when an attribute is not plain data (see the module docstring)."""
    parts = [getattr(t, "_dtype", None) for t in inputs]
    for t in inputs:
        parts.append(getattr(getattr(t, "_value", None), "ndim", -1))
    for name, value in attrs.items():
        value = _attr_key(value)
        if value is _UNCACHEABLE:
            return None
        parts.append(name)
        parts.append(value)
    return tuple(parts)


def first_eager_run(op, inputs, attrs, key):
    """An eager call whose key has no verdict yet: the rule, the kernel, the output dtype check."""
    if key is not None and op.infer is not None and any(part is _dt.bfloat16 for part in key):
        from . import bfloat16  # (a local import: ops/bfloat16.py imports this module)
        return bfloat16.run_eager(op, inputs, attrs, key)
    specs = None
    if key is not None and op.infer is not None:
        try:
            specs = op.infer(inputs, attrs)
        except Exception as err:
            raise rule_error(op, err) from None
    try:
        values = [t._value for t in inputs]
        out = quiet_call(op.kernel, *values, **attrs) if op.quiet else op.kernel(*values, **attrs)
    except Exception as exc:
        raise_kernel_error(op, inputs, attrs, exc)
    result = [wrap_array(o) for o in out] if op.multi_output else wrap_array(out)
    if specs is not None:
        _check_output_dtypes(op, specs, result if op.multi_output else [result])
        if len(op.checked) >= _VERDICT_LIMIT:
            op.checked.clear()
        op.checked[key] = op.quiet and _may_warn(op, inputs, specs)
    return result


def _may_warn(op, inputs, specs):
    """Whether this key's kernel can raise NumPy floating-point warnings: floating-point or complex
    values in or out, or an integer division (NumPy warns on integer division by zero)."""
    if op.name in INTEGER_WARNINGS:
        return True
    for t in inputs:
        dtype = getattr(t, "_dtype", None)
        if dtype is None or dtype.is_floating or dtype.is_complex:
            return True
    return any(s.dtype.is_floating or s.dtype.is_complex for s in specs)


def _check_output_dtypes(op, specs, outputs):
    """A kernel whose dtype differs from its rule's would make eager and traced results differ
    (NumPy's promotion rules leaking through): that is our bug, reported as TensorFlow's InternalError."""
    for i, (spec, out) in enumerate(zip(specs, outputs)):
        if spec.dtype is not out._dtype and spec.dtype is not _dt.variant:
            raise InternalError(None, None, f"The kernel of {op.name} returned output {i} as {out._dtype.name} "
                                            f"where its shape-and-dtype rule says {spec.dtype.name} [Op:{op.name}]")


def rule_error(op, err) -> Exception:
    """The eager error for a rule's refusal: TensorFlow's class and message, tagged `[Op:<type>]`."""
    if isinstance(err, OpError):  # its class stands (a kernel's private subclass too), but not InputTypeError
        message = err.message if "[Op:" in err.message else f"{err.message} [Op:{op.name}]"
        return (InvalidArgumentError if isinstance(err, InputTypeError) else type(err))(None, None, message)
    if isinstance(err, (ValueError, TypeError, IndexError)):
        return InvalidArgumentError(None, None, f"{err} [Op:{op.name}]")
    return err


def raise_kernel_error(op, inputs, attrs, exc):
    """Raises TensorFlow's error for a kernel failure: a failed allocation keeps NumPy's error as
    its cause (ResourceExhaustedError); other failures hide NumPy's traceback."""
    err = kernel_error(op, inputs, attrs, exc)
    raise err from (exc if isinstance(err, ResourceExhaustedError) else None)


def kernel_error(op, inputs, attrs, exc) -> Exception:
    """The TensorFlow error for a kernel's failure on `inputs` (eager tensors): the rule's refusal of
    the same inputs when it refuses them (the words TensorFlow uses, and those the first call of
    these inputs raised), else the kernel's own OpError, else NumPy's complaint as an
    InvalidArgumentError.
    Eager `bind` and generated code (trace/runtime_errors.py) both report kernel failures through this."""
    if isinstance(exc, MemoryError) or (isinstance(exc, ValueError) and "array is too big" in str(exc)):
        return out_of_memory_error(op, inputs, attrs, exc)
    refusal = rule_refusal(op, inputs, attrs)  # what the first call of these inputs raised
    if refusal is not None:
        return refusal
    if isinstance(exc, OpError):
        return rule_error(op, exc)
    return InvalidArgumentError(None, None, f"{exc} [Op:{op.name}]")


def check_rule(opdef, inputs, attrs):
    """Runs an op's rule on these very inputs now, every call: for the few ops whose rule checks
    values or sizes that their kernel would not refuse (bind's cached verdict covers only dtypes,
    ranks and attributes). Raises what eager execution raises for a refused call."""
    refusal = rule_refusal(opdef, inputs, attrs)
    if refusal is not None:
        raise refusal


def out_of_memory_error(op, inputs, attrs, exc) -> Exception:
    """TensorFlow's ResourceExhaustedError for an allocation that failed (NumPy's MemoryError, or
    its "array is too big" when the byte count passes what an index can address)."""
    shape, dtype = getattr(exc, "shape", None), getattr(exc, "dtype", None)
    if (shape is None or dtype is None) and op.infer is not None:
        try:
            spec = op.infer(inputs, attrs)[0]
            shape, dtype = spec.shape.as_list(), spec.dtype.np_dtype
        except Exception:  # noqa: BLE001 - the message is best effort; the class is what matters
            pass
    what = "tensor"
    if shape is not None and dtype is not None and None not in shape:
        type_name = {"float32": "float", "float64": "double", "float16": "half"}.get(np.dtype(dtype).name,
                                                                                   np.dtype(dtype).name)
        what = f"tensor with shape[{','.join(str(int(d)) for d in shape)}] and type {type_name}"
    return ResourceExhaustedError(None, None, f"OOM when allocating {what} on /job:localhost/replica:0/task:0/"
                                              f"device:CPU:0 by allocator cpu [Op:{op.name}]")


def rule_refusal(op, inputs, attrs):
    """The eager error the op's rule raises for `inputs`, or None when it finds nothing wrong (or
    cannot judge them)."""
    if op.infer is None:
        return None
    try:
        op.infer(inputs, attrs)
    except (OpError, ValueError, TypeError, IndexError) as err:
        return rule_error(op, err)
    except Exception:  # a rule that cannot judge these inputs
        return None
    return None
