"""CutMix: while training, a random box of each image (given as a batch) replaced by the same box of
another image of the batch (a random permutation), and with Keras' {"images", "labels"} dict each label
mixed by the share of the image left: 1 - box area / image area."""
from __future__ import annotations

from ...._src.ops.array import basic as _array
from ...._src.ops.array.slicing import gather
from ...._src.ops.array.sequences import range as _range
from ...._src.ops.math import elementwise as _math
from ...._src.ops.random import draws as _random
from .image_preprocessing import factor_pair
from .mix_up import beta_draws, mix_labels
from .random_image_layer import RandomImageLayer


class CutMix(RandomImageLayer):
    """The box's sides are sqrt(1 - w) of the image's, w ~ Beta(a, a), a drawn from `factor` for the
    batch; its corner is uniform over the places it fits."""

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(seed=seed, data_format=data_format, **kwargs)
        self.factor = factor_pair(factor, (0, 1))

    def _bounds(self, n, length, ratio):
        side = ratio * float(length)
        start = _random.uniform(n, 0.0, 1.0, dtype=ratio.dtype, seed=self.seed) * (float(length) - side)
        return start, start + side

    def transform(self, batch, labels, n):
        rows, cols = batch.shape.as_list()[1:3]
        alpha = _random.uniform([], self.factor[0], self.factor[1], dtype=batch.dtype, seed=self.seed) + 1e-6
        ratio = _math.sqrt(1.0 - beta_draws(n, alpha, batch.dtype, self.seed))
        x0, x1 = self._bounds(n, cols, ratio)
        y0, y1 = self._bounds(n, rows, ratio)
        ys = _array.reshape(_math.cast(_range(rows), batch.dtype), [1, rows, 1, 1])
        xs = _array.reshape(_math.cast(_range(cols), batch.dtype), [1, 1, cols, 1])

        def corner(v):
            return _array.reshape(v, [-1, 1, 1, 1])

        inside = _math.logical_and(
            _math.logical_and(_math.greater_equal(xs, corner(x0)), _math.less(xs, corner(x1))),
            _math.logical_and(_math.greater_equal(ys, corner(y0)), _math.less(ys, corner(y1))))
        permutation = _random.shuffle(_range(n[0]), seed=self.seed)
        images = _array.where(_array.broadcast_to(inside, _array.shape(batch)), gather(batch, permutation), batch)
        if labels is None:
            return images, None
        kept = 1.0 - (x1 - x0) * (y1 - y0) / float(rows * cols)
        return images, mix_labels(labels, permutation, kept)

    def get_config(self):
        return {**super().get_config(), "factor": list(self.factor), "seed": self.seed}
