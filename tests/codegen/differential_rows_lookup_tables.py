"""Differential rows for tf.lookup tables (ops/lookup/tables.py): StaticHashTable and StaticVocabularyTable
lookups traced, generated and run eagerly, beside test_differential.py. `rows(Row)` builds them with that
test's Row class. The tables add no op of their own: a lookup is VocabularyLookup, and the vocabulary
table's out-of-vocabulary ids are AsString + StringToHashBucketFast + SelectV2 around it."""
import numpy as np


def rows(Row):
    import eagerflow as tf
    table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [1, 2, 3]), -1)
    words = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        ["emerson", "lake", "palmer"], np.array([0, 1, 2], np.int64)), 5)
    numbers = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
        np.array([7, 9], np.int64), np.array([0, 1], np.int64)), 4)
    return [
        Row("VocabularyLookup", table.lookup, (np.array([[b"a", b"z"], [b"c", b"b"]], dtype=object),),
            label="static_hash_table"),
        Row("StringToHashBucketFast", words.lookup,
            (np.array([b"emerson", b"king", b"crimson", b"", b"x"], dtype=object),), label="vocabulary_table"),
        Row("AsString", numbers.lookup, (np.array([7, 9, 1, 2, 3, -5, 100], np.int64),), label="vocabulary_table"),
    ]


def mutable_rows(Row):
    """The pure ops a MutableHashTable's insert / remove compute its next state with."""
    from eagerflow._src.core.errors import InvalidArgumentError
    from eagerflow._src.ops.lookup.mutable import table_insert, table_remove
    keys = np.array([b"a", b"c", b"d"], dtype=object)
    values = np.array([1, 3, 4], np.int64)
    return [
        Row("MutableTableInsert", lambda k, v: table_insert(keys, values, k, v),
            (np.array([b"c", b"b", b"b"], dtype=object), np.array([30, 2, 20], np.int64))),
        Row("MutableTableInsert", lambda k, v: table_insert(np.array([1, 4], np.int64), np.zeros([2, 2], np.float32),
                                                            k, v),
            (np.array([[4, 2]], np.int64), np.ones([1, 2, 2], np.float32)), label="vector_values"),
        Row("MutableTableInsert", lambda k, v: table_insert(keys, values, k, v),
            (np.array([b"q", b"r"], dtype=object), np.array([1], np.int64)), raises=InvalidArgumentError,
            label="value_shape"),
        Row("MutableTableRemove", lambda k: table_remove(keys, values, k), (np.array([b"c", b"z"], dtype=object),)),
        Row("MutableTableRemove", lambda k: table_remove(np.array([1, 4, 9], np.int64), values, k),
            (np.array([9, 2], np.int64),), label="int"),
    ]
