"""SavedCustomGradient: a `@tf.custom_gradient` as TensorFlow saved it, rebuilt by the SavedModel importer
(saved_model/tf_format/import_custom_gradient.py). TensorFlow writes an IdentityN over (results,
arguments) whose gradient is a function of the library: it takes the gradients of all the IdentityN's
outputs, then the forward values it captured, and returns the arguments' gradients.

Here the op's inputs are the IdentityN's inputs followed by those forward values; its outputs pass the
first `n_outputs` inputs through. Its gradient calls the saved function (a ConcreteFunction, so it runs
eagerly or joins the graph being built) on the output gradients (zeros for unconnected ones, as
TensorFlow's loader fills them) and the forward values as this op holds them, so a gradient built in
another graph reads them from there; the results' positions and the forward values get no gradient."""
from __future__ import annotations

from ..registry import Spec, defop


def _kernel(*values, _function, n_outputs):
    return tuple(values[:n_outputs])


def _infer(inputs, attrs):
    return [Spec(t.shape, t.dtype) for t in inputs[:attrs["n_outputs"]]]


def _grad(op, *out_grads):
    from ..array.basic import zeros_like
    n_outputs = op.attrs["n_outputs"]
    upstream = [g if g is not None else zeros_like(o) for g, o in zip(out_grads, op.outputs)]
    captured = list(op.inputs[n_outputs:])
    result = op.attrs["_function"](*upstream, *captured)
    grads = list(result) if isinstance(result, (list, tuple)) else [result]
    n_results = n_outputs - len(grads)
    return (None,) * n_results + tuple(grads) + (None,) * len(captured)


SavedCustomGradient = defop("SavedCustomGradient", inputs=(), kernel=_kernel, infer=_infer, grad=_grad,
                            multi_output=True, doc="A custom gradient TensorFlow saved: identity forward, the "
                                                   "saved gradient function backward.")
SavedCustomGradient.jax = _kernel  # its JAX lowering: the values pass through
