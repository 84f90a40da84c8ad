"""The program `python -m bench.distribute` runs under mpiexec: `fit STEPS` or `allreduce MEGABYTES`.
The chief prints one JSON line with its measurement."""
from __future__ import annotations

import json
import sys
import time

import numpy as np


def fit(steps):
    import eagerflow as tf
    from eagerflow import keras
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    batch = 256
    rng = np.random.default_rng(0)
    x = rng.random((batch * (steps + 3), 28, 28, 1), dtype=np.float32)
    y = rng.integers(0, 10, len(x))
    with strategy.scope():
        model = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(32, 3, activation="relu"),
                                  keras.layers.MaxPooling2D(), keras.layers.Conv2D(64, 3, activation="relu"),
                                  keras.layers.MaxPooling2D(), keras.layers.Flatten(), keras.layers.Dense(10)])
        model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x[:batch * 3], y[:batch * 3], batch_size=batch, epochs=1, verbose=0, shuffle=False)  # traces, warms up
    in_collectives = _time_collectives(strategy)
    step_starts = _time_steps(model)
    start, cpu_start = time.perf_counter(), time.process_time()
    model.fit(x[batch * 3:], y[batch * 3:], batch_size=batch, epochs=1, verbose=0, shuffle=False)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    step_seconds = np.diff(step_starts + [time.perf_counter()])
    slowest_cpu = _max_over_workers(cpu_seconds)
    return strategy, {"samples_per_s": batch * steps / seconds, "collective_share": in_collectives[0] / seconds,
                      "median_step_samples_per_s": batch / float(np.median(step_seconds)),
                      "cpu_samples_per_s": batch * steps / slowest_cpu, "blas_threads": _blas_threads()}


def _max_over_workers(value):
    """The largest of the workers' values (the slowest worker sets the pace of a synchronous step)."""
    from mpi4py import MPI
    return MPI.COMM_WORLD.allreduce(value, op=MPI.MAX)


def _blas_threads():
    """The BLAS thread count this worker runs with (None without threadpoolctl): the variables the
    bench sets before NumPy loads are what decides it."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    return max((pool["num_threads"] for pool in threadpool_info() if pool.get("user_api") == "blas"), default=None)


def _time_steps(model):
    """Notes when each training step starts: the median step (from one start to the next, the input's
    slicing included) is not moved by a few steps that other work on the machine slowed down."""
    starts = []
    step = model._step_functions["train"]

    def timed(data):
        starts.append(time.perf_counter())
        return step(data)

    model._step_functions["train"] = timed
    return starts


def _time_collectives(strategy):
    """Wraps the strategy's all-reduce to add up the seconds spent in it (waiting for the other
    workers included): how much a step could gain from overlapping it with computation."""
    communicator = strategy.extended._communicator
    total = [0.0]
    sum_arrays = communicator.sum_arrays

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return sum_arrays(*args, **kwargs)
        finally:
            total[0] += time.perf_counter() - start

    communicator.sum_arrays = timed
    return total


def allreduce(megabytes, repeats=5):
    import eagerflow as tf
    from mpi4py import MPI
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    comm = MPI.COMM_WORLD
    values = np.ones(megabytes * 1024 * 1024 // 4, np.float32)
    tensor = tf.constant(values)
    ext = strategy.extended

    def best(call):
        times = []
        for _ in range(repeats):
            comm.Barrier()
            start = time.perf_counter()
            call()
            times.append(time.perf_counter() - start)
        return min(times)

    buffer = values.copy()
    direct = best(lambda: comm.Allreduce(MPI.IN_PLACE, buffer, op=MPI.SUM))
    through_strategy = best(lambda: ext.batch_all_reduce("SUM", [tensor]))
    size_gb = values.nbytes / 1e9
    return strategy, {"mpi4py_gb_s": size_gb / direct, "strategy_gb_s": size_gb / through_strategy}


if __name__ == "__main__":
    kind, amount = sys.argv[1], int(sys.argv[2])
    strategy, result = (fit if kind == "fit" else allreduce)(amount)
    if strategy.extended.should_checkpoint:
        print(json.dumps(result), flush=True)
