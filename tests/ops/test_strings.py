"""tf.strings (ops/strings/elementwise.py) against TensorFlow 2.21: the values, dtypes, static shapes, graph op
types and error messages below are TensorFlow's, written in."""
from __future__ import annotations

import numpy as np
import pytest

import eagerflow as tf

WORDS = tf.constant([["Hello World ", "  ÄbC  "], ["x", ""]])


def _values(t):
    v = t.numpy()
    return v.tolist() if isinstance(v, np.ndarray) else v


def test_length_lower_upper_strip():
    assert _values(tf.strings.length(WORDS)) == [[12, 8], [1, 0]]
    assert tf.strings.length(WORDS).dtype == tf.int32
    assert _values(tf.strings.length(WORDS, unit="UTF8_CHAR")) == [[12, 7], [1, 0]]
    assert _values(tf.strings.length(tf.constant([b"\xff\xfe a"]), unit="UTF8_CHAR")) == [4]
    assert _values(tf.strings.lower(WORDS)) == [[b"hello world ", b"  \xc3\x84bc  "], [b"x", b""]]
    assert _values(tf.strings.lower(WORDS, encoding="utf-8")) == [[b"hello world ", b"  \xc3\xa4bc  "], [b"x", b""]]
    assert _values(tf.strings.upper(WORDS)) == [[b"HELLO WORLD ", b"  \xc3\x84BC  "], [b"X", b""]]
    assert _values(tf.strings.lower(tf.constant(["İSTANBUL ß ÀÉ"]), encoding="utf-8")) == [
        b"i\xcc\x87stanbul \xc3\x9f \xc3\xa0\xc3\xa9"]
    assert _values(tf.strings.upper(tf.constant(["straße àé"]), encoding="utf-8")) == [b"STRASSE \xc3\x80\xc3\x89"]
    assert _values(tf.strings.strip(WORDS)) == [[b"Hello World", b"\xc3\x84bC"], [b"x", b""]]
    assert _values(tf.strings.strip(tf.constant(["\t\n a \x0b\x0c\r"]))) == [b"a"]


def test_regular_expressions():
    assert _values(tf.strings.regex_full_match(WORDS, r"H.*")) == [[True, False], [False, False]]
    assert _values(tf.strings.regex_full_match(tf.constant(["Ä"]), ".")) == [True]  # one UTF-8 character
    assert _values(tf.strings.regex_replace(WORDS, r"o", "0")) == [[b"Hell0 W0rld ", b"  \xc3\x84bC  "],
                                                                   [b"x", b""]]
    assert _values(tf.strings.regex_replace(WORDS, r"o", "0", replace_global=False))[0][0] == b"Hell0 World "
    assert _values(tf.strings.regex_replace(WORDS, r"(l+)", r"<\1>"))[0][0] == b"He<ll>o Wor<l>d "
    assert _values(tf.strings.regex_replace(tf.constant(["Äb"]), ".", "x")) == [b"xx"]
    assert _values(tf.strings.regex_replace(tf.constant(["abc"]), "b", r"[\0]")) == [b"a[b]c"]
    assert _values(tf.strings.regex_replace(tf.constant(["abc"]), "b", r"\\")) == [b"a\\c"]
    assert _values(tf.strings.regex_replace(tf.constant(["abc"]), "b", r"\2")) == [b"abc"]  # no group 2: unchanged
    assert _values(tf.strings.regex_replace(tf.constant(["abc"]), "", "-")) == [b"-a-b-c-"]
    assert _values(tf.strings.regex_replace(tf.constant(["abc"]), tf.constant("b"), "X")) == [b"aXc"]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Invalid pattern: \("):
        tf.strings.regex_replace(WORDS, r"(", "x")


def test_substr():
    assert _values(tf.strings.substr(tf.constant(["abcdef", "ghijkl"]), [1, 2], [2, 3])) == [b"bc", b"ijk"]
    assert _values(tf.strings.substr(tf.constant(["abcdef"]), 1, -1)) == [b"bcdef"]
    assert _values(tf.strings.substr(tf.constant(["abcdef"]), 4, 10)) == [b"ef"]
    assert _values(tf.strings.substr(tf.constant(["abc"]), 3, 1)) == [b""]
    assert _values(tf.strings.substr(tf.constant(["abcdef"]), -3, 2)) == [b"de"]
    assert _values(tf.strings.substr(tf.constant([["abc", "def"], ["ghi", "jkl"]]), [0, 1], [1, 2])) == [
        [b"a", b"ef"], [b"g", b"kl"]]
    assert _values(tf.strings.substr(tf.constant(["ÄbÖd"]), 1, 2, unit="UTF8_CHAR")) == [b"b\xc3\x96"]
    assert _values(tf.strings.substr(tf.constant(["ÄbÖd"]), -2, 2, unit="UTF8_CHAR")) == [b"\xc3\x96d"]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"pos 1 out of range for string b'' at index 3"):
        tf.strings.substr(WORDS, 1, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"pos -2 out of range for string b'x' at index 2"):
        tf.strings.substr(WORDS, -2, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"pos 2 out of range for string at index 2"):
        tf.strings.substr(WORDS, 2, 2, unit="UTF8_CHAR")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"pos and len should have the same shape, got: \[3\] vs. \[\]"):
        tf.strings.substr(tf.constant(["abc", "def"]), [0, 1, 2], 1)


