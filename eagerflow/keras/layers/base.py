"""keras.layers.Layer: a tf.Module that builds its weights on first call.

What `__call__` adds to `call` (Keras 3's rules):
- inputs that are NumPy arrays or Python values become tensors, and floating inputs are cast to
  the layer's dtype (float32), so float64 data from `x / 255.0` feeds a float32 model;
- the first call builds the layer from its input shape (`build(input_shape)`), under the layer's
  name, so weight paths read "model/dense/kernel";
- `training` reaches every nested layer: an explicit argument wins, else the outer call's value,
  else the default of the layer's own `call` signature;
- a call on symbolic `keras.Input` tensors records a node for the functional API instead;
- while a tf.function traces, a user-written `call` runs converted by AutoGraph (tensor `if`/`for`
  become cond/while_loop), as Keras converts it; library layers run as they are.
Weights and sub-layers are listed in the order they were created/assigned, as Keras does; a plain
tf.Variable assigned to a layer is not one of its weights (Keras 3 tracks only `add_weight` weights).
The weight listings live in layer_weight_lists.py, the losses in layer_losses.py, the per-thread call
state (training stack, build lock, input conversion) in layer_call_state.py.
"""
from __future__ import annotations

import inspect
import warnings

import numpy as np

from ..._src.autograph.transform import convert_function
from ..._src.core import dtypes as _dt
from ..._src.core.context import state
from ..._src.core.scopes import init_scope
from ..._src.core import nest
from ..._src.core.tensor import Tensor
from ..._src.state.module import Module
from ..._src.state.variables import Variable
from .. import constraints as _con
from .. import mixed_precision as _mixed
from .. import initializers as _init
from .. import regularizers as _reg
from ..naming import current_path, scope_stack, to_snake_case, unique_name
from ..variables import KerasVariable
from . import layer_call_state as _call_state
from . import masks as _masks
from .functional_call import symbolic_call
from .input_spec import check_input_compatibility
from .keras_tensor import first_call_tensors, has_keras_tensor
from .layer_call_state import BUILD_LOCK, current_training, output_shapes, shape_tuple, to_input_tensor, training_stack
from .layer_config import auto_config, charge_weight_budget, dtype_policy, record_init_arguments, wrap_build
from .layer_losses import LossesMixin
from .layer_weight_lists import WeightListsMixin

# BUILD_LOCK and shape_tuple stay importable from here: models and attention layers import them so.
__all__ = ["BUILD_LOCK", "Layer", "current_training", "shape_tuple"]


