"""HashedCrossing: two or more categorical features (strings or integers, equal shapes: scalars,
(batch,) or (batch, 1)) crossed into one hashed bin in [0, num_bins), as tf.sparse.cross_hashed does
(so the bins equal TensorFlow's), then given as ids or one-hot. With `sparse=True` the one-hot output is
a tf.SparseTensor (ids stay dense, as in Keras 3)."""
from __future__ import annotations

from ...._src.core.convert import convert_to_tensor
from ...._src.ops.math import elementwise as _math
from ...._src.ops.sparse.conversion import from_dense
from ...._src.ops.strings.hashed_cross import hashed_cross
from ..base import Layer
from .category_encoding import encode_categorical

_OUTPUT_MODES = ("int", "one_hot")


class HashedCrossing(Layer):
    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype)
        if output_mode not in _OUTPUT_MODES:
            raise ValueError(f"Unknown value for `output_mode` argument of HashedCrossing. Allowed values are: "
                             f"{_OUTPUT_MODES}. Received: output_mode={output_mode}")
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse
        self.built = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                             f"inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. Received: inputs={inputs}")
        features = []
        for x in inputs:
            x = convert_to_tensor(x)
            features.append(_math.cast(x, "int64") if x.dtype.is_integer and x.dtype.name != "int64" else x)
        shape = tuple(features[0].shape.as_list())
        if len(shape) > 2 or (len(shape) == 2 and shape[-1] != 1):
            raise ValueError(f"All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or "
                             f"`(batch_size, 1)`. Received: inputs={inputs}")
        if not all(tuple(f.shape.as_list()) == shape for f in features[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={inputs}")
        bins = hashed_cross(features, self.num_bins)
        if self.output_mode == "int":
            return bins if self._dtype.name == "int64" else _math.cast(bins, self._dtype)
        encoded = encode_categorical(bins, "one_hot", self.num_bins, self._dtype)
        return from_dense(encoded) if self.sparse else encoded

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if first and first[-1] == 1:
            first = first[:-1]
        return first + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": self._dtype.name}
