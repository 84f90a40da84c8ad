"""The legacy Keras augmentation kernel: `keras.preprocessing.image.apply_affine_transform` (rotation, shift,
zoom about the centre, bilinear, "reflect" fill) on 32 RGB images of 128x128, each with its own parameters
drawn from a fixed seed, channels last.

Keras computes it with `scipy.ndimage.affine_transform`, one call per channel; eagerflow writes the same
resampling out in NumPy (eagerflow/keras/preprocessing/affine.py). Variants, all returning the 32 images:
* `numpy`: the floor, SciPy's C resampler exactly as Keras calls it (skipped without SciPy);
* `eagerflow`: `eagerflow.keras.preprocessing.image.apply_affine_transform`;
* `tensorflow`: `tf.keras.preprocessing.image.apply_affine_transform` of TensorFlow 2.21 (needs SciPy too).
Target: at most 1.5x SciPy's time."""
from __future__ import annotations

import numpy as np

from ..harness import Workload, ratio_at_most

_COUNT = {False: 32, True: 4}


def _setup(quick):
    rng = np.random.default_rng(0)
    count = _COUNT[bool(quick)]
    images = rng.random((count, 128, 128, 3), dtype=np.float32) * 255
    params = np.stack([rng.uniform(-30, 30, count), rng.uniform(-12, 12, count), rng.uniform(-12, 12, count),
                       rng.uniform(0.8, 1.2, count), rng.uniform(0.8, 1.2, count)], axis=1)
    return {"images": images, "params": params}


def _scipy_floor(p):
    from scipy import ndimage
    images, params = p["images"], p["params"]

    def matrix(theta, tx, ty, zx, zy, h, w):
        t = np.deg2rad(theta)
        m = np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
        m = m @ np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]) @ np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]])
        ox, oy = h / 2 - 0.5, w / 2 - 0.5
        m = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1]]) @ m @ np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]])
        return m[[1, 0, 2]][:, [1, 0, 2]]  # (x, y) -> (row, col)

    def run():
        out = np.empty_like(images)
        for i, (image, (theta, tx, ty, zx, zy)) in enumerate(zip(images, params)):
            m = matrix(theta, tx, ty, zx, zy, *image.shape[:2])
            for c in range(image.shape[2]):
                out[i, :, :, c] = ndimage.affine_transform(image[:, :, c], m[:2, :2], m[:2, 2], order=1,
                                                           mode="reflect")
        return out
    return run


def _keras(framework):
    def factory(p):
        if framework == "eagerflow":
            from eagerflow.keras.preprocessing.image import apply_affine_transform
        else:
            import scipy.ndimage  # noqa: F401  (Keras needs it; without it the variant is skipped)
            from tensorflow.keras.preprocessing.image import apply_affine_transform
        images, params = p["images"], p["params"]

        def run():
            return np.stack([apply_affine_transform(image, theta=theta, tx=tx, ty=ty, zx=zx, zy=zy, row_axis=0,
                                                    col_axis=1, channel_axis=2, fill_mode="reflect")
                             for image, (theta, tx, ty, zx, zy) in zip(images, params)])
        return run
    return factory


WORKLOADS = [
    Workload(name="keras/apply_affine_transform", setup=_setup,
             variants={"numpy": _scipy_floor, "eagerflow": _keras("eagerflow"), "tensorflow": _keras("tensorflow")},
             target=ratio_at_most(1.5, baseline="numpy"), rtol=1e-5, atol=1e-3,
             description="apply_affine_transform (rotate+shift+zoom, reflect) of 32 images 128x128x3; SciPy floor"),
]
