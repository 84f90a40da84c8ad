"""tf.strings.ngrams against TensorFlow 2.21's recorded answers, eagerly and traced."""
import pytest

import eagerflow as tf

MODES = ["eager", "traced"]


def run(mode, fn):
    out = fn() if mode == "eager" else tf.function(fn)()
    return out.to_list() if isinstance(out, tf.RaggedTensor) else out.numpy().tolist()


CASES = [
    (lambda: tf.strings.ngrams(tf.constant(["a", "b", "c", "d"]), 2), [b"a b", b"b c", b"c d"]),
    (lambda: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], ["d"]]), 2, separator="-"),
     [[b"a-b", b"b-c"], []]),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b", "c"]), (1, 3), pad_values=("<s>", "</s>"), padding_width=1),
     [b"a", b"b", b"c", b"<s> a b", b"a b c", b"b c </s>"]),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 3, pad_values="P", preserve_short_sequences=True),
     [b"P P a", b"P a b", b"a b P", b"b P P"]),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 3, preserve_short_sequences=True), [b"a b"]),
    (lambda: tf.strings.ngrams(tf.constant(["a"]), 4, pad_values="P", padding_width=1,
                               preserve_short_sequences=True), [b"P a P"]),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 3), []),
    (lambda: tf.strings.ngrams(tf.ragged.constant([[], ["a"]], dtype=tf.string), 2, pad_values="P",
                               preserve_short_sequences=True), [[b"P P"], [b"P a", b"a P"]]),
    (lambda: tf.strings.ngrams(tf.constant([["a", "b", "c"], ["d", "e", "f"]]), 2),
     [[b"a b", b"b c"], [b"d e", b"e f"]]),
    (lambda: tf.strings.ngrams(tf.ragged.constant([[["a", "b"], ["c"]], [["d", "e", "f"]]]), 2),
     [[[b"a b"], []], [[b"d e", b"e f"]]]),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b", "c"]), [3, 1]), [b"a b c", b"a", b"b", b"c"]),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("i", range(len(CASES)))
def test_ngrams_as_tensorflow(i, mode):
    fn, want = CASES[i]
    assert run(mode, fn) == want


@pytest.mark.parametrize("call, message", [
    (lambda: tf.strings.ngrams(tf.constant("a"), 2), "Data must have rank>0"),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 0), "All ngram_widths must be greater than 0. Got 0"),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 2, pad_values="P", padding_width=0),
     "padding_width must be greater than 0."),
    (lambda: tf.strings.ngrams(tf.constant(["a", "b"]), 2, padding_width=1),
     "pad_values must be provided if padding_width is set."),
    (lambda: tf.strings.ngrams(tf.constant([1.0]), 2),
     "data: Tensor conversion requested dtype string for Tensor with dtype float32"),
])
def test_ngrams_refusals_as_tensorflow(call, message):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value).startswith(message)
