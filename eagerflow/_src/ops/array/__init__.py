"""Array ops: shapes, reshaping, joining, padding, slicing, sequences, ordering, scatter, partitions, sets."""
