"""Differential rows for VocabularyLookup (ops/lookup/vocabulary.py), the table op behind Keras'
StringLookup / IntegerLookup, beside test_differential.py. `rows(Row)` builds them with that test's Row class."""
import numpy as np

from eagerflow._src.ops.lookup.vocabulary import vocabulary_lookup

KEYS = np.array([b"a", b"c", b"d"], dtype=object)
IDS = np.array([1, 3, 4], np.int64)


def rows(Row):
    return [
        Row("VocabularyLookup", lambda x: vocabulary_lookup(KEYS, IDS, x, np.int64(0)),
            (np.array([[b"a", b"z"], [b"d", b"c"]], dtype=object),)),
        Row("VocabularyLookup", lambda x: vocabulary_lookup(np.array([2, 5, 9], np.int64), KEYS, x, b"?"),
            (np.array([9, 0, 5, 10], np.int64),), label="inverse"),
    ]


def text_token_rows(Row):
    """UnicodeCharSplit and StringNGrams (ops/strings/tokens.py), TextVectorization's "character" split and ngrams."""
    import eagerflow as tf
    from eagerflow._src.ops.strings.tokens import ngrams, unicode_split

    def grams(s):
        return ngrams(tf.strings.split(s), (1, 2)).to_tensor("")

    return [
        Row("UnicodeCharSplit", lambda s: unicode_split(s).to_tensor(""),
            (np.array([b"ab c", "é".encode(), b""], dtype=object),)),
        Row("StringNGrams", grams, (np.array([b"the cat sat", b"dog", b""], dtype=object),)),
    ]


def bucketize_rows(Row):
    """Bucketize (ops/array/searchsorted.py), a Keras Discretization's op in TensorFlow's SavedModels."""
    from eagerflow._src.ops.array.searchsorted import bucketize
    return [Row("Bucketize", lambda x: bucketize(x, [-0.5, 0.0, 0.5]),
                (np.array([[-1.0, -0.5, 0.0], [0.25, 0.5, 7.0]], np.float32),))]


def fused_batch_norm_rows(Row):
    """FusedBatchNormV3 (ops/nn/fused_batch_norm.py), tf.keras 2's BatchNormalization in TensorFlow's files."""
    from eagerflow._src.ops.nn.fused_batch_norm import fused_batch_norm
    scale, offset = np.array([1.5, -0.5], np.float32), np.array([0.25, 1.0], np.float32)
    mean, variance = np.array([0.1, -0.2], np.float32), np.array([0.8, 1.2], np.float32)
    x = (np.arange(16, dtype=np.float32).reshape(2, 2, 2, 2) % 5) * 0.5 - 1
    return [Row("FusedBatchNormV3", lambda t: fused_batch_norm(t, scale, offset, mean, variance, is_training=False)[0],
                (x,)),
            Row("FusedBatchNormV3", lambda t: fused_batch_norm(t, scale, offset, mean, variance)[:3], (x,),
                label="training")]


def gradient_op_rows(Row):
    """TensorFlow's gradient ops (ops/math/gradient_ops.py), held by training steps TensorFlow saved."""
    from eagerflow._src.ops.math import gradient_ops as G
    from eagerflow._src.ops.registry import bind
    y = np.array([0.1, 0.4, 0.5, 0.8], np.float32)
    d = np.array([0.3, -1.2, 2.0, 0.7], np.float32)
    x = np.array([-1.5, -0.25, 0.5, 7.0], np.float32)
    rows = [Row(name, lambda a, b, op=getattr(G, name): bind(op, (a, b)), (y, d))
            for name in ("SigmoidGrad", "TanhGrad", "RsqrtGrad", "SqrtGrad", "ReciprocalGrad", "InvGrad")]
    rows += [Row(name, lambda a, b, op=getattr(G, name): bind(op, (a, b)), (d, x))
             for name in ("EluGrad", "SeluGrad", "SoftplusGrad", "SoftsignGrad", "Relu6Grad", "LeakyReluGrad")]
    rows.append(Row("BroadcastGradientArgs", lambda a, b: bind(G.BroadcastGradientArgs, (a, b)),
                    (np.array([5, 1, 3], np.int32), np.array([4, 1], np.int32))))
    return rows


def saved_custom_gradient_rows(Row):
    """SavedCustomGradient (ops/control/saved_custom_gradient.py): a custom gradient TensorFlow saved."""
    import eagerflow as tf
    from eagerflow._src.ops.control.saved_custom_gradient import SavedCustomGradient
    from eagerflow._src.ops.registry import bind
    spec = tf.TensorSpec([3], tf.float32)
    gradient = tf.function(lambda g0, g1, c: g0 * c).get_concrete_function(spec, spec, spec)
    x = np.array([1.0, -2.0, 0.5], np.float32)
    return [Row("SavedCustomGradient", lambda a, b: bind(SavedCustomGradient, (a, b, a * b),
                                                         {"_function": gradient, "n_outputs": 2}), (x, x * 3))]
