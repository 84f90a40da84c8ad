"""autograph/source.py: a function's source lines are exactly what `inspect.getsourcelines` gives,
found from indentation when that is unambiguous (no tokenizer), and through `inspect` otherwise."""
import functools
import inspect

import pytest

from eagerflow._src.autograph import source


def _decorator(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper


def plain(x):
    y = x + 1
    # a comment inside
    return y
# a comment at column 0 after it


@_decorator
@functools.lru_cache(
    maxsize=None)
def decorated(x):
    return x


def signature_closing_at_column_0(
    x,
    y,
):
    return x + y


def string_at_column_0(x):
    text = """
not code
"""
    return x, text


def continued(x):
    y = x + \
1
    return y


def one_liner(x): return x * 2


def nested(x):
    def inner(y):
        return y + 1

    return inner(x)


def trailing_comment(x):
    return x
    # still inside: as deep as the body


async def coroutine(x):
    return x


class Holder:
    def method(self, x):
        if x:
            return 1
        return 2


FUNCTIONS = [plain, decorated, signature_closing_at_column_0, string_at_column_0, continued, one_liner,
             nested, trailing_comment, coroutine, Holder.method, Holder().method, inspect.getsourcelines]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: f.__qualname__)
def test_same_lines_as_inspect(fn):
    assert source.getsourcelines(fn) == inspect.getsourcelines(fn)


@pytest.mark.parametrize("fn", [plain, decorated, one_liner, nested, trailing_comment, Holder.method],
                         ids=lambda f: f.__qualname__)
def test_ordinary_functions_need_no_tokenizer(fn, monkeypatch):
    expected = inspect.getsourcelines(fn)

    def no_tokenizer(*args, **kwargs):
        raise AssertionError("inspect's tokenizer-based block finder was used")
    monkeypatch.setattr(inspect, "getblock", no_tokenizer)
    assert source.getsourcelines(fn) == expected


def test_ambiguous_layouts_go_to_inspect(monkeypatch):
    used = []
    real = inspect.getsourcelines
    monkeypatch.setattr(inspect, "getsourcelines", lambda fn: used.append(fn) or real(fn))
    for fn in (signature_closing_at_column_0, string_at_column_0, continued):
        source.getsourcelines(fn)
    assert used == [signature_closing_at_column_0, string_at_column_0, continued]


def test_no_source_raises_what_inspect_raises():
    namespace = {}
    exec("def made(x):\n    return x\n", namespace)
    with pytest.raises(OSError):
        source.getsourcelines(namespace["made"])
