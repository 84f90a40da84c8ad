"""tf.strings.unicode_decode / unicode_decode_with_offsets / unicode_encode / unicode_split against
TensorFlow 2.21's recorded answers, eagerly and traced."""
import pytest

import eagerflow as tf

MODES = ["eager", "traced"]


def run(mode, fn):
    return fn() if mode == "eager" else tf.function(fn)()


def rows(value):
    return value.to_list() if isinstance(value, tf.RaggedTensor) else value.numpy().tolist()


@pytest.mark.parametrize("mode", MODES)
def test_decode_as_tensorflow(mode):
    assert rows(run(mode, lambda: tf.strings.unicode_decode(tf.constant(["h\u00e9llo", "ab"]), "UTF-8"))) == \
        [[104, 233, 108, 108, 111], [97, 98]]
    scalar = run(mode, lambda: tf.strings.unicode_decode(tf.constant("h\u00e9"), "UTF-8"))
    assert scalar.dtype == tf.int32 and scalar.numpy().tolist() == [104, 233]
    assert rows(run(mode, lambda: tf.strings.unicode_decode(tf.constant([["ab", "c"], ["", "d"]]), "UTF-8"))) == \
        [[[97, 98], [99]], [[], [100]]]
    assert rows(run(mode, lambda: tf.strings.unicode_decode(tf.constant(["h\u00e9".encode("utf-16-be")]),
                                                            "UTF-16-BE"))) == [[104, 233]]


@pytest.mark.parametrize("mode", MODES)
def test_malformed_input_is_replaced_ignored_or_refused(mode):
    bad = lambda **kw: tf.strings.unicode_decode(tf.constant([b"a\xffb"]), "UTF-8", **kw)  # noqa: E731
    assert rows(run(mode, bad)) == [[97, 65533, 98]]
    assert rows(run(mode, lambda: bad(errors="ignore"))) == [[97, 98]]
    assert rows(run(mode, lambda: bad(replacement_char=63))) == [[97, 63, 98]]
    assert rows(run(mode, lambda: tf.strings.unicode_decode(tf.constant(["a\x01"]), "UTF-8",
                                                            replace_control_characters=True))) == [[97, 65533]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid formatting on input string"):
        run(mode, lambda: bad(errors="strict"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not create converter for input encoding: FOO"):
        run(mode, lambda: tf.strings.unicode_decode(tf.constant(["a"]), "FOO"))


@pytest.mark.parametrize("mode", MODES)
def test_decode_with_offsets_gives_byte_starts(mode):
    points, offsets = run(mode, lambda: tf.strings.unicode_decode_with_offsets(tf.constant(["h\u00e9llo"]), "UTF-8"))
    assert rows(points) == [[104, 233, 108, 108, 111]] and rows(offsets) == [[0, 1, 3, 4, 5]]


@pytest.mark.parametrize("mode", MODES)
def test_encode_as_tensorflow(mode):
    assert run(mode, lambda: tf.strings.unicode_encode(tf.constant([104, 233]), "UTF-8")).numpy() == b"h\xc3\xa9"
    assert rows(run(mode, lambda: tf.strings.unicode_encode(tf.constant([[104, 233], [65, 66]]), "UTF-8"))) == \
        [b"h\xc3\xa9", b"AB"]
    assert rows(run(mode, lambda: tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [65]]), "UTF-8"))) == \
        [b"h\xc3\xa9", b"A"]
    assert run(mode, lambda: tf.strings.unicode_encode(tf.constant([104, 233]), "UTF-16-BE")).numpy() == \
        b"\x00h\x00\xe9"
    assert run(mode, lambda: tf.strings.unicode_encode(tf.constant([0x110000, 65]), "UTF-8")).numpy() == \
        b"\xef\xbf\xbdA"
    assert run(mode, lambda: tf.strings.unicode_encode(tf.constant([0x110000, 65]), "UTF-8",
                                                       errors="ignore")).numpy() == b"A"
    assert run(mode, lambda: tf.strings.unicode_encode(tf.constant([-1, 0xDFFF, 66]), "UTF-8",
                                                       replacement_char=63)).numpy() == b"??B"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Code point is out of range for Unicode, or is a "
                                                             "surrogate."):
        run(mode, lambda: tf.strings.unicode_encode(tf.constant([0xD800]), "UTF-8", errors="strict"))


def test_encode_refusals_in_each_mode_as_tensorflow():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Value for attr 'output_encoding' of \"latin1\" is not "
                                                             "in the list of allowed values: \"UTF-8\", \"UTF-16-BE\""):
        tf.strings.unicode_encode(tf.constant([65]), "latin1")
    with pytest.raises(TypeError, match="Input 'input_values' of 'UnicodeEncode' Op has type float32 that does not "
                                        "match expected type of int32."):
        tf.function(lambda: tf.strings.unicode_encode(tf.constant([1.0]), "UTF-8"))()
    with pytest.raises(ValueError, match="input_tensor's rank must be at least 1."):
        tf.strings.unicode_encode(tf.constant(65), "UTF-8")


@pytest.mark.parametrize("mode", MODES)
def test_split_gives_each_character_encoded(mode):
    assert rows(run(mode, lambda: tf.strings.unicode_split(tf.constant(["h\u00e9llo", "ab"]), "UTF-8"))) == \
        [[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [b"a", b"b"]]
    assert rows(run(mode, lambda: tf.strings.unicode_split(tf.constant("h\u00e9"), "UTF-8"))) == [b"h", b"\xc3\xa9"]
