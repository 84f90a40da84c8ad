"""tf.lookup: static and mutable hash tables, vocabulary lookups, text-file initializers."""