class Layer(WeightListsMixin, LossesMixin, Module):
    """Base class of every Keras layer and model."""

    supports_masking = False  # passes its input's mask on (compute_mask); see masks.py
    _convert_input_args = True  # a functional model converts its inputs itself (to its Inputs' dtypes)
    input_spec = None  # InputSpec(s) the first input is checked against before each call (Keras 3)

    def __new__(cls, *args, **kwargs):
        layer = super().__new__(cls)
        record_init_arguments(layer, cls, args, kwargs)
        return layer

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:  # Keras 3 wraps every build: built and build_config once it returns
            cls.build = wrap_build(cls.__dict__["build"])

    def __init__(self, trainable=True, name=None, dtype=None, activity_regularizer=None, autocast=True, **kwargs):
        object.__setattr__(self, "_tracked_weights", [])
        object.__setattr__(self, "_tracked_layers", [])
        object.__setattr__(self, "_losses", [])
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        self.autocast = bool(autocast)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: {kwargs}")
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. Received: "
                             f"name={name} (of type {type(name)})")
        super().__init__()
        self._name = name if name is not None else unique_name(to_snake_case(type(self).__name__))  # '' allowed
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)
        self._trainable = bool(trainable)
        # the dtype policy (keras/mixed_precision.py): weights in its variable dtype, calls in its compute dtype
        self._dtype_policy = _mixed.get(dtype)
        self._dtype = _dt.as_dtype(self._dtype_policy.variable_dtype)
        self._compute = _dt.as_dtype(self._dtype_policy.compute_dtype)
        self.built = False
        self._build_overridden = type(self).build is not Layer.build
        params = inspect.signature(self.call).parameters
        self._call_has_training = "training" in params
        self._call_has_mask = "mask" in params
        if type(self).compute_mask is not Layer.compute_mask and not type(self).supports_masking:
            self.supports_masking = True  # Keras: a layer that defines compute_mask supports masking
        self._training_default = params["training"].default if self._call_has_training else None
        self._training_required = self._training_default is inspect.Parameter.empty
        if self._training_required:
            self._training_default = None
        # Where `training` sits among call's positional parameters (a caller may pass it there), else None.
        positional = [n for n, p in params.items() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self._training_position = positional.index("training") if "training" in positional else None
        self._last_output_shape = None
        self.activity_regularizer = _reg.get(activity_regularizer)

    # --- attribute tracking (creation order, as Keras lists weights and layers) ---
    def __setattr__(self, name, value):
        tracked_layers = self.__dict__.get("_tracked_layers")
        if tracked_layers is not None and not name.startswith("_"):
            for v in _leaves(value):
                if isinstance(v, Layer) and not any(v is t for t in tracked_layers):
                    tracked_layers.append(v)
                elif isinstance(v, KerasVariable) and not any(v is t for t in self._tracked_weights):
                    self._tracked_weights.append(v)
        Module.__setattr__(self, name, value)

    # --- building ---
    def build(self, input_shape):
        """Creates the weights; `__call__` runs it once with the first input's shape."""
        self.built = True

    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable=True, autocast=True,
                   regularizer=None, constraint=None, aggregation="none", overwrite_with_gradient=False, name=None):
        """A weight of this layer, with Keras 3.15's arguments: `shape`, `initializer` and `dtype` may
        come positionally (Keras 2's order; nothing after them), the rest by keyword. `aggregation`
        ("none", "mean", "sum", "only_first_replica") is how a distribution strategy combines the
        replicas' values; `autocast=False` keeps the weight's own dtype inside a mixed-precision
        call; `overwrite_with_gradient=True` makes the optimizer assign the gradient to it (float8
        scales). Keras 3 has no `synchronization` here (only Metric state is on-read)."""
        shape, initializer, dtype = _positional_weight_args(args, shape, initializer, dtype)
        shape = () if shape is None else tuple(int(d) for d in shape)
        dtype = _dt.as_dtype(getattr(dtype, "name", dtype) or self._dtype)
        charge_weight_budget(shape, dtype)
        if initializer is None:  # Keras 3: glorot_uniform for a floating weight, zeros otherwise
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = _init.get(initializer)
        with init_scope():  # initial values are made eagerly, also while a call on keras.Input traces
            value = init(shape, dtype=dtype.name)
            value = np.asarray(value.numpy() if hasattr(value, "numpy") else value, dtype=dtype.np_dtype)
        name = name or unique_name("variable")  # Keras 3 numbers unnamed weights session-wide
        # Keras puts a weight under its layer's name even when made outside a call (in __init__, say)
        path = current_path(name) if self.name in scope_stack() else current_path(f"{self.name}/{name}")
        var = KerasVariable(value, trainable=trainable, name=name, path=path, dtype=dtype,
                            constraint=_con.get(constraint), regularizer=_reg.get(regularizer),
                            aggregation=aggregation, autocast=autocast)
        var.overwrite_with_gradient = bool(overwrite_with_gradient)
        self._tracked_weights.append(var)
        return var

    def _maybe_build(self, inputs):
        if self.built:
            return
        if isinstance(inputs, (Tensor, Variable)) or hasattr(inputs, "_keras_history"):
            self._build_shapes_for_config = shape_tuple(inputs)  # Keras' build_config for loading
        if self._build_overridden:
            shapes = shape_tuple(inputs) if isinstance(inputs, (Tensor, Variable)) \
                else nest.map_structure(shape_tuple, inputs, expand_composites=True)
            self.build(shapes)
        self.built = True

    # --- calling ---
    def call(self, inputs, *args, **kwargs):
        return inputs

    def __call__(self, *args, **kwargs):
        if has_keras_tensor((args, kwargs)):  # anywhere, keywords included: a functional node
            return symbolic_call(self, args, kwargs)
        if args and self._convert_input_args:
            first = args[0]
            if isinstance(first, (list, tuple, dict)):
                first = nest.map_structure(lambda v: to_input_tensor(v, self._compute), first, expand_composites=True)
            else:
                first = to_input_tensor(first, self._compute)
            args = (first,) + args[1:]
        passed_positionally = self._training_position is not None and len(args) > self._training_position
        training = args[self._training_position] if passed_positionally else kwargs.pop("training", None)
        if training is None:
            training = current_training()
            if training is None:
                training = self._training_default
        if self._call_has_training and not passed_positionally:
            if training is None and self._training_required:
                raise TypeError("missing a required argument: 'training'")  # Keras' words: it binds call's signature
            kwargs["training"] = training
        masks_live = _masks.any_masks()
        previous_mask = None
        if masks_live and args:
            previous_mask = _masks.previous_mask(args[0])
            if previous_mask is not None and self._call_has_mask and kwargs.get("mask") is None:
                kwargs["mask"] = previous_mask
            elif previous_mask is not None and not self.supports_masking and not self._call_has_mask:
                warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an input with a mask "
                              f"attached to it. However, this layer does not support masking and will therefore "
                              f"destroy the mask information. Downstream layers will not see the mask.", stacklevel=2)
        call = self.call
        if state.graph is not None:  # tracing: a user's `call` gets AutoGraph, as Keras converts it in a tf.function
            call = convert_function(call)
        names, trainings = scope_stack(), training_stack()
        if not trainings and _call_state.any_loss_added:  # the outermost call starts afresh: Keras 3 clears nested losses
            self._clear_losses()
        names.append(self.name)
        trainings.append(training)
        try:
            if self.input_spec:
                self._check_input_spec(args, kwargs)
            if not self.built:
                with BUILD_LOCK:  # threads calling a fresh model at once build its weights once
                    if not self.built:
                        self._maybe_build(args[0] if args else None)
                        if self.input_spec:  # build may have set it (Dense: the input's last axis)
                            self._check_input_spec(args, kwargs)
            scope = _mixed.call_scope(self._compute, self._dtype, self.autocast)
            if scope is not None:  # weights read as the compute dtype (a mixed policy, or inside one)
                with scope:
                    outputs = call(*args, **kwargs)
            else:
                outputs = call(*args, **kwargs)
        finally:
            names.pop()
            trainings.pop()
        if self.activity_regularizer is not None:
            self._add_activity_losses(outputs)
        if (masks_live or self.supports_masking and type(self).compute_mask is not Layer.compute_mask) and args:
            _masks.propagate(self, args[0], outputs, kwargs.get("mask", previous_mask))
        if self._last_output_shape is None:  # for summary(): the shapes of the first call, as Keras shows them
            self._last_output_shape = output_shapes(outputs)
        return outputs

    def _check_input_spec(self, args, kwargs):
        first = args[0] if args else next(iter(kwargs.values()), None)
        check_input_compatibility(self.input_spec, first, self.name)

    # --- the functional graph: what the first symbolic call took and gave (Keras 3 answers from call 0) ---
    input = property(lambda self: first_call_tensors(self, "input"))
    output = property(lambda self: first_call_tensors(self, "output"))

    @property
    def dtype(self):
        """The variable dtype's name, as Keras 3 reports it ("float32" under "mixed_bfloat16")."""
        return self._dtype.name

    @property
    def compute_dtype(self):
        return self._compute.name

    @property
    def variable_dtype(self):
        return self._dtype.name

    @property
    def dtype_policy(self):
        return self._dtype_policy

    def compute_mask(self, inputs, previous_mask=None):
        return previous_mask

    def compute_output_shape(self, input_shape):
        return self._last_output_shape

    def get_config(self):
        """name, trainable, dtype (Keras 3's DTypePolicy form); a subclass without its own get_config
        gets the arguments its __init__ was called with, when they are plain values (Keras' auto config)."""
        config = {"name": self.name}
        if getattr(type(self).get_config, "_is_default", False) and not type(self).__module__.startswith(
                "eagerflow.keras"):
            config = auto_config(self, config)
        config.update({"trainable": self.trainable, "dtype": dtype_policy(self._dtype_policy.name)})
        return config

    get_config._is_default = True

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_build_config(self):
        shape = getattr(self, "_build_shapes_for_config", None)
        return None if shape is None else {"input_shape": list(shape)}

    def build_from_config(self, config):
        shape = (config or {}).get("input_shape")
        if shape is not None and not self.built:
            self.build(tuple(shape))

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def _leaves(value):
    """The layers and Keras weights in an attribute value, lists, tuples and dicts entered (dicts in insertion
    order). A plain tf.Variable is not a Keras weight: Keras 3 does not track it (use `add_weight`)."""
    if isinstance(value, (Layer, KerasVariable)):
        return [value]
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _leaves(v)]
    return []


def _positional_weight_args(args, shape, initializer, dtype):
    """add_weight's positional arguments as Keras 3.15 reads them: at most (shape, initializer,
    dtype), each given once; a string first is a Keras 2 positional name, refused with the fix."""
    if not args:
        return shape, initializer, dtype
    if len(args) > 3:
        raise TypeError(f"add_weight() takes at most 3 positional arguments but {len(args)} were given.")
    if isinstance(args[0], str):
        raise ValueError(f"`name` must be passed as a keyword argument. Received: add_weight('{args[0]}', ...). "
                         f"Use: add_weight(shape=..., name='{args[0]}').")
    given = [shape, initializer, dtype]
    for i, (label, value) in enumerate(zip(("shape", "initializer", "dtype"), args)):
        if given[i] is not None:
            raise ValueError(f"`{label}` was passed both positionally and as a keyword argument.")
        given[i] = value
    return tuple(given)