def test_join_and_reduce_join():
    assert _values(tf.strings.join([WORDS, "!"], separator="-")) == [[b"Hello World -!", b"  \xc3\x84bC  -!"],
                                                                     [b"x-!", b"-!"]]
    assert _values(tf.strings.join(["a", "b"], separator=" ")) == b"a b"
    assert _values(tf.strings.join([])) == b""
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input shapes do not match: \[2,2\] vs. \[3\]"):
        tf.strings.join([WORDS, tf.constant(["a", "b", "c"])])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input shapes do not match: \[2,2\] vs. \[2\]"):
        tf.strings.join([WORDS, tf.constant(["a", "b"])])
    assert _values(tf.strings.reduce_join(WORDS)) == b"Hello World   \xc3\x84bC  x"
    assert _values(tf.strings.reduce_join(WORDS, axis=1, separator="|")) == [b"Hello World |  \xc3\x84bC  ", b"x|"]
    assert _values(tf.strings.reduce_join(WORDS, axis=0, keepdims=True, separator=",")) == [
        [b"Hello World ,x", b"  \xc3\x84bC  ,"]]
    assert _values(tf.strings.reduce_join(WORDS, axis=-1)) == [b"Hello World   \xc3\x84bC  ", b"x"]
    x = tf.constant(np.array([f"{i}{j}{k}" for i in range(2) for j in range(2) for k in range(3)]).reshape(2, 2, 3))
    assert _values(tf.strings.reduce_join(x, separator=".")) == b"000.001.002.010.011.012.100.101.102.110.111.112"
    assert _values(tf.strings.reduce_join(x, axis=[0, 2], separator=".")) == [b"000.100.001.101.002.102",
                                                                             b"010.110.011.111.012.112"]
    assert _values(tf.strings.reduce_join(x, axis=[2, 0], separator=".")) == [b"000.001.002.100.101.102",
                                                                             b"010.011.012.110.111.112"]
    assert _values(tf.strings.reduce_join(x, axis=[0, 1, 2], separator=".")) == (
        b"000.100.010.110.001.101.011.111.002.102.012.112")
    assert tf.strings.reduce_join(x, axis=[0, 2], keepdims=True).shape == (1, 2, 1)
    assert _values(tf.strings.reduce_join(tf.constant([[], []], tf.string), axis=1)) == [b"", b""]
    assert _values(tf.strings.reduce_join(tf.constant("ab"))) == b"ab"
    with pytest.raises(tf.errors.OutOfRangeError, match="Invalid reduction dimension 2 for input with 2 dimension"):
        tf.strings.reduce_join(tf.constant([["a"]]), axis=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate reduction dimension 0"):
        tf.strings.reduce_join(x, axis=[0, 0])


def test_as_string():
    assert _values(tf.strings.as_string(tf.constant([1.5, 2.0, 1e-7, 123456789.0]))) == [
        b"1.500000", b"2.000000", b"0.000000", b"123456792.000000"]
    assert _values(tf.strings.as_string(tf.constant([1.5, 2.25]), precision=3)) == [b"1.500", b"2.250"]
    assert _values(tf.strings.as_string(tf.constant([1.5, 2.25]), scientific=True)) == [b"1.500000e+00",
                                                                                        b"2.250000e+00"]
    assert _values(tf.strings.as_string(tf.constant([1.5, 2.25, 1e-7]), shortest=True)) == [b"1.5", b"2.25",
                                                                                            b"1e-07"]
    assert _values(tf.strings.as_string(tf.constant([1.5]), precision=2, shortest=True)) == [b"1.5"]
    assert _values(tf.strings.as_string(tf.constant([1, 22]), width=5, fill="0")) == [b"00001", b"00022"]
    assert _values(tf.strings.as_string(tf.constant([7]), width=4, fill=" ")) == [b"   7"]
    assert _values(tf.strings.as_string(tf.constant([1.5]), width=10, fill="-")) == [b"1.500000  "]
    assert _values(tf.strings.as_string(tf.constant([7.5]), width=12)) == [b"    7.500000"]
    assert _values(tf.strings.as_string(tf.constant([1, -22]))) == [b"1", b"-22"]
    assert _values(tf.strings.as_string(tf.constant([True, False]))) == [b"true", b"false"]
    assert _values(tf.strings.as_string(tf.constant([0.1], tf.float64))) == [b"0.100000"]
    assert _values(tf.strings.as_string(tf.constant([1.5], tf.float16))) == [b"1.500000"]
    assert _values(tf.strings.as_string(tf.constant([1.5 + 2j]))) == [b"(1.500000,2.000000)"]
    assert _values(tf.strings.as_string(tf.constant([float("nan"), float("inf"), -float("inf")]))) == [
        b"nan", b"inf", b"-inf"]
    assert _values(tf.strings.as_string(tf.constant([200], tf.uint8))) == [b"200"]
    assert _values(tf.strings.as_string(tf.constant([2 ** 40], tf.int64))) == [b"1099511627776"]
    assert _values(tf.strings.as_string(tf.constant(["a"]))) == [b"a"]
    assert _values(tf.as_string(1.5)) == b"1.500000"
    for kwargs, message in [(dict(scientific=True, shortest=True), "Cannot select both scientific and shortest"),
                            (dict(width=4, fill="ab"), "Fill string must be one or fewer characters"),
                            (dict(width=10, fill="x"), 'Fill argument not supported: "x"')]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            tf.strings.as_string(tf.constant([1.5]), **kwargs)
    with pytest.raises(tf.errors.InvalidArgumentError, match="precision not supported for datatype int32"):
        tf.strings.as_string(tf.constant([1]), precision=2)


def test_to_number():
    out = tf.strings.to_number(tf.constant(["1.5", "  2", "-3e2"]))
    assert out.dtype == tf.float32 and _values(out) == [1.5, 2.0, -300.0]
    special = tf.strings.to_number(tf.constant(["inf", "nan", "-Infinity", "+5", "1e400", "0x10"])).numpy()
    np.testing.assert_array_equal(special, np.array([np.inf, np.nan, -np.inf, 5, np.inf, 16], np.float32))
    assert _values(tf.strings.to_number(tf.constant(["1", "-22"]), out_type=tf.int32)) == [1, -22]
    assert _values(tf.strings.to_number(tf.constant([" 7 ", "+3"]), out_type=tf.int32)) == [7, 3]
    assert _values(tf.strings.to_number(tf.constant(["3000000000"]), out_type=tf.int64)) == [3000000000]
    assert _values(tf.strings.to_number(tf.constant(["0.1"]), out_type=tf.float64)) == [0.1]
    for text, out_type in [("1.5x", tf.float32), ("1_0", tf.float32), ("", tf.float32), ("1.5", tf.int64),
                           ("3000000000", tf.int32)]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"StringToNumberOp could not correctly convert string: {text}"):
            tf.strings.to_number(tf.constant([text]), out_type=out_type)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'out_type' of int16 is not in the list of allowed values: float, double, "
                             "int32, int64, uint32, uint64"):
        tf.strings.to_number(tf.constant(["3"]), out_type=tf.int16)


