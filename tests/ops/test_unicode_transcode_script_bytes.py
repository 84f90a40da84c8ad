"""tf.strings.unicode_transcode, unicode_script and bytes_split (ops/strings/transcode.py, script.py,
bytes_split.py) against TensorFlow 2.21's recorded answers, eagerly and traced."""
import numpy as np
import pytest

import eagerflow as tf

T = tf.strings.unicode_transcode

TRANSCODED = [  # (input, input encoding, output encoding, options) -> TF 2.21's bytes
    (b"Hello", "UTF-8", "UTF-16-BE", {}, b"\x00H\x00e\x00l\x00l\x00o"),
    ("Ⓣⓔⓧⓣ", "UTF-8", "UTF-16-BE", {}, b"$\xc9$\xd4$\xe7$\xe3"),
    ("Ⓣⓔⓧⓣ", "UTF-8", "UTF-32-BE", {}, b"\x00\x00$\xc9\x00\x00$\xd4\x00\x00$\xe7\x00\x00$\xe3"),
    (b"a\xffb", "UTF-8", "UTF-8", {}, b"a\xef\xbf\xbdb"),
    (b"a\xffb", "UTF-8", "UTF-8", {"errors": "ignore"}, b"ab"),
    (b"a\xffb", "UTF-8", "UTF-8", {"replacement_char": 63}, b"a?b"),
    (b"a\x01b\tc", "UTF-8", "UTF-8", {"replace_control_characters": True}, b"a\xef\xbf\xbdb\xef\xbf\xbdc"),
    (b"a\x01b", "UTF-8", "UTF-8", {"replace_control_characters": True, "replacement_char": 88}, b"aXb"),
    (b"\x00a\x00b", "UTF-16-BE", "UTF-8", {}, b"ab"),
    (b"\x00a\x00", "UTF-16-BE", "UTF-8", {}, b"a\xef\xbf\xbd"),
    (b"caf\xe9", "ISO-8859-1", "UTF-8", {}, b"caf\xc3\xa9"),
    (b"\xed\xa0\x80x", "UTF-8", "UTF-8", {}, b"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbdx"),
    (b"\xf0\x9f\x98", "UTF-8", "UTF-8", {}, b"\xef\xbf\xbd"),
    (b"a\xffb", "UTF-8", "UTF-16-BE", {}, b"\x00a\xff\xfd\x00b"),
    (b"\xd8\x00\x00a", "UTF-16-BE", "UTF-8", {}, b"\xef\xbf\xbda"),
    (b"a\xc0\x80b", "UTF-8", "UTF-8", {}, b"a\xef\xbf\xbd\xef\xbf\xbdb"),
    (b"\xef\xbb\xbfab", "UTF-8", "UTF-8", {}, b"\xef\xbb\xbfab"),
    (b"\xfe\xff\x00a", "UTF-16", "UTF-8", {}, b"a"),
]


@pytest.mark.parametrize("text,source,target,options,expected", TRANSCODED)
def test_unicode_transcode_as_tensorflow(text, source, target, options, expected):
    out = T(text, source, target, **options)
    assert out.dtype == tf.string and out.shape == () and out.numpy() == expected


def test_unicode_transcode_keeps_shape_and_traces():
    out = T([[b"a\xffb", b"ok"]], "UTF-8", "UTF-8")
    assert out.shape.as_list() == [1, 2] and out.numpy().tolist() == [[b"a\xef\xbf\xbdb", b"ok"]]  # TF 2.21

    @tf.function
    def to_utf16(x):
        return T(x, "UTF-8", "UTF-16-BE")
    concrete = to_utf16.get_concrete_function(tf.TensorSpec([None, 2], tf.string))
    assert concrete.structured_outputs.shape.as_list() == [None, 2]  # TF 2.21
    assert to_utf16(tf.constant([["añ", "b"]])).numpy().tolist() == [[b"\x00a\x00\xf1", b"\x00b"]]


TRANSCODE_ERRORS = [  # TF 2.21: InvalidArgumentError and these words
    (lambda: T(b"a\xffb", "UTF-8", "UTF-8", errors="strict"), "Invalid formatting on input string"),
    (lambda: T(b"abc", "UTF-8", "ISO-8859-1"), "Value for attr 'output_encoding' of \"ISO-8859-1\" is not in the list "
                                               "of allowed values: \"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\""),
    (lambda: T(b"abc", "BOGUS", "UTF-8"), "Could not create converter for input encoding: BOGUS"),
    (lambda: T(b"abc", "UTF-8", "UTF-8", errors="bad"), "Value for attr 'errors' of \"bad\" is not in the list of "
                                                        "allowed values: \"strict\", \"replace\", \"ignore\""),
    (lambda: T(b"ab", "UTF-8", "UTF-8", replacement_char=0x110000), "replacement_char out of unicode codepoint range"),
]


