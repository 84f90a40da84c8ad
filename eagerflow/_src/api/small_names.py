"""Small top-level names of TensorFlow's: tf.AggregationMethod, tf.is_symbolic_tensor,
tf.grad_pass_through (the rest of the top level lives in the op modules)."""
from ..core.tensor import EagerTensor, Tensor


class AggregationMethod:
    """How gradients summed from several paths are added (TensorFlow's names; eagerflow always adds
    them with one AddN, which is ADD_N, the default)."""
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


def is_symbolic_tensor(tensor):
    """True for a graph tensor (inside a tf.function being traced), False for an eager one or a value."""
    return isinstance(tensor, Tensor) and not isinstance(tensor, EagerTensor)


def grad_pass_through(f):
    """`f` whose gradient is the identity: the forward pass computes f(x), the backward pass hands
    the upstream gradient straight to x (TensorFlow's straight-through estimator); variables `f`
    reads get no gradient from it."""
    import functools

    from ..autodiff.custom_gradient import custom_gradient

    @custom_gradient
    def pass_through(*args, **kwargs):
        def grad(*upstream, variables=None):
            grads = upstream if len(upstream) > 1 else upstream[0]
            return (grads, [None] * len(variables)) if variables else grads
        return f(*args, **kwargs), grad
    return functools.wraps(f)(pass_through)
