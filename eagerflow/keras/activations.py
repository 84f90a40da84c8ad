"""`keras.activations`: the named activation functions layers accept as `activation='relu'`.

Formulas are Keras 3.15's: hard_sigmoid is clip(x / 6 + 1/2, 0, 1) (not tf.keras 2's 0.2 x + 0.5),
hard_silu = x * hard_sigmoid(x), celu(x) = max(x, 0) + alpha (exp(min(x, 0) / alpha) - 1),
sparse_plus / sparse_sigmoid are the piecewise quadratic / linear functions between -1 and 1,
squareplus(x) = (x + sqrt(x^2 + b)) / 2, glu splits the axis in two halves a, b -> a * sigmoid(b).
sparsemax is the Euclidean projection onto the simplex (Martins & Astudillo, 2016); TF 2.21's
Keras computes its threshold wrongly on the TensorFlow backend (rows come out all 0), we return
the defined values.
"""
from __future__ import annotations

import functools
import types

from .._src.core.convert import convert_to_tensor
from .._src.ops.array import basic as _array
from .._src.ops.array import joining as _joining
from .._src.ops.math import elementwise as _math
from .._src.ops.nn import basic as _nn
from .._src.ops.array import ordering as _ordering
from .._src.ops.math import reduce as _reduce
from .._src.ops.array import sequences as _sequences


