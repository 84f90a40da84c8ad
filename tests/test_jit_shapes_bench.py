"""bench/jit_shapes.py on a small run: the lengths it draws, and its counts for eagerflow (each length
traced and compiled once, as TensorFlow does; with a bound of 64 and 70 lengths, evictions recompile)."""
import pytest

from bench import jit_shapes

pytest.importorskip("jax")


def test_lengths_have_the_distinct_count_asked():
    values = jit_shapes.lengths(2000, 478)
    assert len(values) == 2000 and set(values) == set(range(1, 479))


def test_small_run_counts_traces_and_compiles():
    row = jit_shapes.run_variant("eagerflow", 12, 5)
    assert (row["traces"], row["compiles"]) == (5, 5)
    relaxed = jit_shapes.run_variant("eagerflow-relaxed", 12, 5)
    assert (relaxed["traces"], relaxed["compiles"]) == (2, 5)
