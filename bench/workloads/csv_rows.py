"""CSV rows per second: one pass of `CsvDataset(...).batch(1024)` over a generated ~100 MB file.

The file (about 1.5M rows of 8 columns: int32, int64, four float32, a string and an int32 label, with
a header) is written once from a fixed seed into the temporary directory and reused while its size
matches; `--quick` uses a ~5 MB one. Variants, each returning (rows, sum of column 0, sum of column 2):
* `numpy`: the floor, `np.loadtxt` of the numeric columns (NumPy's C reader) into one float64 array;
* `eagerflow`: `tf.data.experimental.CsvDataset(path, defaults, header=True).batch(1024)`, iterated;
* `tensorflow`: the same pipeline in TensorFlow 2.21 (through `--tf-python`).
Rows per second = rows / the median time. Target: at most TensorFlow's time.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np

from ..harness import Workload, ratio_at_most

_ROWS = {False: 1_500_000, True: 75_000}
_WORDS = np.array(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"])


def _write(path, rows):
    rng = np.random.default_rng(0)
    with open(path + ".tmp", "w") as f:
        f.write("id,big,a,b,c,d,word,label\n")
        step = 100_000
        for start in range(0, rows, step):
            n = min(step, rows - start)
            ids = np.arange(start, start + n)
            big = rng.integers(1 << 33, 1 << 40, n)
            floats = rng.standard_normal((n, 4)).astype(np.float32)
            words = _WORDS[rng.integers(0, len(_WORDS), n)]
            labels = rng.integers(0, 10, n)
            lines = [f"{i},{g},{x[0]:.6f},{x[1]:.6f},{x[2]:.6f},{x[3]:.6f},{w},{y}\n"
                     for i, g, x, w, y in zip(ids.tolist(), big.tolist(), floats.tolist(), words.tolist(),
                                              labels.tolist())]
            f.write("".join(lines))
    os.replace(path + ".tmp", path)


def _setup(quick):
    rows = _ROWS[bool(quick)]
    path = os.path.join(tempfile.gettempdir(), f"eagerflow-bench-{rows}-rows.csv")
    if not os.path.exists(path):
        _write(path, rows)
    return {"path": np.array(path), "rows": np.array(rows)}


def _numpy(p):
    path = str(p["path"])

    def read():
        table = np.loadtxt(path, delimiter=",", skiprows=1, usecols=(0, 1, 2, 3, 4, 5, 7), dtype=np.float64)
        return np.array([len(table), table[:, 0].sum(), table[:, 2].sum()])
    return read


def _pipeline(framework):
    def factory(p):
        if framework == "eagerflow":
            import eagerflow as tf
        else:
            import tensorflow as tf
        path = str(p["path"])
        defaults = [tf.int32, tf.int64, tf.float32, tf.float32, tf.float32, tf.float32, tf.string, tf.int32]

        def read():
            dataset = tf.data.experimental.CsvDataset(path, defaults, header=True).batch(1024)
            rows, first, third = 0, 0.0, 0.0
            for batch in dataset:
                rows += int(batch[0].shape[0])
                first += float(np.sum(batch[0].numpy(), dtype=np.float64))
                third += float(np.sum(batch[2].numpy(), dtype=np.float64))
            return np.array([rows, first, third])
        return read
    return factory


WORKLOADS = [
    Workload(name="csv/rows-100MB", setup=_setup,
             variants={"numpy": _numpy, "eagerflow": _pipeline("eagerflow"), "tensorflow": _pipeline("tensorflow")},
             target=ratio_at_most(1.0, baseline="tensorflow"), rtol=1e-4, atol=1e-2,
             description="one pass of CsvDataset(100 MB, 8 columns, header).batch(1024); rows/s = rows / time"),
]
