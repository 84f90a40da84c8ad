"""Calling a ConcreteFunction where its generated code cannot be used directly.

Under a recording GradientTape, or while another function is being traced, the call replays the
graph op by op through `bind` (graph/evaluate.py): the tape then records the function's ops, so the
gradient of a compiled model is available to eager code, and nested functions are inlined.
"""
from ..graph.evaluate import evaluate


def call_in_context(concrete_function, tensors):
    return evaluate(concrete_function.graph, tensors, concrete_function.structured_outputs)
