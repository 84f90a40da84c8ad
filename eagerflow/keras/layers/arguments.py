"""Checks of the geometry arguments convolution, pooling and image layers share, with Keras 3's
messages: integer tuples given as an int or a sequence, the padding mode, the data format."""
from __future__ import annotations


def check_channels_last(data_format):
    if data_format not in (None, "channels_last"):
        raise NotImplementedError("Only data_format='channels_last' is supported.")


def int_pair(value, name):
    """n -> (n, n); a 2-sequence -> itself as a tuple."""
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2:
        raise ValueError(f"The `{name}` argument must be a tuple of 2 integers. Received {name}={value}")
    return value


def single_int(value, name):
    """An int or a 1-tuple, as Keras takes kernel_size/strides/dilation_rate of a 1-D layer."""
    if isinstance(value, int):
        return value
    value = tuple(value)
    if len(value) != 1:
        raise ValueError(f"The `{name}` argument must be a tuple of 1 integers. Received {name}={value}")
    return int(value[0])


def padding_mode(padding, allowed=("valid", "same")):
    """The padding mode in lower case, one of `allowed`."""
    padding = padding.lower()
    if padding not in allowed:
        raise ValueError(f"The `padding` argument must be a one of {', '.join(repr(p) for p in allowed)}. "
                         f"Received: padding={padding}")
    return padding


def as_list(value):
    """A config's list form of a geometry argument stored as an int (1-D layers) or a tuple."""
    return [value] if isinstance(value, int) else list(value)
