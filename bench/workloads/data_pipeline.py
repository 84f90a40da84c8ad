"""tf.data overlap: `map(num_parallel_calls=AUTOTUNE)` and `prefetch` computing elements in threads.

- data/map_parallel: 48 elements of 384x384 float32, each mapped through `sum(tanh(x) * x)` (NumPy loops
  that release the GIL). "eagerflow" maps one element at a time; "eagerflow_parallel" passes
  num_parallel_calls=AUTOTUNE (one thread per core). Target: the parallel map at most 0.8x the serial
  one's time, which needs at least two free cores (on a loaded machine it can MISS).
- data/prefetch_overlap: 24 elements whose map waits 3 ms the way a file read or a decoder does (a
  py_function sleeping, which releases the GIL), consumed by a step that also takes 3 ms. Without
  prefetch the two add up (~6 ms an element); with prefetch(2) the producer thread reads ahead while
  the step runs (~3 ms). Target: at most 0.7x the time without prefetch.
"""
from __future__ import annotations

import time

import numpy as np

from ..harness import Workload, ratio_at_most

_WAIT_S = 0.003


def _setup_map(quick: bool):
    n = 12 if quick else 48
    return {"x": np.random.default_rng(0).standard_normal((n, 384, 384)).astype(np.float32)}


def _setup_prefetch(quick: bool):
    return {"x": np.arange(8 if quick else 24, dtype=np.int64)}


def _numpy_map(inputs):
    x = inputs["x"]
    return lambda: np.array([np.sum(np.tanh(v) * v) for v in x], np.float32)


def _tf_map(parallel, module):
    def factory(inputs):
        tf = __import__(module)
        ds = tf.data.Dataset.from_tensor_slices(inputs["x"])
        ds = ds.map(lambda v: tf.reduce_sum(tf.tanh(v) * v),
                    num_parallel_calls=tf.data.AUTOTUNE if parallel else None)
        return lambda: np.array([float(v) for v in ds], np.float32)
    return factory


def _numpy_prefetch(inputs):
    def run():
        out = []
        for v in inputs["x"]:
            time.sleep(_WAIT_S)  # the read
            time.sleep(_WAIT_S)  # the step
            out.append(v)
        return np.array(out)
    return run


def _tf_prefetch(prefetch, module):
    def factory(inputs):
        tf = __import__(module)

        def read(v):
            time.sleep(_WAIT_S)
            return v
        ds = tf.data.Dataset.from_tensor_slices(inputs["x"]).map(lambda v: tf.py_function(read, [v], tf.int64))
        if prefetch:
            ds = ds.prefetch(2)

        def run():
            out = []
            for v in ds:
                time.sleep(_WAIT_S)  # the training step
                out.append(int(v))
            return np.array(out)
        return run
    return factory


WORKLOADS = [
    Workload(name="data/map_parallel", setup=_setup_map,
             variants={"numpy": _numpy_map, "eagerflow": _tf_map(False, "eagerflow"),
                       "eagerflow_parallel": _tf_map(True, "eagerflow"),
                       "tensorflow": _tf_map(True, "tensorflow")},
             target=ratio_at_most(0.8, subject="eagerflow_parallel", baseline="eagerflow"), rtol=1e-3, atol=1e-2,
             description="48 x (384x384) float32, map(sum(tanh(x)*x)): num_parallel_calls=AUTOTUNE vs serial"),
    Workload(name="data/prefetch_overlap", setup=_setup_prefetch,
             variants={"numpy": _numpy_prefetch, "eagerflow": _tf_prefetch(False, "eagerflow"),
                       "eagerflow_prefetch": _tf_prefetch(True, "eagerflow"),
                       "tensorflow": _tf_prefetch(True, "tensorflow")},
             target=ratio_at_most(0.7, subject="eagerflow_prefetch", baseline="eagerflow"),
             description="24 elements, a 3 ms read (GIL released) and a 3 ms step: prefetch(2) vs none"),
]
