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
    """A MutableHashTable's insert, remove, export, lookup and size, each run from an empty table so that
    every way of running a row starts from the same state."""
    import eagerflow as tf
    from eagerflow._src.core.errors import InvalidArgumentError
    tables = {}

    def fresh(key_dtype, value_dtype, default):
        table = tables.get((key_dtype, value_dtype))
        if table is None:
            table = tables[key_dtype, value_dtype] = tf.lookup.experimental.MutableHashTable(
                key_dtype, value_dtype, default)
        table.remove(table.export()[0])
        return table

    def words(k, v):
        table = fresh(tf.string, tf.int64, -1)
        table.insert(tf.constant(["a", "c", "d"]), tf.constant([1, 3, 4], tf.int64))
        table.insert(k, v)
        return table.export()

    def vectors(k, v):
        table = fresh(tf.int64, tf.float32, [0.0, 0.0])
        table.insert(tf.constant([1, 4], tf.int64), tf.zeros([2, 2]))
        table.insert(k, v)
        return table.lookup(tf.constant([4, 2, 3], tf.int64)), table.size()

    def scalars(k):
        table = fresh(tf.string, tf.int64, -1)
        table.insert(tf.constant(["a", "c", "d"]), tf.constant([1, 3, 4], tf.int64))
        return table.lookup(k), table.size()

    def removed(k):
        table = fresh(tf.string, tf.int64, -1)
        table.insert(tf.constant(["a", "c", "d"]), tf.constant([1, 3, 4], tf.int64))
        table.remove(k)
        return table.export()

    return [
        Row("MutableHashTableInsert", words, (np.array([b"c", b"b", b"b"], dtype=object), np.array([30, 2, 20], np.int64))),
        Row("MutableHashTableExport", words, (np.array([b"e"], dtype=object), np.array([5], np.int64)),
            label="after_insert"),
        Row("MutableHashTableFind", vectors, (np.array([[4, 2]], np.int64), np.ones([1, 2, 2], np.float32)),
            label="vector_values"),
        Row("MutableHashTableFind", scalars, (np.array([[b"c", b"z"], [b"a", b"d"]], dtype=object),)),
        Row("MutableHashTableSize", scalars, (np.array([b"q"], dtype=object),)),
        Row("MutableHashTableInsert", words, (np.array([b"q", b"r"], dtype=object), np.array([1], np.int64)),
            raises=InvalidArgumentError, label="value_shape"),
        Row("MutableHashTableRemove", removed, (np.array([b"c", b"z"], dtype=object),)),
    ]
