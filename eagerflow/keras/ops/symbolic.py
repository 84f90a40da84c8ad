"""keras.ops on KerasTensors: each call becomes an operation node of the functional graph.

Keras 3 makes every op an Operation; called on a `keras.Input`-derived tensor it records a node
instead of computing. Here each public keras.ops function gets a thin front (`install`) that, only
when a KerasTensor is among its arguments, traces the function once on TensorSpecs of those tensors
(its shape rule is the op's own) and records a `Node` whose operation is a `SymbolicOp`: the function,
its Keras class name (`add` -> "Add", `get_item` -> "GetItem") and a unique name ("add", "add_1", ...,
counted with the layers' names as in Keras). A functional model runs the node by calling the function
on real tensors, and saves it as Keras writes an op: {"module": "keras.src.ops.numpy", "class_name": "Add",
"config": {"name": "add"}} with the call's arguments in `inbound_nodes`.
"""
from __future__ import annotations

import functools

from ..layers.keras_tensor import has_keras_tensor

# Functions that are not operations on a symbolic tensor in Keras 3 (control flow, conversions,
# dtype/shape queries): they keep their plain behaviour.
NOT_SYMBOLIC = frozenset({
    "associative_scan", "cond", "convert_to_numpy", "custom_gradient", "dtype", "fori_loop",
    "is_tensor", "map", "scan", "shape", "switch", "vectorized_map", "while_loop", "result_type"})

KERAS_MODULES = {"numpy": "keras.src.ops.numpy", "nn": "keras.src.ops.nn", "linalg": "keras.src.ops.linalg",
                 "core": "keras.src.ops.core", "math": "keras.src.ops.math", "image": "keras.src.ops.image"}


def class_name_of(function_name):
    return "".join(part[:1].upper() + part[1:] for part in function_name.split("_"))


class SymbolicOp:
    """One keras.ops operation in a functional graph (not a layer: it owns no weights and is not
    listed in `model.layers`, as in Keras 3)."""

    def __init__(self, function, function_name, module, name=None, config=None, class_name=None):
        from ..naming import to_snake_case, unique_name
        self.function, self.function_name, self.module = function, function_name, module
        self.class_name = class_name or class_name_of(function_name)
        self.name = name if name is not None else unique_name(to_snake_case(class_name) if class_name else function_name)
        self.static_kwargs = dict(config or {})  # arguments Keras keeps in an op's config (read from Keras files)

    def __call__(self, *args, **kwargs):
        if has_keras_tensor((args, kwargs)):  # replayed on KerasTensors (a config being loaded): a new node
            return symbolic_call(self, args, kwargs)
        return self.function(*args, **self.static_kwargs, **kwargs)

    def get_config(self):
        return {"name": self.name, **self.static_kwargs}

    def count_params(self):
        return 0

    @property
    def _last_output_shape(self):
        """The first call's output shape(s), for model.summary()'s row."""
        nodes = getattr(self, "_inbound_nodes", None)
        if not nodes:
            return None
        shapes = [t.shape for t in nodes[0].outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def __repr__(self):
        return f"<Operation name={self.name}>"


def symbolic_call(op, args, kwargs):
    """Infers the outputs of `op(*args, **kwargs)` by tracing it on TensorSpecs and records the node (the
    same recording as a layer's call on KerasTensors: layers/functional_call.py)."""
    from ..layers.functional_call import record_symbolic_call
    return record_symbolic_call(op, args, kwargs)


def symbolic_front(function, function_name, module):
    @functools.wraps(function)
    def front(*args, **kwargs):
        if has_keras_tensor((args, kwargs)):
            return symbolic_call(SymbolicOp(function, function_name, module), args, kwargs)
        return function(*args, **kwargs)

    front._symbolic_of = function
    return front


def install(module, short_name):
    """Puts the symbolic front on every public function of a keras.ops submodule."""
    keras_module = KERAS_MODULES[short_name]
    for name in module.__all__:
        function = getattr(module, name)
        if name in NOT_SYMBOLIC or not callable(function) or hasattr(function, "_symbolic_of"):
            continue
        setattr(module, name, symbolic_front(function, name, keras_module))


def op_from_config(module, class_name, config):
    """The SymbolicOp a saved functional config names (ours or Keras'): module keras.src.ops.<family>."""
    from .. import activations, ops
    if module == activations.KERAS_MODULE:  # Keras writes `keras.activations.relu(x)` as this module's ReLU
        function = activations._BY_NAME.get(class_name.lower()) or activations._BY_NAME.get(
            "".join("_" + c.lower() if c.isupper() else c for c in class_name).lstrip("_"))
        if function is None:
            return None
        config = dict(config or {})
        return SymbolicOp(function._symbolic_of, function._symbolic_of.__name__, module, name=config.pop("name", None),
                          config=config)
    family = module.rsplit(".", 1)[-1]
    namespace = getattr(ops, family, None)
    if namespace is None or module not in KERAS_MODULES.values():
        return None
    wanted = class_name.replace("_", "").lower()
    for name in namespace.__all__:
        function = getattr(namespace, name)
        if name.replace("_", "").lower() == wanted and hasattr(function, "_symbolic_of"):
            config = dict(config or {})
            return SymbolicOp(function._symbolic_of, name, module, name=config.pop("name", None), config=config)
    return None
