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


def _static_shape(x):
    shape = x.shape
    if hasattr(shape, "as_list"):
        return None if shape.rank is None else tuple(shape.as_list())
    return tuple(shape)


def check_input_compatibility(input_spec, inputs, layer_name):
    """Keras 3's check of a call's inputs against a layer's InputSpecs, before the call runs: a dict
    is taken by the specs' names, then the number of inputs, each one's rank, dtype, given axes and
    shape (the batch and unknown dimensions free; with `allow_last_axis_squeeze`, a trailing 1 on
    either side ignored and the rank not checked)."""
    from ..._src.core import nest
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    if isinstance(inputs, dict):
        names = [spec.name for spec in specs]
        if all(names):
            for name in names:
                if name not in inputs:
                    raise ValueError(f'Missing data for input "{name}". You passed a data dictionary with keys '
                                     f"{list(inputs)}. Expected the following keys: {names}")
            inputs = [inputs[name] for name in names]
    inputs = nest.flatten(inputs, expand_composites=True)
    if len(inputs) != len(specs):
        names = [spec.name for spec in specs if spec is not None]
        if len(names) == len(specs) and all(names):
            example = ", ".join(f"'{n}': ..." for n in names)
            raise ValueError(f'Layer "{layer_name}" expects {len(specs)} named input(s) with keys {names}, but it '
                             f"received {len(inputs)} input tensors. Pass inputs as a dict, e.g. "
                             f"`layer({{{example}}})`.")
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received {len(inputs)} input '
                         f"tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) as input for "
                             f"layer '{layer_name}'.")
        shape = _static_shape(x)
        if shape is None:
            continue
        where = f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible with the layer:"
        ndim = len(shape)
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{where} expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{where} expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{where} expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full shape received: "
                             f"{shape}")
        if spec.dtype is not None:
            dtype = getattr(x.dtype, "name", str(x.dtype))
            if dtype != spec.dtype:
                raise ValueError(f"{where} expected dtype={spec.dtype}, found dtype={dtype}")
        for axis, value in spec.axes.items():
            if value is not None and shape[axis] not in (value, None):
                raise ValueError(f"{where} expected axis {axis} of input shape to have value {value}, but received "
                                 f"input with shape {shape}")
        if spec.shape is not None:
            spec_shape = spec.shape
            if spec.allow_last_axis_squeeze:
                shape = shape[:-1] if shape and shape[-1] == 1 else shape
                spec_shape = spec_shape[:-1] if spec_shape and spec_shape[-1] == 1 else spec_shape
            for want, got in zip(spec_shape, shape):
                if want is not None and got is not None and want != got:
                    raise ValueError(f"{where} expected shape={spec.shape}, found shape={shape}")
