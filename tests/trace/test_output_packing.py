"""A traced function's outputs come back in the structure it returned (trace/output_structure.py,
output_packer): flat tuples, lists and dicts have their own fast packers; values must land on their own
keys, in the traced dict's key order, as nest.pack_sequence_as would build them."""
import numpy as np

import eagerflow as tf


def test_flat_dict_outputs_keep_keys_values_and_order():
    @tf.function
    def logs(x):
        return {"zeta": x + 1.0, "alpha": x * 2.0, "mid": x - 5.0, "Beta": -x}

    out = logs(tf.constant(3.0))
    assert list(out) == ["zeta", "alpha", "mid", "Beta"]
    assert {k: float(v) for k, v in out.items()} == {"zeta": 4.0, "alpha": 6.0, "mid": -2.0, "Beta": -3.0}
    again = logs(tf.constant(-1.0))  # the cached call's packer, not the tracing call's
    assert {k: float(v) for k, v in again.items()} == {"zeta": 0.0, "alpha": -2.0, "mid": -6.0, "Beta": 1.0}


def test_dict_with_unsortable_keys_and_nested_dicts():
    @tf.function
    def f(x):
        return {2: x * 2.0, "a": x + 1.0, 1: x * 10.0}

    out = f(tf.constant(1.5))
    assert list(out) == [2, "a", 1]
    assert [float(v) for v in out.values()] == [3.0, 2.5, 15.0]

    @tf.function
    def nested(x):
        return {"outer": {"b": x, "a": x * 3.0}, "c": [x + 1.0]}

    got = nested(tf.constant(2.0))
    assert float(got["outer"]["a"]) == 6.0 and float(got["outer"]["b"]) == 2.0
    np.testing.assert_array_equal([float(t) for t in got["c"]], [3.0])
