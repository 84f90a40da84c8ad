"""StackedRNNCells: several cells run as one, each feeding the next within a time step."""
from __future__ import annotations

from ..base import Layer
from .cells import deserialize_cell, serialize_cell, build_in_scope


class StackedRNNCells(Layer):
    """Cells run one after another within a time step: each cell's output is the next one's input; the
    states are one list per cell."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError(f"All cells must have a `call` method and a `state_size` attribute. Received "
                                 f"cells={cells}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return [c.state_size for c in self.cells]

    @property
    def output_size(self):
        return self.cells[-1].output_size

    def build(self, input_shape):
        shape = tuple(input_shape)
        for cell in self.cells:
            build_in_scope(self, cell, shape)
            shape = shape[:-1] + (cell.output_size,)
        self.built = True

    def call(self, inputs, states, training=False):
        new_states = []
        for cell, cell_states in zip(self.cells, states):
            cell_states = list(cell_states) if isinstance(cell_states, (list, tuple)) else [cell_states]
            inputs, cell_states = cell(inputs, cell_states, training=training)
            new_states.append(cell_states)
        return inputs, new_states

    def get_config(self):
        return {**super().get_config(), "cells": [serialize_cell(c) for c in self.cells]}

    @classmethod
    def from_config(cls, config, custom_objects=None, **_):
        config = dict(config)
        config["cells"] = [deserialize_cell(c, custom_objects) for c in config["cells"]]
        return cls(**config)
