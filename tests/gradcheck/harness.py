"""Finite-difference gradient checking, shared by every op family's table of rows.

A row names a function of eagerflow tensors and the shapes (and value domain) of its float64
inputs. `check_row` compares the tape's gradient of `sum(fn(*xs) * w)` (a fixed random weight `w`,
so every output element matters) with central differences of the same scalar computed with NumPy
through the forward op, in float64. With `order=2` it also checks the gradient of the gradient
(nested tapes) against finite differences of the first-order gradient, and with `order=3` the
gradient of that against finite differences of the second-order one.

`ops_recorded(row)` returns the op types the row actually exercises; the coverage test uses it to
fail when a differentiable op has no row, or when a gradient rule is removed.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import numpy as np

import eagerflow as tf


@dataclasses.dataclass
class GradRow:
    name: str
    fn: Callable
    shapes: Sequence[tuple]
    low: float = -2.0
    high: float = 2.0
    order: int = 1
    rtol: float = 1e-5
    atol: float = 1e-6
    # Custom input maker: rng -> list of float64 arrays (for domains such as "distinct values").
    make: Callable | None = None

    def __str__(self):
        return self.name


def make_inputs(row: GradRow, seed: int = 0):
    rng = np.random.default_rng(seed)
    if row.make is not None:
        return [np.asarray(a, dtype=np.float64) for a in row.make(rng)]
    return [rng.uniform(row.low, row.high, size=s).astype(np.float64) for s in row.shapes]


def _scalar(fn, arrays, weight):
    out = fn(*[tf.constant(a) for a in arrays])
    return float(np.sum(np.asarray(out.numpy(), dtype=np.float64) * weight))


def numeric_grad(fn, arrays, weight, eps=1e-6):
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros_like(a)
        flat = g.reshape(-1)
        for j in range(a.size):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[i].reshape(-1)[j] += eps
            minus[i].reshape(-1)[j] -= eps
            flat[j] = (_scalar(fn, plus, weight) - _scalar(fn, minus, weight)) / (2 * eps)
        grads.append(g)
    return grads


def tape_grad(fn, arrays, weight):
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
        loss = tf.reduce_sum(y * tf.constant(weight))
    grads = tape.gradient(loss, xs)
    # a gather gives an IndexedSlices (as TensorFlow): its dense form is what finite differences measure
    return [None if g is None else np.asarray(tf.convert_to_tensor(g).numpy(), dtype=np.float64) for g in grads]


def check_row(row: GradRow, seed: int = 0):
    arrays = make_inputs(row, seed)
    out = row.fn(*[tf.constant(a) for a in arrays])
    assert out.dtype == tf.float64, f"{row.name}: float64 inputs gave {out.dtype}"
    weight = np.random.default_rng(seed + 1).uniform(0.5, 1.5, size=out.shape.as_list())
    analytic = tape_grad(row.fn, arrays, weight)
    numeric = numeric_grad(row.fn, arrays, weight)
    for i, (a, n) in enumerate(zip(analytic, numeric)):
        assert a is not None, f"{row.name}: no gradient for input {i}"
        np.testing.assert_allclose(a, n, rtol=row.rtol, atol=row.atol,
                                   err_msg=f"{row.name}: gradient of input {i}")
    if row.order >= 2:
        check_second_order(row, arrays, weight)
    if row.order >= 3:
        check_third_order(row, arrays, weight)


def _gradient_dot(fn, seed):
    """xs -> sum over inputs of sum(d fn(xs)/d x_i * v_i), the v_i fixed random weights: a scalar
    whose gradient is the next order's (fn a scalar function of the inputs)."""
    def dot(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = fn(*xs)
        gs = tape.gradient(y, list(xs))
        total = tf.constant(0.0, dtype=tf.float64)
        for i, (g, x) in enumerate(zip(gs, xs)):
            if g is not None:
                v = np.random.default_rng(seed + i).uniform(0.5, 1.5, size=x.shape.as_list())
                total = total + tf.reduce_sum(g * tf.constant(v))
        return total
    return dot


def _check_order(row: GradRow, arrays, scalar_fn, label, eps, rtol, atol):
    """The tape's gradient of `scalar_fn` against its central differences."""
    xs = [tf.constant(a) for a in arrays]
    with tf.GradientTape() as outer:
        for x in xs:
            outer.watch(x)
        s = scalar_fn(*xs)
    analytic = outer.gradient(s, xs)
    numeric = numeric_grad(scalar_fn, arrays, np.float64(1.0), eps=eps)
    for i, (a, n) in enumerate(zip(analytic, numeric)):
        a = np.zeros_like(n) if a is None else a.numpy()
        np.testing.assert_allclose(a, n, rtol=rtol, atol=atol, err_msg=f"{row.name}: {label}, input {i}")


def _loss(row: GradRow, weight):
    return lambda *xs: tf.reduce_sum(row.fn(*xs) * tf.constant(weight))


def check_second_order(row: GradRow, arrays, weight):
    """d/dx of sum(grad(x) * v): nested tapes against differences of the first-order gradient."""
    _check_order(row, arrays, _gradient_dot(_loss(row, weight), 7), "second-order", 1e-5, 1e-4, 1e-5)


def check_third_order(row: GradRow, arrays, weight):
    """d/dx of sum(grad(sum(grad(x) * v)) * u): three nested tapes against differences of the
    second-order gradient."""
    second_order_dot = _gradient_dot(_gradient_dot(_loss(row, weight), 7), 17)
    _check_order(row, arrays, second_order_dot, "third-order", 1e-4, 1e-3, 1e-4)


def ops_recorded(row: GradRow) -> set:
    """The op types a tape records while the row runs on watched inputs; for `order >= 2` rows also
    the ops of the first-order gradient computation, and for `order >= 3` those of the second-order
    one (so gradient-only ops count as exercised)."""
    xs = [tf.constant(a) for a in make_inputs(row)]
    fn = lambda *xs: tf.reduce_sum(row.fn(*xs))  # noqa: E731
    if row.order >= 3:  # the first-order gradient's dot: the outer tape records its gradient
        fn = _gradient_dot(fn, 7)
    with tf.GradientTape() as outer:
        for x in xs:
            outer.watch(x)
        with tf.GradientTape() as inner:
            for x in xs:
                inner.watch(x)
            y = fn(*xs)
        if row.order >= 2:
            inner.gradient(y, xs)
    names = set()
    for rec in outer._records:
        names.add(rec.opdef.name)
        f = rec.attrs.get("f") if isinstance(rec.attrs, dict) else None
        if f is not None:  # a call of a traced function: count the ops its graph runs too
            names |= _graph_op_types(f.graph)
    return names


def _graph_op_types(graph):
    """Op types in a graph and in the branch and loop-body sub-graphs of its control-flow ops."""
    names = set()
    for op in graph.get_operations():
        names.add(op.type)
        for value in op.attrs.values():
            sub = getattr(value, "graph", None)
            if sub is not None and sub is not graph and hasattr(sub, "get_operations"):
                names |= _graph_op_types(sub)
    return names
