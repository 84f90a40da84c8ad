"""RNN: any cell (or list of cells) run over the time axis of a sequence."""
from __future__ import annotations

from ...._src.control_flow.tensor_array import TensorArray
from ...._src.control_flow.while_loop import while_loop
from ...._src.core import nest
from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.math import elementwise as _math
from ...._src.ops.array.joining import concat
from ...._src.ops.array.slicing import gather
from ..base import Layer
from .cells import deserialize_cell, serialize_cell, build_in_scope
from .stacked_rnn_cells import StackedRNNCells


def _state_template(cell):
    """The nesting of a cell's states as the layer hands them over: a list per stacked cell, else one list."""
    if isinstance(cell, StackedRNNCells):
        return [_state_template(c) for c in cell.cells]
    size = cell.state_size
    return [0] * (len(size) if isinstance(size, (list, tuple)) else 1)


def _leaf_cells(cell):
    """The cells that draw dropout masks (those of a stack, else the cell; user cells need not)."""
    if isinstance(cell, StackedRNNCells):
        return [c for inner in cell.cells for c in _leaf_cells(inner)]
    return [cell] if hasattr(cell, "begin_sequence") else []


def _state_sizes(cell):
    if isinstance(cell, StackedRNNCells):
        return [s for c in cell.cells for s in _state_sizes(c)]
    size = cell.state_size
    return list(size) if isinstance(size, (list, tuple)) else [size]


class RNN(Layer):
    """Runs `cell` over the time axis of (batch, time, features) with a while loop (a Python loop eagerly,
    a While op under tf.function): returns the last output, or every step's output (return_sequences),
    followed by the final states (return_state). A masked step keeps the states and repeats the output."""
    supports_masking = True

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, **kwargs):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell) or not hasattr(cell, "state_size"):
            raise ValueError(f"The RNN cell should have a `state_size` attribute (single integer or list of "
                             f"integers, one integer per RNN state). Received: cell={cell}")
        super().__init__(**kwargs)
        if stateful:
            raise NotImplementedError("stateful RNN layers are not supported yet.")
        self.cell = cell
        self.return_sequences, self.return_state, self.go_backwards = return_sequences, return_state, go_backwards
        self.zero_output_for_mask = zero_output_for_mask

    def build(self, input_shape):
        if len(input_shape) != 3:
            raise ValueError(f"Input 0 of layer \"{self.name}\" is incompatible with the layer: expected ndim=3, "
                             f"found ndim={len(input_shape)}. Full shape received: {tuple(input_shape)}")
        build_in_scope(self, self.cell, (input_shape[0], input_shape[-1]))
        self.built = True

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        return [output_mask] + [None] * len(_state_sizes(self.cell)) if self.return_state else output_mask

    def call(self, sequences, initial_state=None, mask=None, training=False):
        cells = _leaf_cells(self.cell)
        for cell in cells:
            cell.begin_sequence()
        try:
            return self._run(sequences, initial_state, mask, training)
        finally:
            for cell in cells:
                cell.end_sequence()

    def get_initial_state(self, batch_size):
        """The cell's own initial states when it defines them, else zeros [batch_size, size] per state."""
        own = getattr(self.cell, "get_initial_state", None)
        if own is not None:
            return own(batch_size=batch_size)
        return [_array.zeros([batch_size, size], dtype=self.compute_dtype)
                for size in _state_sizes(self.cell)]

    def _run(self, sequences, initial_state, mask, training):
        steps = _array.shape(sequences)[1]
        xs = _array.transpose(sequences, [1, 0, 2])  # time-major
        template = _state_template(self.cell)
        if initial_state is None:
            batch = _array.shape(sequences)[:1]
            states = [_array.zeros(concat([batch, _array.constant([size], dtype=batch.dtype)], 0),
                                   dtype=sequences.dtype) for size in _state_sizes(self.cell)]
        else:
            states = [convert_to_tensor(s) for s in nest.flatten(initial_state, expand_composites=True)]
        n = len(states)
        step_mask = None if mask is None else _array.expand_dims(
            _array.transpose(_math.cast(convert_to_tensor(mask), "bool"), [1, 0]), -1)
        backwards, sequences_out, cell = self.go_backwards, self.return_sequences, self.cell
        zero_masked = self.zero_output_for_mask

        def step(index, flat_states):
            packed = nest.pack_sequence_as(template, list(flat_states), expand_composites=True)
            output, new = cell(gather(xs, index), packed, training=training)
            return output, nest.flatten(new, expand_composites=True)

        # the first step runs before the loop: it fixes the output's shape and dtype for the loop variables, and
        # draws the cells' dropout masks there, so every step inside the loop reuses them
        first = steps - 1 if backwards else 0
        output, new_states = step(first, states)
        if step_mask is not None:
            keep = gather(step_mask, first)
            new_states = [_array.where(_array.broadcast_to(keep, _array.shape(s)), s, h)
                          for s, h in zip(new_states, states)]
            output = _array.where(_array.broadcast_to(keep, _array.shape(output)), output, _array.zeros_like(output))

        def cond(t, *rest):
            return _math.less(t, steps)

        def body(t, *loop):
            hs, last = loop[:n], loop[n]
            index = steps - 1 - t if backwards else t
            out, new = step(index, hs)
            written = out
            if step_mask is not None:
                keep = gather(step_mask, index)
                new = [_array.where(_array.broadcast_to(keep, _array.shape(s)), s, h) for s, h in zip(new, hs)]
                written = _array.where(_array.broadcast_to(keep, _array.shape(out)), out,
                                       _array.zeros_like(out) if zero_masked else last)
                out = written
            tail = (loop[-1].write(t, written),) if sequences_out else ()
            return (t + 1, *new, out) + tail

        ta = (TensorArray(output.dtype, size=steps).write(0, output),) if sequences_out else ()
        result = while_loop(cond, body, (convert_to_tensor(1), *new_states, output) + ta)
        final_states, last = list(result[1:1 + n]), result[1 + n]
        out = _array.transpose(result[-1].stack(), [1, 0, 2]) if sequences_out else last
        if sequences_out:
            out.set_shape(sequences.shape.as_list()[:2] + out.shape.as_list()[2:])
        if not self.return_state:
            return out
        return [out] + nest.pack_sequence_as(template, final_states, expand_composites=True)

    def get_config(self):
        return {**super().get_config(), "return_sequences": self.return_sequences,
                "return_state": self.return_state, "go_backwards": self.go_backwards, "stateful": False,
                "unroll": False, "zero_output_for_mask": self.zero_output_for_mask, "cell": serialize_cell(self.cell)}

    @classmethod
    def from_config(cls, config, custom_objects=None, **_):
        config = dict(config)
        config["cell"] = deserialize_cell(config["cell"], custom_objects)
        return cls(**config)
