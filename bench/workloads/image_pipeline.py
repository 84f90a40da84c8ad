"""An image pipeline as the Keras tutorials build it: one epoch of
`keras.utils.image_dataset_from_directory(folder, image_size=(32, 32), batch_size=32, seed=1)
.map(augment: RandomFlip("horizontal"), resize to 24x24, scale to [0, 1]).prefetch(AUTOTUNE)` over 2,000 small
JPEGs in two class folders.

The folder (2,000 RGB JPEGs of 32x32, quality 90, or 200 with `--quick`, from a fixed seed) is written once
into the temporary directory and reused. A horizontal flip leaves each image's mean as it was, so the
results below do not depend on the random flips either. Each variant returns (images, sum of the labels, mean pixel), which do
not depend on the shuffled order:
* `numpy`: the floor, Pillow's decode of every file and NumPy's mean (no resize or flip: the mean of a bilinear
  resize differs from the image's by well under the tolerance);
* `eagerflow`: the pipeline above with `from eagerflow import keras`;
* `tensorflow`: the same with Keras 3.15 on TensorFlow 2.21 (through `--tf-python`).
Images per second = images / the median time. Target: at most 1.25x TensorFlow's time (0.8x its rate).
"""
from __future__ import annotations

import os
import tempfile

import numpy as np

from ..harness import Workload, ratio_at_most

_IMAGES = {False: 2000, True: 200}
_SIZE = 32


def _write(folder, count):
    from PIL import Image
    rng = np.random.default_rng(0)
    staging = folder + ".tmp"
    for index in range(count):
        label = ("cats", "dogs")[index % 2]
        os.makedirs(os.path.join(staging, label), exist_ok=True)
        pixels = rng.integers(0, 256, (_SIZE, _SIZE, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(os.path.join(staging, label, f"{index:04d}.jpg"), quality=90)
    os.replace(staging, folder)


def _setup(quick):
    count = _IMAGES[bool(quick)]
    folder = os.path.join(tempfile.gettempdir(), f"eagerflow-bench-{count}-jpegs")
    if not os.path.isdir(folder):
        _write(folder, count)
    return {"folder": np.array(folder), "count": np.array(count)}


def _numpy(p):
    from PIL import Image
    folder = str(p["folder"])

    def read():
        total, images, labels = 0.0, 0, 0
        for label, name in enumerate(("cats", "dogs")):
            for file in sorted(os.listdir(os.path.join(folder, name))):
                pixels = np.asarray(Image.open(os.path.join(folder, name, file)).convert("RGB"), np.float64)
                total += pixels.mean() / 255.0
                images += 1
                labels += label
        return np.array([images, labels, total / images])
    return read


def _pipeline(framework):
    def factory(p):
        if framework == "eagerflow":
            import eagerflow as tf
            from eagerflow import keras
        else:
            import keras
            import tensorflow as tf
        folder = str(p["folder"])

        def read():
            dataset = keras.utils.image_dataset_from_directory(folder, image_size=(_SIZE, _SIZE), batch_size=32,
                                                               seed=1, verbose=False)
            flip = keras.layers.RandomFlip("horizontal", seed=2)
            dataset = dataset.map(lambda x, y: (tf.image.resize(flip(x, training=True), (24, 24)) / 255.0, y))
            dataset = dataset.prefetch(tf.data.AUTOTUNE)
            images, labels, total = 0, 0, 0.0
            for x, y in dataset:
                values = x.numpy()
                images += values.shape[0]
                labels += int(np.sum(y.numpy()))
                total += float(values.mean(axis=(1, 2, 3)).sum())
            return np.array([images, labels, total / images])
        return read
    return factory


WORKLOADS = [
    Workload(name="data/image_pipeline", setup=_setup,
             variants={"numpy": _numpy, "eagerflow": _pipeline("eagerflow"), "tensorflow": _pipeline("tensorflow")},
             target=ratio_at_most(1.25, baseline="tensorflow"), rtol=5e-3, atol=1e-3,
             description="one epoch of image_dataset_from_directory(2,000 JPEGs).map(flip, resize).prefetch; images/s"),
]
