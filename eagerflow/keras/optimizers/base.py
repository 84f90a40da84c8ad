"""The optimizer base: slot variables, gradient clipping, weight decay, the step counter.

Variable creation follows TensorFlow's tf.function rule: slots are made by `build` on the first
`apply_gradients` (the first trace, when that call is inside a tf.function) and never again.
Slots are found by the variable's position in the list `build` saw; the optimizer holds those
variables (strongly, as Keras does), so the `id` keys below can never be reused by another object.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..._src.core import dtypes as _dt
from ..._src.composite.indexed_slices import IndexedSlices
from ..._src.core.convert import convert_to_tensor
from ..._src.distribute.keras_support import apply_summed_over_replicas, update_needs_all_reduce
from ..._src.ops.math import elementwise as _math
from ..._src.ops.math import reduce as _reduce
from ..._src.state.deferred_restore import notify as _notify_new_state
from ..naming import to_snake_case, unique_name
from ..variables import KerasVariable
from . import schedules
from .schedules import LearningRateSchedule


class Optimizer:
    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        if kwargs.pop("decay", None) is not None:  # Keras 2's learning-rate decay: Keras 3 warns and ignores it
            warnings.warn("Argument `decay` is no longer supported and will be ignored.", stacklevel=2)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        # Keras 3: a given name is kept as is; without one, the class name numbered per session ("sgd_1")
        self.name = name if name is not None else unique_name(to_snake_case(type(self).__name__))
        self.weight_decay, self.clipnorm, self.clipvalue, self.global_clipnorm = (
            weight_decay, clipnorm, clipvalue, global_clipnorm)
        self.use_ema, self.ema_momentum, self.ema_overwrite_frequency = use_ema, ema_momentum, ema_overwrite_frequency
        self.loss_scale_factor, self.gradient_accumulation_steps = loss_scale_factor, gradient_accumulation_steps
        self._iterations = KerasVariable(np.array(0, np.int64), trainable=False, name="iteration",
                                         path=f"{self.name}/iteration")
        if isinstance(learning_rate, LearningRateSchedule):
            self._schedule, self._learning_rate = learning_rate, None
        else:
            self._schedule = None
            self._learning_rate = KerasVariable(np.array(learning_rate, np.float32), trainable=False,
                                                name="learning_rate", path=f"{self.name}/learning_rate")
        self.built = False
        self._trainable_variables = []
        self._slot_index = {}  # id(variable) -> position in _trainable_variables (held, see module doc)
        self._slots = []
        self._extra_variables = []  # an optimizer's own state beyond per-variable slots (Nadam's u_product)

    # --- public state ---
    @property
    def iterations(self):
        return self._iterations

    @property
    def learning_rate(self):
        if self._schedule is not None:
            return self._schedule(self._iterations)
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if self._schedule is not None or isinstance(value, LearningRateSchedule):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its "
                            "`learning_rate` constructor argument, hence its learning rate is not settable.")
        self._learning_rate.assign(np.float32(value))

    @property
    def variables(self):
        own = [self._iterations] + ([self._learning_rate] if self._learning_rate is not None else [])
        return own + [v for slots in self._slots for v in slots] + list(self._extra_variables)

    # --- slots ---
    def build(self, var_list):
        self._trainable_variables = list(var_list)
        self._slot_index = {id(v): i for i, v in enumerate(self._trainable_variables)}
        # a weight the gradient overwrites (add_weight(overwrite_with_gradient=True)) has no slots
        self._slots = [() if _overwritten(v) else self._make_slots(v) for v in self._trainable_variables]
        self.built = True
        _notify_new_state(self)  # a checkpoint restored before the first step holds the slots' values

    def _make_slots(self, variable):
        return ()

    def add_variable_from_reference(self, reference, name, initial_value=0.0):
        """A slot shaped like `reference`, named as Keras 3 names it: the reference's path with '/'
        as '_' ('dense_kernel_momentum'), or for a plain tf.Variable its name with ':' as '_'
        ('kernel_0_momentum')."""
        path = getattr(reference, "path", None)
        base = path.replace("/", "_") if path else reference.name.replace("/", "_").replace(":", "_")
        value = np.full(reference.shape.as_list(), initial_value, reference.dtype.np_dtype)
        return KerasVariable(value, trainable=False, name=f"{base}_{name}", path=f"{self.name}/{base}_{name}")

    def _slots_for(self, variable):
        i = self._slot_index.get(id(variable))
        if i is None:
            raise KeyError(f"The optimizer cannot recognize variable {variable.name}. This usually means you are "
                           f"trying to call the optimizer to update different parts of the model separately. "
                           f"Please call `optimizer.build(variables)` with the full list of trainable variables "
                           f"before the training loop or use legacy optimizer "
                           f"`tf.keras.optimizers.legacy.{type(self).__name__}.")
        return self._slots[i]

    # --- applying ---
    def apply_gradients(self, grads_and_vars):
        pairs = [(g, v) for g, v in grads_and_vars]
        return self.apply([g for g, _ in pairs], [v for _, v in pairs])

    def apply(self, grads, trainable_variables=None):
        if update_needs_all_reduce():  # in a replica of a tf.distribute strategy: sum, then update once
            return apply_summed_over_replicas(self.apply, list(grads), list(trainable_variables))
        pairs = [(g, v) for g, v in zip(grads, trainable_variables) if g is not None]
        if not self.built:
            self.build(trainable_variables)
            _notify_new_state(self)  # again: a subclass's build may make state after the base build
        if not pairs:
            return self._iterations
        if any(_overwritten(v) for _, v in pairs):
            # Keras 3: such a weight takes its raw gradient (no unscaling, clipping, decay or rule) and
            # leaves the list; the step still counts when no other weight remains
            for g, v in pairs:
                if _overwritten(v):
                    v.assign(convert_to_tensor(g))
            pairs = [(g, v) for g, v in pairs if not _overwritten(v)]
            if not pairs:
                self._iterations.assign_add(np.int64(1))
                return self._iterations
        # A gather's gradient (tf.IndexedSlices) stays sparse through scaling and clipping, which see its
        # rows as they are (Keras 3's norms); update steps that write rows take it so, the others dense.
        grads = [g if isinstance(g, IndexedSlices) else convert_to_tensor(g) for g, _ in pairs]
        variables = [v for _, v in pairs]
        if self.loss_scale_factor is not None:  # the loss was multiplied by it (scale_loss): undo it first
            grads = [_on_rows(g, lambda x: x / float(self.loss_scale_factor)) for g in grads]
        grads = self._clip(grads)
        grads = [g if not isinstance(g, IndexedSlices) or self._updates_rows else convert_to_tensor(g)
                 for g in grads]
        lr = self.learning_rate
        lr = convert_to_tensor(lr) if not hasattr(lr, "_as_tensor") else lr._as_tensor()
        self._apply_weight_decay(variables, lr)
        step = _math.cast(self._iterations + 1, _dt.float32)
        self._before_updates(step)
        for g, v in zip(grads, variables):
            self.update_step(g, v, lr, step)
        for v in variables:  # Keras 3 projects each updated weight through its constraint
            constraint = getattr(v, "constraint", None)
            if constraint is not None:
                v.assign(constraint(v))
        self._iterations.assign_add(np.int64(1))
        return self._iterations

    def scale_loss(self, loss):
        """The loss fit differentiates: times `loss_scale_factor` when one is set (apply divides it out)."""
        if self.loss_scale_factor is not None:
            return loss * self.loss_scale_factor
        return loss

    def _apply_weight_decay(self, variables, lr):
        """Decoupled weight decay before the updates: v -= v * lr * weight_decay (Keras 3)."""
        if self.weight_decay:
            for v in variables:
                v.assign_sub(v * (lr * float(self.weight_decay)))

    def _before_updates(self, step):
        """Once per apply, before the per-variable updates (state shared by every variable)."""

    def update_step(self, gradient, variable, learning_rate, step):
        raise NotImplementedError

    def _clip(self, grads):
        if self.clipnorm is not None:
            return [_on_rows(g, lambda x: _clip_by_norm(x, self.clipnorm)) for g in grads]
        if self.global_clipnorm is not None:
            rows = [g.values if isinstance(g, IndexedSlices) else g for g in grads]
            norm = _math.sqrt(_math.add_n([_reduce.reduce_sum(g * g) for g in rows]))
            scale = float(self.global_clipnorm) / _math.maximum(norm, float(self.global_clipnorm))
            return [convert_to_tensor(g) * scale for g in grads]  # Keras 3's product is dense
        if self.clipvalue is not None:
            c = float(self.clipvalue)
            return [_on_rows(g, lambda x: _math.clip_by_value(x, -c, c)) for g in grads]
        return grads

    _updates_rows = False  # True where update_step writes an IndexedSlices gradient's rows itself

    _config_keys = ()  # a rule's own constructor arguments, in Keras 3's get_config order

    def get_config(self):
        """Keras 3's keys: name, learning_rate (a float32 value as a Python float, or a schedule's
        dict), the common options, then the rule's own arguments."""
        if self._schedule is not None:
            lr = schedules.serialize(self._schedule)
        else:
            lr = float(np.asarray(self._learning_rate.numpy()))
        config = {"name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
                  "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue,
                  "use_ema": self.use_ema, "ema_momentum": self.ema_momentum,
                  "ema_overwrite_frequency": self.ema_overwrite_frequency, "loss_scale_factor": self.loss_scale_factor,
                  "gradient_accumulation_steps": self.gradient_accumulation_steps}
        config.update({k: getattr(self, k) for k in self._config_keys})
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        lr = config.get("learning_rate")
        if isinstance(lr, dict):
            config["learning_rate"] = schedules.deserialize(lr, custom_objects)
        return cls(**config)


def _overwritten(variable):
    return getattr(variable, "overwrite_with_gradient", False) is True


def dense_and_squares(g):
    """A gradient as a tensor, and its elementwise squares as Keras 3 forms them: of an IndexedSlices,
    each row squared before rows at one index are summed (so a repeated row adds its squares)."""
    if not isinstance(g, IndexedSlices):
        return g, _math.square(g)
    squares = convert_to_tensor(IndexedSlices(_math.square(g.values), g.indices, g.dense_shape))
    return convert_to_tensor(g), squares


def _on_rows(g, fn):
    """fn of a gradient tensor, or of an IndexedSlices' rows (an IndexedSlices again)."""
    if isinstance(g, IndexedSlices):
        return IndexedSlices(fn(g.values), g.indices, g.dense_shape)
    return fn(g)


def _clip_by_norm(g, clipnorm):
    norm = _math.sqrt(_reduce.reduce_sum(g * g))
    return g * float(clipnorm) / _math.maximum(norm, float(clipnorm))
