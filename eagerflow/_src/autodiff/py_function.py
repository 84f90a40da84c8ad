"""`tf.py_function` and `tf.numpy_function`: a Python function called as one op of a graph.

Why an op rather than a plain call: inside `tf.function` (and tf.data's map) the function must run
each time the graph runs, with the values of that run, not once at trace time. The op's kernel
calls it: py_function hands it eager tensors (so it may use TensorFlow ops and GradientTape, and
its gradient is taken by running it again under a tape), numpy_function hands it NumPy arrays
(no gradient). Op types are TensorFlow's: EagerPyFunc, PyFunc (stateful numpy_function) and
PyFuncStateless. Their outputs have unknown static shapes, as in TensorFlow.

An exception inside the function becomes TensorFlow's error for it: ValueError and TypeError an
InvalidArgumentError, StopIteration an OutOfRangeError, anything else an UnknownError, the message
"<type>: <text>" followed by the function's traceback. The function is an attribute of the op: a
SavedModel holds the node and a callback token only, as TensorFlow's does, and never loads it.
XLA cannot compile it either (TensorFlow's XLA has no kernel for these ops). It lives in autodiff/
because py_function's gradient rule runs the function under a GradientTape.
"""
from __future__ import annotations

import traceback

import numpy as np

from ..core import dtypes as _dt
from ..core import nest
from ..core.errors import InvalidArgumentError, OutOfRangeError, UnknownError
from ..core.shape import TensorShape
from ..ops.registry import NO_GRADIENT, PYTHON, Spec, bind, defop


def _raised(exc, op_type):
    """TensorFlow's error for an exception the Python function raised."""
    if isinstance(exc, (ValueError, TypeError)):
        cls = InvalidArgumentError
    elif isinstance(exc, StopIteration):
        cls = OutOfRangeError
    else:
        cls = UnknownError
    tb = exc.__traceback__
    if tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next  # the kernel's own frame: the traceback starts in the user's function
    frames = "".join(traceback.format_tb(tb))
    return cls(None, None, f"{type(exc).__name__}: {exc}\nTraceback (most recent call last):\n{frames}"
                           f" [Op:{op_type}]")


def _as_list(result, n):
    if n == 1 and not isinstance(result, (list, tuple)):
        return [result]
    if result is None:
        return []
    return list(result)


def _eager_kernel(*arrays, func, Tout):
    from ..core.convert import convert_to_tensor
    from ..core.tensor import wrap_array
    try:
        results = _as_list(func(*[wrap_array(a) for a in arrays]), len(Tout))
        if len(results) != len(Tout):
            raise ValueError(f"The Python function returned {len(results)} values, Tout names {len(Tout)}")
        out = [np.asarray(convert_to_tensor(r, dtype=dtype).numpy()) for r, dtype in zip(results, Tout)]
    except Exception as exc:  # noqa: BLE001 - every exception of user code becomes TensorFlow's error
        raise _raised(exc, "EagerPyFunc") from exc
    return tuple(out)


def _numpy_kernel(op_type):
    def kernel(*arrays, func, Tout):
        try:
            results = _as_list(func(*[np.array(a) for a in arrays]), len(Tout))
        except Exception as exc:  # noqa: BLE001
            raise _raised(exc, op_type) from exc
        if len(results) != len(Tout):
            raise InvalidArgumentError(None, None, f"pyfunc returned {len(results)} values, but expects {len(Tout)}"
                                                   f" [Op:{op_type}]")
        out = []
        for i, (r, dtype) in enumerate(zip(results, Tout)):
            array = np.asarray(r)
            if array.dtype != dtype.np_dtype and not (array.dtype.kind == "U" and dtype is _dt.string):
                got = _dt.from_numpy(array.dtype).name if array.dtype.kind in "biufc" else str(array.dtype)
                raise InvalidArgumentError(None, None, f"{i}-th value returned by pyfunc is {_tf_word(got)}, but "
                                                       f"expects {_tf_word(dtype.name)} [Op:{op_type}]")
            out.append(array)
        return tuple(out)
    return kernel


def _tf_word(name):
    return {"float32": "float", "float64": "double", "float16": "half"}.get(name, name)


def _infer(inputs, attrs):
    return [Spec(TensorShape(None), dtype) for dtype in attrs["Tout"]]


def _eager_grad(op, *grads):
    """Runs the function again under a tape on the same inputs: the inputs' gradients for the
    output gradients that arrived (zeros for the others)."""
    from ..core.tensor import wrap_array
    from ..ops.array.basic import zeros_like
    from .tape import GradientTape
    func, n = op.attrs["func"], len(op.inputs)
    grads = [g if g is not None else zeros_like(o) for g, o in zip(grads, op.outputs)]

    def gradient(*values):
        xs, gs = [wrap_array(v.numpy()) for v in values[:n]], list(values[n:])
        with GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            ys = _as_list(func(*xs), len(gs))
        found = tape.gradient(ys, xs, output_gradients=gs)
        return [g if g is not None else zeros_like(x) for g, x in zip(found, xs)]
    differentiable = [t.dtype.is_floating or t.dtype.is_complex for t in op.inputs]
    out = bind(EagerPyFunc, (*op.inputs, *grads), {"func": gradient, "Tout": tuple(t.dtype for t in op.inputs)})
    return [g if ok else None for g, ok in zip(out, differentiable)]


EagerPyFunc = defop("EagerPyFunc", inputs=("input",), kernel=_eager_kernel, infer=_infer, grad=_eager_grad,
                    multi_output=True, stateful=True, doc="tf.py_function: a Python function on eager tensors.")
PyFunc = defop("PyFunc", inputs=("input",), kernel=_numpy_kernel("PyFunc"), infer=_infer, grad=NO_GRADIENT,
               multi_output=True, stateful=True, doc="tf.numpy_function(stateful=True): a Python function on arrays.")
PyFuncStateless = defop("PyFuncStateless", inputs=("input",), kernel=_numpy_kernel("PyFuncStateless"), infer=_infer,
                        grad=NO_GRADIENT, multi_output=True,
                        doc="tf.numpy_function(stateful=False): a side-effect-free Python function on arrays.")
EagerPyFunc.effects = PyFunc.effects = PyFuncStateless.effects = PYTHON  # a loaded model never runs Python


def _call(opdef, func, inp, Tout):
    from ..core.convert import convert_to_tensor
    single = not isinstance(Tout, (list, tuple))
    dtypes = tuple(_dt.as_dtype(t) for t in ([Tout] if single else Tout))
    inputs = tuple(convert_to_tensor(v) for v in nest.flatten(inp if inp is not None else [], expand_composites=True))
    outs = bind(opdef, inputs, {"func": func, "Tout": dtypes})
    outs = list(outs) if isinstance(outs, (list, tuple)) else [outs]
    return outs[0] if single else outs


def py_function(func=None, inp=None, Tout=None, name=None):
    """`tf.py_function(func, inp, Tout)`: `func(*inp)` on eager tensors, run each time the graph
    runs; Tout a dtype (one tensor returned) or a list of dtypes (a list). Without `func`, a
    decorator: `@tf.py_function(Tout=tf.float32)`."""
    if func is None:
        return lambda f: (lambda *args: py_function(f, list(args), Tout, name))
    return _call(EagerPyFunc, func, inp, Tout)


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """`tf.numpy_function(func, inp, Tout)`: `func(*inp)` on NumPy arrays, returning arrays of the
    Tout dtypes; no gradient."""
    if func is None:
        return lambda f: (lambda *args: numpy_function(f, list(args), Tout, stateful, name))
    return _call(PyFunc if stateful else PyFuncStateless, func, inp, Tout)
