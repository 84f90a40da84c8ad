"""`tf.linalg.experimental`."""


def __getattr__(name):  # control_flow/conjugate_gradient.py loads on first use, not at `import eagerflow`
    if name == "conjugate_gradient":
        from ..control_flow.conjugate_gradient import conjugate_gradient
        globals()[name] = conjugate_gradient
        return conjugate_gradient
    raise AttributeError(f"module 'tf.linalg.experimental' has no attribute {name!r}")


def __dir__():
    return ["conjugate_gradient"]
