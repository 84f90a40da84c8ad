"""The user-facing AutoGraph tools (exported as `tf.autograph`): to_code, to_graph,
do_not_convert, set_verbosity, set_loop_options, Feature."""
from __future__ import annotations

import enum
import functools
import logging

from . import transform


def to_code(entity, recursive=True, experimental_optional_features=None):
    """The converted source of `entity` (a function, method or tf.function), as a string."""
    return transform.to_source(entity) + "\n"


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """`entity` converted: a function that runs tensor `if`/`while`/`for` as TensorFlow ops."""
    fn = getattr(entity, "python_function", entity)
    converted = transform.convert_function(fn)
    return converted


def do_not_convert(func=None):
    """Marks `func` to run as written under tf.function (no AutoGraph conversion)."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    setattr(wrapper, transform.DO_NOT_CONVERT, True)
    return wrapper


def set_verbosity(level, alsologtostdout=False):
    """How much AutoGraph reports: 0 only warnings (functions left unconverted), >= 1 also each
    construct left as Python and why."""
    transform.verbosity = int(level)
    log = logging.getLogger("eagerflow._src.autograph")
    log.setLevel(logging.INFO if level > 0 else logging.WARNING)
    if alsologtostdout and not any(getattr(h, "_ag_stdout", False) for h in log.handlers):
        import sys
        handler = logging.StreamHandler(sys.stdout)
        handler._ag_stdout = True
        log.addHandler(handler)


class Feature(enum.Enum):
    """TensorFlow's optional conversion features (`tf.autograph.experimental.Feature`), accepted by
    `tf.function(experimental_autograph_options=...)` and `to_graph`/`to_code`.

    Our conversion always does what they switch on in TensorFlow (list idioms, builtins applied to
    tensors, `assert` on a tensor as a run-time check), so they select nothing here; they exist so
    TensorFlow programs that name them run unchanged."""

    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"

    @classmethod
    def all(cls):
        """Every feature, as a tuple (ALL included, as in TensorFlow)."""
        return tuple(cls)

    @classmethod
    def all_but(cls, exclude):
        """Every feature except ALL and those in `exclude` (one Feature or several)."""
        if not isinstance(exclude, (list, tuple, set)):
            exclude = (exclude,)
        return tuple(f for f in cls if f is not cls.ALL and f not in exclude)


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options for the enclosing loop; the loops converter lifts this call out of the loop body,
    so on its own (unconverted code) it does nothing, as in TensorFlow."""
    return None


def converted(f):
    return transform.convert_function(f)
