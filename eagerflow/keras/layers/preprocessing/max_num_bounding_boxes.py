"""MaxNumBoundingBoxes: every image's boxes made exactly `max_number` long (extra boxes dropped, missing
ones filled with `fill_value`), so box sets of different sizes batch together. Images and the other
entries pass unchanged; boxes come out in the layer's dtype, labels in theirs. As in Keras 3, a dict
with "bounding_boxes" needs `bounding_box_format`, and the config does not record `fill_value`."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.array import basic as _array
from ...._src.ops.array.joining import stack
from ...._src.ops.array.padding import pad
from ...._src.ops.math import elementwise as _math
from ..arguments import check_channels_last
from ..base import Layer


class MaxNumBoundingBoxes(Layer):
    def __init__(self, max_number, fill_value=-1, bounding_box_format=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        check_channels_last(data_format)
        self.max_number = int(max_number)
        self.fill_value = int(fill_value)
        self.bounding_box_format = bounding_box_format

    def _fit(self, values, trailing):
        """`values` (batch, boxes, *trailing) cut or filled to (batch, max_number, *trailing)."""
        count = _array.shape(values)[1]
        missing = _math.maximum(self.max_number - count, 0)
        values = values[:, :self.max_number]
        zero = _array.constant(0, dtype=missing.dtype)
        paddings = stack([stack([zero, zero]), stack([zero, missing])] + [stack([zero, zero])] * len(trailing))
        values = pad(values, paddings, constant_values=_math.cast(self.fill_value, values.dtype))
        batch = values.shape.as_list()[0]
        return _array.reshape(values, [-1 if batch is None else batch, self.max_number, *trailing])

    def call(self, inputs):
        if not isinstance(inputs, dict) or "bounding_boxes" not in inputs:
            return inputs
        if self.bounding_box_format is None:
            raise ValueError(f"You passed an input with a 'bounding_boxes' key, but you didn't specify a bounding "
                             f"box format. Pass a `bounding_box_format` argument to your {type(self).__name__} "
                             f"layer, e.g. `bounding_box_format='xyxy'`.")
        data = dict(inputs)
        found = dict(inputs["bounding_boxes"])
        boxes = _math.cast(convert_to_tensor(found["boxes"]), self._compute)
        labels = convert_to_tensor(found["labels"])
        single = boxes.shape.rank == 2
        if single:
            boxes, labels = _array.expand_dims(boxes, 0), _array.expand_dims(labels, 0)
        boxes, labels = self._fit(boxes, [4]), self._fit(labels, [])
        found["boxes"], found["labels"] = (boxes[0], labels[0]) if single else (boxes, labels)
        data["bounding_boxes"] = found
        return data

    def compute_output_shape(self, input_shape):
        if isinstance(input_shape, dict) and "bounding_boxes" in input_shape:
            extra = set(input_shape["bounding_boxes"]) - {"boxes", "labels"}
            if extra:
                raise KeyError(f"There are unsupported keys in `bounding_boxes`: {list(extra)}. Only `boxes` and "
                               f"`labels` are supported.")
            boxes = list(input_shape["bounding_boxes"]["boxes"])
            labels = list(input_shape["bounding_boxes"]["labels"])
            boxes[1] = labels[1] = self.max_number
            input_shape["bounding_boxes"]["boxes"], input_shape["bounding_boxes"]["labels"] = boxes, labels
        return input_shape

    def get_config(self):
        return {**super().get_config(), "data_format": "channels_last", "max_number": self.max_number}
