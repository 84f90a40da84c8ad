"""A traced graph's run-time failures carry the op's TensorFlow message, as eager execution does
(one translation, ops/validation.py `kernel_error`), plus the node and the user's line.

Expected texts are TensorFlow 2.21's: for `a + b` traced with unknown sizes and called on [2] and [3],
TensorFlow raises InvalidArgumentError "Graph execution error:\\n\\nDetected at node add defined at (most recent
call last):\\n  File ...\\n\\nIncompatible shapes: [2] vs. [3]\\n\\t [[{{node add}}]] [Op:__inference_f_12]".
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import eagerflow as tf

IAE = tf.errors.InvalidArgumentError


def _add(a, b):
    return a + b


def _matmul(a, b):
    return tf.matmul(a, b)


def _gather(a, i):
    return tf.gather(a, i)


CASES = [  # (fn, specs, args, TensorFlow's message, node)
    (_add, [tf.TensorSpec([None]), tf.TensorSpec([None])], ([1.0, 2.0], [1.0, 2.0, 3.0]),
     "Incompatible shapes: [2] vs. [3]", "add"),
    (_matmul, [tf.TensorSpec([None, None]), tf.TensorSpec([None, None])], (np.ones([2, 3], np.float32),
                                                                          np.ones([2, 3], np.float32)),
     "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]", "MatMul"),
    (_gather, [tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32)], ([1.0, 2.0], np.array([5], np.int32)),
     "indices[0] = 5 is not in [0, 2)", "GatherV2"),
]


@pytest.mark.parametrize("fn,specs,args,message,node", CASES, ids=[c[-1] for c in CASES])
def test_run_time_error_of_a_traced_graph_uses_the_ops_tensorflow_message(fn, specs, args, message, node):
    tensors = [tf.constant(a) for a in args]
    with pytest.raises(IAE) as eager:
        fn(*tensors)
    assert eager.value.message == f"{message} [Op:{'AddV2' if node == 'add' else node}]"
    traced = tf.function(fn, input_signature=specs)
    with pytest.raises(IAE) as info:
        traced(*tensors)
    text = info.value.message
    # TensorFlow 2.21's layout: "Graph execution error:", the node's creation frames, the kernel's message, the node
    assert text.startswith(f"Graph execution error:\n\nDetected at node {node} defined at (most recent call last):\n")
    assert f"\n\n{message}\n\t [[{{{{node {node}}}}}]]" in text, text
    assert "could not be broadcast" not in text and "mismatch in its core dimension" not in text
    line = fn.__code__.co_firstlineno + 1
    assert re.search(rf'File ".*test_runtime_errors.py", line {line}', text), text
