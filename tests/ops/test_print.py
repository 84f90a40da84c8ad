"""tf.print and tf.strings.format: the expected texts are what TensorFlow 2.21 printed for the
same calls (recorded as literals)."""
import collections
import sys

import numpy as np
import pytest

import eagerflow as tf
from eagerflow._src.ops.io.printing import print_, string_format, summarize_array


def printed(capsys, *inputs, **kwargs):
    print_(*inputs, **kwargs)
    out = capsys.readouterr()
    return out.err


CASES = [
    (("x:", tf.constant([1, 2, 3])), {}, "x: [1 2 3]\n"),
    ((tf.constant([1., 2.5]),), {}, "[1 2.5]\n"),
    ((tf.constant(2.5),), {}, "2.5\n"),
    ((tf.constant(1.0),), {}, "1\n"),
    ((tf.constant(1e-8),), {}, "1e-08\n"),
    ((tf.constant(123456789.0),), {}, "123456792\n"),
    ((tf.constant(np.float64(0.1)),), {}, "0.1\n"),
    ((tf.constant([0.1, 1e10, -3.25, 1e-5]),), {}, "[0.1 1e+10 -3.25 1e-05]\n"),
    ((tf.constant(np.array([1 / 3, 2 / 3])),), {}, "[0.33333333333333331 0.66666666666666663]\n"),
    ((tf.constant([np.nan, np.inf, -np.inf, 0.]),), {}, "[nan inf -inf 0]\n"),
    ((tf.constant([-0.0, -np.nan, 3.4e38]),), {}, "[-0 -nan 3.4e+38]\n"),
    ((tf.constant([16777217.0, 1.0000001, 100000.0, 1000000.0, 0.0001, 0.00001]),), {},
     "[16777216 1.00000012 100000 1e+06 0.0001 1e-05]\n"),
    ((tf.constant(np.array([100000.0, 1e15, 1e16, 0.1 + 0.2])),), {}, "[100000 1e+15 1e+16 0.30000000000000004]\n"),
    ((tf.constant(np.array([0.1, 1.5], np.float16)),), {}, "[0.0999755859 1.5]\n"),
    ((tf.constant([True, False]),), {}, "[1 0]\n"),
    ((tf.constant(True),), {}, "1\n"),
    ((tf.constant(["a", "bc"]),), {}, '["a" "bc"]\n'),
    ((tf.constant("hi"),), {}, "hi\n"),
    (("a", tf.constant("hi")), {}, 'a "hi"\n'),
    (("plain str",), {}, "plain str\n"),
    ((tf.constant([["a b", "c"]]),), {}, '[["a b" "c"]]\n'),
    ((tf.constant(["a\"b", "c\nd", "é", "\x01", "t\tq'", "back\\"]),), {},
     '["a\\"b" "c\\nd" "é" "\\001" "t\\tq\\\'" "back\\\\"]\n'),
    (([tf.constant(1), "s", tf.constant([1, 2])],), {}, "[1, 's', [1 2]]\n"),
    (({"b": tf.constant(2), "a": tf.constant([1.5])},), {}, "{'a': [1.5], 'b': 2}\n"),
    (({"b": 1, "a": 2},), {}, "{'a': 2, 'b': 1}\n"),
    (((1, 2.5, None, True),), {}, "(1, 2.5, None, True)\n"),
    (([tf.constant("hi"), "x"],), {}, "[\"hi\", 'x']\n"),
    (((tf.constant(1), tf.constant([2., 3.])),), {}, "(1, [2 3])\n"),
    (((tf.constant(1),),), {}, "(1,)\n"),
    (([],), {}, "[]\n"),
    ((np.array([1, 2]),), {}, "array([1, 2])\n"),
    (([b"bytes"],), {}, "[b'bytes']\n"),
    ((3.0,), {}, "3.0\n"),
    (([3.0, tf.constant(3.0)],), {}, "[3.0, 3]\n"),
    (({1, 2},), {}, "{1, 2}\n"),
    ((), {}, "\n"),
    ((None,), {}, "None\n"),
    ((tf.constant([[1, 2], [3, 4]]),), {}, "[[1 2]\n [3 4]]\n"),
    ((tf.reshape(tf.constant(np.arange(12, dtype=np.int32)), (2, 2, 3)),), {},
     "[[[0 1 2]\n  [3 4 5]]\n\n [[6 7 8]\n  [9 10 11]]]\n"),
    ((tf.reshape(tf.constant(np.arange(16, dtype=np.int32)), (2, 2, 2, 2)),), {},
     "[[[[0 1]\n   [2 3]]\n\n  [[4 5]\n   [6 7]]]\n\n\n [[[8 9]\n   [10 11]]\n\n  [[12 13]\n   [14 15]]]]\n"),
    ((tf.constant(np.arange(10, dtype=np.int32)),), {}, "[0 1 2 ... 7 8 9]\n"),
    ((tf.constant(np.arange(10, dtype=np.int32)),), {"summarize": 2}, "[0 1 ... 8 9]\n"),
    ((tf.constant(np.arange(10, dtype=np.int32)),), {"summarize": -1}, "[0 1 2 3 4 5 6 7 8 9]\n"),
    ((tf.constant(np.arange(7, dtype=np.int32)),), {"summarize": 3}, "[0 1 2 ... 4 5 6]\n"),
    ((tf.constant(np.arange(6, dtype=np.int32)),), {"summarize": 3}, "[0 1 2 3 4 5]\n"),
    ((tf.constant(np.arange(10, dtype=np.int32)),), {"summarize": None}, "[0 1 2 ... 7 8 9]\n"),
    ((tf.constant(np.arange(100, dtype=np.int32).reshape(10, 10)),), {},
     "[[0 1 2 ... 7 8 9]\n [10 11 12 ... 17 18 19]\n [20 21 22 ... 27 28 29]\n ...\n"
     " [70 71 72 ... 77 78 79]\n [80 81 82 ... 87 88 89]\n [90 91 92 ... 97 98 99]]\n"),
    ((tf.constant(np.arange(27, dtype=np.int32).reshape(3, 3, 3)),), {"summarize": 1},
     "[[[0 ... 2]\n  ...\n  [6 ... 8]]\n\n ...\n\n [[18 ... 20]\n  ...\n  [24 ... 26]]]\n"),
    ((tf.constant(5),), {"summarize": 0}, "...\n"),
    ((tf.constant(np.arange(4, dtype=np.int32)),), {"summarize": 0}, "[ ...]\n"),
    ((tf.shape(tf.zeros((1, 100, 100, 3))),), {}, "[1 100 100 3]\n"),
    (("a", 1), {"sep": ",", "end": "!\n"}, "a,1!\n"),
    (("a", tf.constant(1)), {"sep": ""}, "a1\n"),
    ((tf.constant(np.zeros(0, np.float32)),), {}, "[]\n"),
    ((tf.zeros((2, 0)),), {}, "[\n ...]\n"),
    ((tf.zeros((0, 2)),), {}, "[]\n"),
    ((tf.zeros((2, 0, 3)),), {}, "[\n\n ...]\n"),
    ((tf.constant(np.array([-1, 200], np.int64)),), {}, "[-1 200]\n"),
    ((tf.constant(np.array([1, 2], np.uint8)),), {}, "[1 2]\n"),
    ((tf.constant(np.array([2 ** 63], np.uint64)),), {}, "[9223372036854775808]\n"),
    ((tf.constant([1 + 2j]),), {}, "[?]\n"),
    ((tf.Variable([1., 2.]),), {}, "[1 2]\n"),
    (("{}", tf.constant(1)), {}, "{} 1\n"),
    (("%s", tf.constant(1)), {}, "%s 1\n"),
    (("{{}}",), {}, "{{}}\n"),
    (("{", "}", tf.constant(7)), {"sep": ""}, "{}7\n"),
    (("multi", tf.constant(np.arange(3, dtype=np.int32)), tf.constant(np.arange(3, dtype=np.int32)), "z"), {},
     "multi [0 1 2] [0 1 2] z\n"),
]


