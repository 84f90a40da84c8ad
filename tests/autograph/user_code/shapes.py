"""Functions, methods, callables and containers of them, each with a Python `if` on its argument:
under tf.function it works only when AutoGraph converts it (a cond in the graph)."""
import functools

from . import more


def helper(x):
    if x > 0:
        return x * 2.0
    return -x


def scaled(x, scale=1.0):
    if x > 0:
        return x * scale
    return x - scale


def through_module(x):
    return more.twice_or_negate(x)


class Shape:
    def __init__(self, k=3.0):
        self.k = k

    def method(self, x):
        if x > 0:
            return x * self.k
        return x / self.k

    def calls_own_method(self, x):
        return self.method(x) + 1.0

    @staticmethod
    def static(x):
        if x > 0:
            return x + 10.0
        return x - 10.0

    @classmethod
    def klass(cls, x):
        if x > 0:
            return x + 20.0
        return x - 20.0

    def __call__(self, x):
        if x > 0:
            return x + 100.0
        return x - 100.0


class Derived(Shape):
    def method(self, x):
        return super().method(x) + 0.5


class Checked:
    """A constructor with a Python `if`: classes are called as they are, as in TensorFlow."""

    def __init__(self, x):
        if x > 0:
            self.value = x
        else:
            self.value = -x


SHAPE = Shape()
TABLE = {"helper": helper, "static": Shape.static}
LISTED = [helper, scaled]
PARTIAL = functools.partial(scaled, scale=4.0)
LAMBDA = lambda x: helper(x) + 1.0  # noqa: E731
TERNARY = lambda x: x * 3.0 if x > 0 else x * 5.0  # noqa: E731


def make():
    def inner(x):
        if x > 0:
            return x + 0.25
        return x - 0.25
    return inner
