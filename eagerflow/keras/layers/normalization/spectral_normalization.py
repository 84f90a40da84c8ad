"""SpectralNormalization: wraps a layer with a `kernel` (or `embeddings`) and, in each training call,
divides that weight by an estimate of its largest singular value (power iteration on the weight seen
as a (fan_in, units) matrix), keeping the layer 1-Lipschitz (GAN discriminators)."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.linalg.matmul import matmul
from ...._src.ops.math import elementwise as _math
from ...._src.ops.math import reduce as _reduce
from ...._src.ops.random import draws as _random
from ..core.wrapper import Wrapper


def _unit(x):
    return x / _math.sqrt(_reduce.reduce_sum(_math.square(x)))


class SpectralNormalization(Wrapper):
    """The estimate's left vector `vector_u` (1, units) is a non-trainable weight carried from call to
    call; power_iterations steps refine it each training call. Inference calls use the kernel as it is."""

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError(f"`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' nor 'embeddings'")
        self.kernel_shape = tuple(self.kernel.shape.as_list())
        units = self.kernel_shape[-1]
        self.vector_u = self.add_weight(
            (1, units), lambda shape, dtype=None: _random.truncated_normal(shape, stddev=0.02, dtype=dtype),
            name="vector_u", trainable=False)
        self.built = True

    def normalized_weights(self):
        """(new vector_u, kernel / sigma)."""
        weights = _array.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        u = _array.identity(self.vector_u)
        for _ in range(self.power_iterations):
            v = _unit(matmul(u, weights, transpose_b=True))
            u = _unit(matmul(v, weights))
        u, v = _array.stop_gradient(u), _array.stop_gradient(v)
        sigma = matmul(matmul(v, weights), u, transpose_b=True)
        return u, _array.reshape(self.kernel / sigma, self.kernel_shape)

    def call(self, inputs, training=False):
        if training:
            u, kernel = self.normalized_weights()
            all_zero = _reduce.reduce_all(_math.equal(self.kernel, 0))
            self.vector_u.assign(_array.where(all_zero, self.vector_u, u))
            self.kernel.assign(_array.where(all_zero, self.kernel, kernel))
        output = self.layer(inputs)
        return _math.cast(output, inputs.dtype) if output.dtype != inputs.dtype else output

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        return {**super().get_config(), "power_iterations": self.power_iterations}