def test_format_is_tf_strings_format():
    assert _values(tf.strings.format("a={} b={}", (tf.constant(1), tf.constant([1.5, 2])))) == b"a=1 b=[1.5 2]"


def test_bad_arguments_eagerly_and_when_tracing():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'unit' of \"CHAR\" is not in the list of allowed values: \"BYTE\", "
                             "\"UTF8_CHAR\""):
        tf.strings.length(WORDS, unit="CHAR")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute StringLength as input #0\(zero-based\) was expected to be a string "
                             r"tensor but is a float tensor"):
        tf.strings.length(tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"cannot compute StringLower as input #0\(zero-based\) was expected to be a string "
                             r"tensor but is a int32 tensor"):
        tf.strings.lower(tf.constant([1]))
    strings = tf.TensorSpec([None], tf.string)
    with pytest.raises(ValueError, match="Attr 'unit' of 'StringLength' Op passed string 'CHAR' not in: \"BYTE\", "
                                         "\"UTF8_CHAR\""):
        tf.function(lambda x: tf.strings.length(x, unit="CHAR")).get_concrete_function(strings)
    with pytest.raises(TypeError, match="Input 'input' of 'StringLength' Op has type float32 that does not match "
                                        "expected type of string."):
        tf.function(lambda x: tf.strings.length(x)).get_concrete_function(tf.TensorSpec([None], tf.float32))
    with pytest.raises(ValueError, match="Shapes must be equal rank, but are 1 and 2"):
        tf.function(lambda x: tf.strings.join([x, tf.constant([["a"]])])).get_concrete_function(
            tf.TensorSpec([2], tf.string))