def linear(x):
    return x


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0); with options: x below `threshold` counts as 0 (or slopes with `negative_slope`
    below it), and the result is capped at `max_value`."""
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return _nn.relu(x)
    x = convert_to_tensor(x)
    if negative_slope != 0.0 and max_value is None and threshold == 0.0:
        return _nn.leaky_relu(x, alpha=negative_slope)
    negative = _nn.relu(threshold - x if threshold else _math.negative(x)) if negative_slope != 0.0 else None
    if threshold != 0.0:
        out = x * _math.cast(_math.greater(x, _math.cast(threshold, x.dtype)), x.dtype)
    else:
        out = _nn.relu(x)
    if max_value is not None:
        out = _math.clip_by_value(out, _math.cast(0.0, x.dtype), _math.cast(max_value, x.dtype))
    if negative is not None:
        out = out - negative * negative_slope
    return out


def sigmoid(x):
    return _math.sigmoid(x)


def tanh(x):
    return _math.tanh(x)


def softmax(x, axis=-1):
    return _nn.softmax(x, axis=axis)


def log_softmax(x, axis=-1):
    return _nn.log_softmax(x, axis=axis)


def elu(x, alpha=1.0):
    if alpha == 1.0:
        return _nn.elu(x)
    x = convert_to_tensor(x)
    return _array.where(_math.greater(x, 0.0), x, _math.expm1(x) * alpha)


def selu(x):
    return _nn.selu(x)


def softplus(x):
    return _nn.softplus(x)


def gelu(x, approximate=False):
    return _nn.gelu(x, approximate=approximate)


def silu(x):
    return _nn.silu(x)


swish = silu


def relu6(x):
    return _nn.relu6(x)


def leaky_relu(x, negative_slope=0.2):
    return _nn.leaky_relu(x, alpha=negative_slope)


def hard_sigmoid(x):
    x = convert_to_tensor(x)
    return _math.clip_by_value(x / 6.0 + 0.5, 0.0, 1.0)


def hard_silu(x):
    x = convert_to_tensor(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def mish(x):
    x = convert_to_tensor(x)
    return x * _math.tanh(_nn.softplus(x))


def softsign(x):
    x = convert_to_tensor(x)
    return x / (_math.abs(x) + 1.0)


def exponential(x):
    return _math.exp(x)


def celu(x, alpha=1.0):
    x = convert_to_tensor(x)
    return _math.maximum(x, 0.0) + (_math.exp(_math.minimum(x, 0.0) / alpha) - 1.0) * alpha


def glu(x, axis=-1):
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape[axis] is not None and x.shape[axis] % 2:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape.as_list())} "
                         f"with axis={axis}")
    a, b = _joining.split(x, 2, axis=axis)
    return a * _math.sigmoid(b)


def log_sigmoid(x):
    return _math.negative(_nn.softplus(_math.negative(convert_to_tensor(x))))


def hard_shrink(x, threshold=0.5):
    x = convert_to_tensor(x)
    return _array.where(_math.greater(_math.abs(x), threshold), x, _array.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    x = convert_to_tensor(x)
    zeros = _array.zeros_like(x)
    return _array.where(_math.greater(x, threshold), x - threshold,
                        _array.where(_math.less(x, -threshold), x + threshold, zeros))


def hard_tanh(x):
    return _math.clip_by_value(convert_to_tensor(x), -1.0, 1.0)


def tanh_shrink(x):
    x = convert_to_tensor(x)
    return x - _math.tanh(x)


def threshold(x, threshold, default_value):  # noqa: A002 - Keras' argument name
    x = convert_to_tensor(x)
    return _array.where(_math.greater(x, threshold), x, _array.fill(_array.shape(x), _math.cast(default_value,
                                                                                                 x.dtype)))


def sparse_plus(x):
    x = convert_to_tensor(x)
    middle = _math.square(x + 1.0) / 4.0
    return _array.where(_math.less_equal(x, -1.0), _array.zeros_like(x),
                        _array.where(_math.greater_equal(x, 1.0), x, middle))


def sparse_sigmoid(x):
    x = convert_to_tensor(x)
    return _array.where(_math.less_equal(x, -1.0), _array.zeros_like(x),
                        _array.where(_math.greater_equal(x, 1.0), _array.ones_like(x), (x + 1.0) * 0.5))


def squareplus(x, b=4):
    x = convert_to_tensor(x)
    return (x + _math.sqrt(_math.square(x) + float(b))) / 2.0


def sparsemax(x, axis=-1):
    """max(x - tau, 0), tau chosen so each slice along `axis` sums to 1: with z sorted descending,
    the support is the k largest entries with 1 + k z_k > z_1 + ... + z_k."""
    x = convert_to_tensor(x)
    z = _ordering.sort(x, axis=axis, direction="DESCENDING")
    cumulative = _reduce.cumsum(z, axis=axis)
    rank = x.shape.rank
    n = _array.shape(x)[axis]
    positions = _math.cast(_sequences.range(1, n + 1), x.dtype)
    shape = [1] * rank
    shape[axis] = -1
    positions = _array.reshape(positions, shape)
    support = _math.cast(_math.greater(positions * z + 1.0, cumulative), x.dtype)
    k = _reduce.reduce_sum(support, axis=axis, keepdims=True)
    top_sum = _reduce.reduce_sum(z * support, axis=axis, keepdims=True)
    tau = (top_sum - 1.0) / k
    return _math.maximum(x - tau, 0.0)


_FUNCTIONS = (linear, relu, sigmoid, tanh, softmax, log_softmax, elu, selu, softplus, gelu, silu, relu6, leaky_relu,
              hard_sigmoid, hard_silu, mish, softsign, exponential, celu, glu, log_sigmoid, hard_shrink, soft_shrink,
              hard_tanh, tanh_shrink, threshold, sparse_plus, sparse_sigmoid, squareplus, sparsemax)
_BY_NAME = {f.__name__: f for f in _FUNCTIONS}
_BY_NAME["swish"] = silu
_BY_NAME["hard_swish"] = hard_silu
_ALIASES = ("swish", "hard_swish")


def _symbolic_front(function):
    """Called on a KerasTensor (`keras.activations.relu(x)` in a functional model), an activation is an
    operation node of the graph, as Keras 3 makes it; on tensors it is the function itself."""
    @functools.wraps(function)
    def front(*args, **kwargs):
        from .layers.keras_tensor import has_keras_tensor
        if has_keras_tensor((args, kwargs)):
            from .ops.symbolic import SymbolicOp, symbolic_call
            op = SymbolicOp(function, function.__name__, KERAS_MODULE, class_name=_KERAS_CLASSES.get(function.__name__))
            return symbolic_call(op, args, kwargs)
        return function(*args, **kwargs)

    front._symbolic_of = function
    return front


KERAS_MODULE = "keras.src.activations.activations"
_KERAS_CLASSES = {"relu": "ReLU"}  # Keras 3's operation class where it is not the CamelCase of the name
_FRONTS = {f: _symbolic_front(f) for f in _FUNCTIONS}
_BY_NAME = {name: _FRONTS[f] for name, f in _BY_NAME.items()}
globals().update({f.__name__: front for f, front in _FRONTS.items()})
swish, hard_swish = _BY_NAME["swish"], _BY_NAME["hard_swish"]


def get(identifier):
    if identifier is None:
        return linear
    if isinstance(identifier, dict):  # a saved config: Keras' function dict, or an activation object's
        if identifier.get("class_name") in _BY_NAME:  # Keras 3's get looks classes up, not functions, here
            raise TypeError(f"Could not locate class '{identifier['class_name']}'. Make sure custom classes and "
                            f"functions are decorated with `@keras.saving.register_keras_serializable()`. If they "
                            f"are already decorated, make sure they are all imported so that the decorator is run "
                            f"before trying to load them. Full object config: {identifier}")
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if isinstance(identifier, str):  # a custom function registered by name (keras.saving)
        from .saving.serialization import get_registered_object
        found = get_registered_object(identifier)
        if found is not None:
            return found
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


def _tensorflow_names():
    """The `__name__` TensorFlow gives the tf.nn/tf.math functions people pass as activations
    (`activation=tf.nn.relu`): Keras serializes a function by that name, a shipped activation's
    name as the plain string ("relu") and any other ("softmax_v2") as a function dict."""
    from .._src.ops.math import elementwise, special
    from .._src.ops.nn import basic
    return {basic.relu: "relu", basic.relu6: "relu6", basic.elu: "elu", basic.selu: "selu", basic.gelu: "gelu",
            basic.softplus: "softplus", special.softsign: "softsign", elementwise.sigmoid: "sigmoid",
            elementwise.tanh: "tanh", basic.softmax: "softmax_v2", basic.log_softmax: "log_softmax_v2",
            basic.silu: "swish", basic.leaky_relu: "leaky_relu", elementwise.exp: "exp", basic.crelu: "crelu_v2",
            special.log_sigmoid: "log_sigmoid"}


def _function_name(function):
    try:
        return _tensorflow_names().get(function) or getattr(function, "__name__", None)
    except TypeError:  # an unhashable callable object
        return getattr(function, "__name__", None)


def _registered_name(function):
    return getattr(function, "__dict__", {}).get("_keras_registered_name")


def _lambda_config(function):
    """Keras 3's record of a lambda: its bytecode (marshal, base64), defaults and closure values, with
    Keras' warning that it can only be read back unsafely."""
    import base64
    import inspect
    import marshal
    import warnings
    try:
        source = inspect.getsource(function)
    except (OSError, TypeError):
        source = repr(function)
    warnings.warn("The object being serialized includes a `lambda`. This is unsafe. In order to reload the object, "
                  "you will have to pass `safe_mode=False` to the loading function. Please avoid using `lambda` in "
                  "the future, and use named Python functions instead. This is the `lambda` being serialized: "
                  f"{source}", stacklevel=3)
    code = base64.encodebytes(marshal.dumps(function.__code__)).decode("ascii")
    closure = tuple(cell.cell_contents for cell in function.__closure__) if function.__closure__ else None
    return {"value": (code, function.__defaults__, closure)}