@pytest.mark.parametrize("inputs,kwargs,expected", CASES, ids=[repr(c[2])[:40] for c in CASES])
def test_print_matches_tensorflow(capsys, inputs, kwargs, expected):
    assert printed(capsys, *inputs, **kwargs) == expected


def test_namedtuple_and_ordered_dict(capsys):
    P = collections.namedtuple("P", "a b")
    assert printed(capsys, P(1, tf.constant([1, 2]))) == "P(a=1, b=[1 2])\n"
    od = collections.OrderedDict([("b", 1), ("a", tf.constant(2))])
    assert printed(capsys, od) == "OrderedDict([('b', 1), ('a', 2)])\n"


def test_object_uses_repr(capsys):
    class C:
        def __str__(self):
            return "STR"

        def __repr__(self):
            return "REPR"
    assert printed(capsys, "s", C(), [C()]) == "s REPR [REPR]\n"


def test_returns_none_and_stdout(capsys):
    assert print_("to stdout", output_stream=sys.stdout) is None
    out = capsys.readouterr()
    assert out.out == "to stdout\n" and out.err == ""


def test_file_stream_appends(tmp_path):
    path = tmp_path / "out.txt"
    print_("line1", tf.constant([1]), output_stream=f"file://{path}")
    print_("line2", output_stream=f"file://{path}")
    assert path.read_text() == "line1 [1]\nline2\n"


@pytest.mark.parametrize("bad", ["stdout", "bogus", 3])
def test_unsupported_stream(bad):
    with pytest.raises(ValueError, match=r"Unsupported output stream, logging level, or file\."):
        print_("x", output_stream=bad)


def test_unknown_keyword():
    with pytest.raises(ValueError, match=r"Unrecognized keyword arguments for tf.print: \{'foo': 1\}"):
        print_("x", foo=1)


def test_print_is_a_stateful_op_with_no_gradient():
    from eagerflow._src.ops.registry import NO_GRADIENT, OPS
    assert OPS["PrintV2"].stateful and OPS["PrintV2"].grad is NO_GRADIENT
    assert OPS["StringFormat"].grad is NO_GRADIENT


def test_strings_format():
    out = string_format("x={} y={}", [tf.constant([1, 2]), tf.constant("s")])
    assert out.dtype == tf.string and out.numpy() == b'x=[1 2] y="s"'
    assert string_format("{}", tf.constant(np.arange(10, dtype=np.int32)), summarize=1).numpy() == b"[0 ... 9]"
    with pytest.raises(ValueError, match="The template expects 2 tensors, but the inputs only has 1. Please ensure"):
        string_format("{} {}", [tf.constant(1)])


def test_summarize_array_against_numpy_for_small_ints():
    # Independent reference: NumPy's own text for integer arrays small enough not to be elided
    # (NumPy pads columns, so compare with whitespace collapsed).
    rng = np.random.default_rng(0)
    for shape in [(3,), (2, 3), (2, 2, 2), (1, 1, 3)]:
        a = rng.integers(0, 9, size=shape)
        ours = summarize_array(a, -1)
        assert " ".join(ours.split()) == " ".join(str(a).split())
        assert ours.count("\n") == str(a).count("\n")