def test_traced_graph_op_types_shapes_and_results():
    def f(x):
        return (tf.strings.regex_replace(tf.strings.lower(x), "a", "b"), tf.strings.length(x),
                tf.strings.as_string(tf.strings.length(x)), tf.strings.reduce_join(x, axis=0), tf.strings.join([x, x]),
                tf.strings.substr(x, 0, 1), tf.strings.to_number(tf.strings.as_string(tf.strings.length(x))),
                tf.strings.strip(x), tf.strings.regex_full_match(x, "a.*"), tf.strings.upper(x))
    fn = tf.function(f)
    cf = fn.get_concrete_function(tf.TensorSpec([None], tf.string))
    types = [op.type for op in cf.graph.get_operations() if op.type not in ("Placeholder", "Const", "Identity")]
    assert types == ["StringLower", "StaticRegexReplace", "StringLength", "StringLength", "AsString", "ReduceJoin",
                     "StringJoin", "Substr", "StringLength", "AsString", "StringToNumber", "StringStrip",
                     "StaticRegexFullMatch", "StringUpper"]  # TensorFlow 2.21's, in order
    assert [o.shape.as_list() for o in cf.outputs] == [[None], [None], [None], [], [None], [None], [None], [None],
                                                      [None], [None]]
    x = tf.constant(["Abc", "xa"])
    for traced, eager in zip(fn(x), f(x)):
        assert traced.dtype == eager.dtype
        np.testing.assert_array_equal(traced.numpy(), eager.numpy())
    assert _values(fn(x)[0]) == [b"bbc", b"xb"]


def test_no_gradient():
    x = tf.constant(["ab"])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.strings.length(x)
    assert tape.gradient(y, x) is None


def test_jit_compile_refuses_string_ops():
    pytest.importorskip("jax")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Detected unsupported operations when trying to compile"):
        tf.function(lambda x: tf.strings.length(x), jit_compile=True)(tf.constant(["ab"]))