@pytest.mark.parametrize("index", range(len(TRANSCODE_ERRORS)))
def test_unicode_transcode_errors(index):
    call, message = TRANSCODE_ERRORS[index]
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        call()
    assert message in str(info.value)


def test_unicode_script_as_tensorflow():
    points = [1, 31, 38, 0x41, 0x416, 0x5D0, 0x627, 0x4E00, 0x3042, 0x30A2, 0xAC00, 0x301, 0x1F600, -1, 0x110000,
              0xE000, 0x10FFFF]
    scripts = tf.strings.unicode_script(points)
    assert scripts.dtype == tf.int32
    assert scripts.numpy().tolist() == [0, 0, 0, 25, 8, 19, 2, 17, 20, 22, 18, 1, 0, -1, -1, 103, 103]  # TF 2.21
    assert tf.strings.unicode_script([[0x41], [0x416]]).numpy().tolist() == [[25], [8]]
    assert int(tf.strings.unicode_script(tf.constant(0x41))) == 25
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a int32 tensor but is a int64 tensor"):
        tf.strings.unicode_script(tf.constant([65], tf.int64))

    @tf.function
    def traced(x):
        return tf.strings.unicode_script(x)
    assert traced.get_concrete_function(tf.TensorSpec([None, 2], tf.int32)).structured_outputs.shape.as_list() == \
        [None, 2]
    assert traced(tf.constant([[0x627, 0x5D0]])).numpy().tolist() == [[2, 19]]


def test_unicode_script_of_every_letter_of_a_sentence():
    # TF 2.21 on this sentence: Latin, Common, Cyrillic, Hebrew, Arabic, Han, Hiragana, Katakana, Hangul, Common
    # (currency sign, emoji), Inherited (combining grave accent)
    text = "Hi Привет שלום مرحبا 你好 こんにちは カタカナ 안녕 ₿ 🎉 a\u0300"
    scripts = tf.strings.unicode_script(tf.strings.unicode_decode(text, "UTF-8")).numpy().tolist()
    expected = [25, 25, 0] + [8] * 6 + [0] + [19] * 4 + [0] + [2] * 5 + [0] + [17] * 2 + [0] + [20] * 5 + [0] + \
        [22] * 4 + [0] + [18] * 2 + [0, 0, 0, 0, 0, 25, 1]
    assert scripts == expected


def test_bytes_split_as_tensorflow():
    b = tf.strings.bytes_split
    scalar = b("hello")
    assert scalar.shape.as_list() == [5] and scalar.numpy().tolist() == [b"h", b"e", b"l", b"l", b"o"]
    rows = b(["hello", "", "añ"])
    assert rows.shape.as_list() == [3, None]
    assert rows.to_list() == [[b"h", b"e", b"l", b"l", b"o"], [], [b"a", b"\xc3", b"\xb1"]]  # bytes, not characters
    grid = b([["ab", "c"], ["", "de"]])
    assert grid.shape.as_list() == [2, 2, None] and grid.to_list() == [[[b"a", b"b"], [b"c"]], [[], [b"d", b"e"]]]
    ragged = b(tf.ragged.constant([["ab"], ["c", "de"]]))
    assert ragged.shape.as_list() == [2, None, None] and ragged.to_list() == [[[b"a", b"b"]], [[b"c"], [b"d", b"e"]]]
    empty = b("")
    assert empty.shape.as_list() == [0] and empty.dtype == tf.string
    with pytest.raises(ValueError, match="Tensor conversion requested dtype string for Tensor with dtype int32"):
        b(tf.constant(5))

    @tf.function
    def traced(x):
        return b(x)
    out = traced.get_concrete_function(tf.TensorSpec([None], tf.string)).structured_outputs
    assert type(out).__name__ == "RaggedTensor" and out.shape.as_list() == [None, None]  # TF 2.21
    assert traced(tf.constant(["xy", "z"])).to_list() == [[b"x", b"y"], [b"z"]]


def test_string_split_op_with_delimiters():
    from eagerflow._src.ops.registry import bind
    from eagerflow._src.ops.strings.bytes_split import StringSplit
    # TF 2.21 tf.raw_ops.StringSplit(input=["a,b;;c", ""], delimiter=",;", skip_empty=...)
    indices, values, shape = bind(StringSplit, (tf.constant(["a,b;;c", ""]), tf.constant(",;")), {"skip_empty": False})
    assert values.numpy().tolist() == [b"a", b"b", b"", b"c"]  # the empty string: no piece at all
    assert indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [0, 3]] and shape.numpy().tolist() == [2, 4]
    indices, values, shape = bind(StringSplit, (tf.constant(["a,b;;c", ""]), tf.constant(",;")), {"skip_empty": True})
    assert values.numpy().tolist() == [b"a", b"b", b"c"] and shape.numpy().tolist() == [2, 3]
    assert np.asarray(indices).tolist() == [[0, 0], [0, 1], [0, 2]]
