"""fit's training step with jit_compile=True across several workers: two XLA-compiled halves with
the all-reduce between them.

An XLA program cannot call MPI, so the default train_step is split where the gradients are ready:
`gradients` (forward pass, loss scaled by 1/num_replicas, backward pass) and `update` (the optimizer
step and the metrics) each keep their XLA compilation, and the gradients are summed over the workers
between the two calls, outside XLA. A model that overrides train_step keeps its own step, compiled
without XLA when it all-reduces (a `numpy_function` op XLA refuses).
"""
from __future__ import annotations

from ..._src.autodiff.tape import GradientTape
from ..._src.distribute.context import cross_replica_state
from ..._src.distribute.keras_support import scale_loss_for_replicas
from ..._src.trace.function import function


def wanted(model) -> bool:
    """Whether `model`'s fit step should be split: XLA asked for, several workers, Keras' own train_step."""
    from .training import Trainer
    strategy = getattr(model, "_distribute_strategy", None)
    return bool(model.jit_compile and strategy is not None and strategy.extended._num_workers > 1
                and type(model).train_step is Trainer.train_step)


def split_train_step(model):
    from .training import unpack_data

    def gradients(data):
        x, y, sample_weight = unpack_data(data)
        with GradientTape() as tape:
            y_pred = model(x, training=True)
            loss = model._compute_loss(x, y, y_pred, sample_weight, training=True)
            scaled_loss = model.optimizer.scale_loss(scale_loss_for_replicas(loss))
        return loss, y_pred, tape.gradient(scaled_loss, model.trainable_variables)

    def update(data, loss, y_pred, grads):
        x, y, sample_weight = unpack_data(data)
        with cross_replica_state():  # the sum is done: the optimizer applies it once, as it is
            model.optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return model.compute_metrics(x, y, y_pred, sample_weight, loss)  # this worker's own (on-read) state

    compiled_gradients = function(gradients, reduce_retracing=True, jit_compile=True)
    compiled_update = function(update, reduce_retracing=True, jit_compile=True)

    def step(data):
        loss, y_pred, grads = compiled_gradients(data)
        present = [i for i, g in enumerate(grads) if g is not None]
        summed = model._distribute_strategy.extended.batch_all_reduce("SUM", [grads[i] for i in present])
        grads = list(grads)
        for i, g in zip(present, summed):
            grads[i] = g
        return compiled_update(data, loss, y_pred, grads)

    step.python_function = gradients  # fit builds the model and optimizer before the first compiled call
    step.compiled_halves = (compiled_gradients, compiled_update)
    return step
