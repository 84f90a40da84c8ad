"""The weight and sub-layer listings of a Keras layer (weights, trainable_weights, get/set_weights, ...).

Why a mixin: these listings only read the `_tracked_weights` and `_tracked_layers` lists that
`Layer.__setattr__`/`add_weight` fill (base.py), in creation order, trainable weights first, each
object once, as Keras 3 lists them; keeping them apart leaves base.py with building and calling.
"""
from __future__ import annotations

import numpy as np


def unique_by_identity(items):
    """`items` without repeats (by identity), in first-seen order."""
    seen, out = set(), []
    for item in items:
        if id(item) not in seen:
            seen.add(id(item))
            out.append(item)
    return out


class WeightListsMixin:
    """Keras' weight and layer properties over `_tracked_weights`/`_tracked_layers` (see Layer)."""

    @property
    def layers(self):
        return list(self._tracked_layers)

    @property
    def weights(self):
        out, seen = [], set()
        own = self._tracked_weights
        for w in [w for w in own if w.trainable] + [w for w in own if not w.trainable]:
            if id(w) not in seen:
                seen.add(id(w))
                out.append(w)
        for layer in self._tracked_layers:
            for w in layer.weights:
                if id(w) not in seen:
                    seen.add(id(w))
                    out.append(w)
        return out

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for layer in self._tracked_layers:
            layer.trainable = value

    @property
    def trainable_weights(self):
        if not self._trainable:
            return []
        own = [w for w in self._tracked_weights if w.trainable]
        return unique_by_identity(own + [w for layer in self._tracked_layers for w in layer.trainable_weights])

    @property
    def non_trainable_weights(self):
        trainable = {id(w) for w in self.trainable_weights}
        return [w for w in self.weights if id(w) not in trainable]

    @property
    def variables(self):
        return self.weights

    @property
    def trainable_variables(self):
        return self.trainable_weights

    @property
    def non_trainable_variables(self):
        return self.non_trainable_weights

    @property
    def submodules(self):
        out = []
        for layer in self._tracked_layers:
            out.append(layer)
            out.extend(layer.submodules)
        return tuple(unique_by_identity(out))

    def get_weights(self):
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of length "
                             f"{len(weights)}, but the layer was expecting {len(params)} weights.")
        for var, value in zip(params, weights):
            value = np.asarray(value)
            if tuple(var.shape.as_list()) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(var.shape.as_list())} is not compatible "
                                 f"with provided weight shape {value.shape}.")
            var.assign(value.astype(var.dtype.np_dtype))

    def count_params(self):
        return int(sum(int(np.prod(w.shape.as_list())) for w in self.weights))
