"""What Keras' fit/evaluate/predict and optimizers ask of tf.distribute (the hooks they call).

A model remembers the strategy whose scope it was made in (`model_strategy`). Its fit then runs
data-parallel across worker processes (`TrainingPlan`): each worker takes its piece of every
global batch, runs the step as its replica (the loss scaled by 1/num_replicas, as Keras does, and
the optimizer's update summing the gradients over the replicas: `apply_summed_over_replicas`), and
the logs are the global ones, shown by the chief only: every metric's state variables (totals,
counts, confusion counts) are summed over the workers, as Keras' sum-aggregated metric variables
are read across replicas, so loss, accuracy, AUC... are exactly what one process would report
for the global batches, however unevenly they split (`TrainingPlan.global_logs`).

MirroredStrategy's replicas on the one CPU train a Keras model on the whole global batch in one
step: the N replicas' 1/N-scaled gradients summed are that step's gradient (the batch splits
evenly), so this gives the same weights with no threads.
"""
from __future__ import annotations

import numpy as np

from ..core import nest
from . import context as _context
from .input import auto_shard_policy, local_pieces, split_batch
from .replica_context import ReplicaContext


def model_strategy():
    """The strategy a model made now belongs to: the one whose scope is entered, else None."""
    return _context.current_scope_strategy()


def _replica_count_for_update():
    context = _context.get_replica_context()
    if context is None or context.num_replicas_in_sync == 1:
        return 0
    return context.num_replicas_in_sync


def scale_loss_for_replicas(loss):
    """The loss divided by num_replicas_in_sync inside a replica of several, as Keras 3 scales it, so
    that the gradients summed over the replicas are the global batch's mean."""
    count = _replica_count_for_update()
    return loss if not count else loss * (1.0 / count)


def update_needs_all_reduce() -> bool:
    """Whether an optimizer update runs in a replica whose gradients must first be summed with the others'."""
    return bool(_replica_count_for_update())


def apply_summed_over_replicas(apply, grads, variables):
    """`apply(summed_grads, variables)` once, in the cross-replica context, with each gradient summed
    over every replica (TensorFlow's optimizer update under a strategy)."""
    context = _context.get_replica_context()
    present = [i for i, g in enumerate(grads) if g is not None]

    def merged(strategy, *per_replica):
        summed = strategy.extended.batch_all_reduce("SUM", list(per_replica))
        return apply(summed, [variables[i] for i in present])

    return context.merge_call(merged, args=tuple(grads[i] for i in present))


class TrainingPlan:
    """How one fit/evaluate/predict call runs under the model's strategy (see the module docstring)."""

    def __init__(self, model):
        self.strategy = getattr(model, "_distribute_strategy", None) or _context.get_strategy()
        ext = self.strategy.extended
        self.workers = ext._num_workers
        self.index = ext._worker_index
        self.is_chief = getattr(ext, "_is_chief", True)
        self._replica = ReplicaContext(self.strategy, self.index) if self.workers > 1 else None

    def scope(self):
        return self.strategy.scope()

    def shown_verbosity(self, verbose):
        return verbose if self.is_chief else 0

    def local_batches(self, batches):
        """This worker's piece of each global batch (or its share of a dataset, by its shard policy)."""
        if self.workers == 1:
            return batches
        return _LocalBatches(batches, self.workers, self.index, self.strategy)

    def run_step(self, step_fn, data):
        if self._replica is None:
            return step_fn(data)
        with _context.replica_state(self._replica):
            return step_fn(data)

    def global_logs(self, model, logs: dict) -> dict:
        """A step's logs as floats, for the global batches: when they are the model's metric results
        (the usual train/test step), each metric's result from its state summed over the workers;
        other logs (a custom step's) averaged over the workers, as Keras does for those."""
        logs = float_logs(logs)
        if self.workers == 1 or not logs:
            return logs
        metrics = _all_metrics(model)
        if metrics:  # every worker has the same metrics, so all take the same path
            results = self._summed_metric_results(model, metrics)
            if set(results) == set(logs):
                return results
        names = sorted(logs)
        values = np.array([logs[k] for k in names], np.float64)
        summed = self.strategy.extended._communicator.sum_arrays([values])[0] / self.workers
        return {k: float(v) for k, v in zip(names, summed)}

    def _summed_metric_results(self, model, metrics):
        """The metrics' results with every state variable holding its sum over the workers (one packed
        all-reduce), each variable given back its own value afterwards (the epoch goes on from there).
        Done as this worker's replica: the state is on-read, so there a variable reads and writes this
        worker's own part (outside, each read would be an all-reduce of its own)."""
        variables = [v for m in metrics for v in m.variables]
        with _context.replica_state(self._replica):
            local = [np.array(v.numpy()) for v in variables]
            summed = self.strategy.extended._communicator.sum_arrays(local)
            try:
                for v, total in zip(variables, summed):
                    v.assign(total)
                return float_logs(_metric_results(model))
            finally:
                for v, own in zip(variables, local):
                    v.assign(own)

    def global_outputs(self, outputs):
        """predict's outputs for this worker's piece of a batch, joined with the other workers' pieces."""
        if self.workers == 1:
            return outputs
        comm = self.strategy.extended._communicator
        return nest.map_structure(lambda a: comm.gather_arrays(np.asarray(a), 0), outputs)


def float_logs(logs):
    """Logs as Python floats, sorted by name (as Keras records them)."""
    return {k: float(np.asarray(logs[k])) for k in sorted(logs)}


def _all_metrics(model):
    """Every metric whose state makes the logs: the model's, and each output's under several outputs."""
    metrics = list(getattr(model, "metrics", []))
    per_output = getattr(model, "_output_metrics", None)
    if per_output is not None:
        metrics += per_output.all_plain + per_output.all_weighted
    return metrics


def _metric_results(model):
    getter = getattr(model, "get_metrics_result", None)
    return getter() if getter is not None else {}


class _LocalBatches:
    def __init__(self, batches, workers, index, strategy):
        self._batches, self._workers, self._index, self._strategy = batches, workers, index, strategy
        self.steps = getattr(batches, "steps", None)
        dataset = getattr(batches, "dataset", None)
        self._off = dataset is not None and auto_shard_policy(dataset).name == "OFF"
        if self._off and self.steps is not None:
            self.steps *= workers

    def __iter__(self):
        batches = self._batches
        if getattr(batches, "shuffle", False) and hasattr(batches, "num_samples"):
            batches = _same_shuffle(batches, self._strategy.extended._communicator)
        for data in batches:
            if self._off:
                yield from split_batch(data, self._workers)
            else:
                yield local_pieces(data, self._workers, self._index, 1)[0]


def _same_shuffle(batches, communicator):
    """Array batches shuffled by the chief's permutation on every worker (each worker's own would split
    different samples into the global batches)."""
    import copy
    permutation = communicator.broadcast_array(np.random.permutation(batches.num_samples).astype(np.int64))
    shuffled = copy.copy(batches)
    shuffled.shuffle = False
    take = (lambda v: None if v is None else nest.map_structure(lambda a: a[permutation], v))
    shuffled.x, shuffled.y, shuffled.sample_weight = take(batches.x), take(batches.y), take(batches.sample_weight)
    return shuffled

