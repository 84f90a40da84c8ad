"""A second user module, reached from shapes.py (conversion follows calls from module to module)."""


def twice_or_negate(x):
    if x > 0:
        return x * 2.0
    return -x


def absolute(x):
    if x > 0:
        return x
    return -x
