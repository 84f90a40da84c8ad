"""Identity forwarding: an `Identity` (or `StopGradient`) output is replaced by its input.

Graph outputs pass through Identity in TensorFlow's graphs; at run time they are plain aliases.
"""


def forward_identities(program):
    for op in program.ops:
        if op.type in ("Identity", "StopGradient"):
            program.subst[id(op.outputs[0])] = program.resolve(op.inputs[0])