def serialize(activation):
    """The name Keras 3 writes for a shipped activation ('linear' for none); any other function as
    Keras' function dict under its registered name (or its own name: loading it then needs
    custom_objects); an object with get_config as its config dict."""
    if activation is None:
        return "linear"
    for name, fn in _BY_NAME.items():
        if fn is activation and name not in _ALIASES:
            return name
    name = _function_name(activation)
    if name == "<lambda>":
        return _lambda_config(activation)
    if isinstance(activation, types.FunctionType) and name in _BY_NAME and name not in _ALIASES:
        return name  # tf.nn.relu, or any function named as a shipped activation: Keras writes the name
    from .saving.object_config import serialize_keras_object
    config = serialize_keras_object(activation)
    if isinstance(config, dict) and config.get("class_name") == "function" and name:
        config["config"] = name if _registered_name(activation) is None else config["config"]
    return config


def deserialize(config, custom_objects=None):
    """An activation function from its name or Keras 3's function dict (an unknown function's name
    fails with Keras' "Could not locate function" TypeError); an activation object from its config."""
    if isinstance(config, dict) and config.get("class_name") in _BY_NAME:  # {"class_name": "relu"}
        return _BY_NAME[config["class_name"]]
    if isinstance(config, dict) and "class_name" not in config:  # a lambda's record: Keras cannot read it back
        raise ValueError(f"Unknown `config` as a `dict`, config={config}")
    if isinstance(config, dict) and config.get("class_name") not in (None, "function"):
        from .saving.object_config import deserialize_keras_object
        return deserialize_keras_object(config, custom_objects)
    if isinstance(config, dict):
        if isinstance(config.get("config"), str) and config["config"] in _BY_NAME:
            return _BY_NAME[config["config"]]
        from .saving.object_config import locate_function
        return locate_function(config, custom_objects)
    if isinstance(config, str) and custom_objects and config in custom_objects:
        return custom_objects[config]
    if isinstance(config, str):
        return get(config)
    raise ValueError(f"Could not interpret activation function identifier: {config}")
