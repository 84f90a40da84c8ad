"""Keras 3's InputSpec rank check, with its message: the layers that accept only one rank say so
before they compute anything."""
from __future__ import annotations


def check_ndim(layer, inputs, ndim=None, min_ndim=None):
    shape = inputs.shape.as_list() if hasattr(inputs.shape, "as_list") else list(inputs.shape)
    rank = len(shape)
    if ndim is not None and rank != ndim:
        expected = f"ndim={ndim}"
    elif min_ndim is not None and rank < min_ndim:
        expected = f"min_ndim={min_ndim}"
    else:
        return
    raise ValueError(f"Input 0 with name 'None' of layer '{layer.name}' is incompatible with the layer: expected "
                     f"{expected}, found ndim={rank}. Full shape received: {tuple(shape)}")


class InputSpec:
    """What a layer expects of an input (dtype, shape or rank bounds, sizes of given axes), as custom
    layers declare it with `self.input_spec = InputSpec(ndim=4)`; a given `shape` fixes `ndim`."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = dtype
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.max_ndim, self.min_ndim = max_ndim, min_ndim
        self.name, self.optional, self.allow_last_axis_squeeze = name, optional, allow_last_axis_squeeze
        self.axes = {int(k): v for k, v in (axes or {}).items()}
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            top = (self.ndim if self.ndim is not None else self.max_ndim) - 1
            if max(self.axes) > top:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed value: {top}")

    def __repr__(self):
        parts = [f"{key}={value}" for key, value in (("dtype", self.dtype), ("shape", self.shape),
                                                      ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                                      ("min_ndim", self.min_ndim)) if value]
        if self.axes:
            parts.append(f"axes={self.axes}")
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes, "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
