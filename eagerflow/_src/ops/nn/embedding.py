"""`tf.nn.embedding_lookup`: rows of an embedding table, by id (a gather, so the gradient is the
gather's: IndexedSlices of the rows used).

`params` may be one tensor or a list of shards; ids are spread over shards as TensorFlow 2 does
("div"): shard p holds a contiguous block of ids, the first (n % shards) shards one row more.
`max_norm` rescales each looked-up row whose L2 norm is larger.
"""
from __future__ import annotations


from ..operands import as_tensor


def embedding_lookup(params, ids, max_norm=None, name=None):
    from ..array.joining import concat
    from ..linalg.norms import clip_by_norm
    from ..array.slicing import gather
    ids = as_tensor(ids)
    if not ids.dtype.is_integer:
        raise TypeError(f"ids must be an integer tensor, got {ids.dtype.name}")
    if isinstance(params, (list, tuple)):
        shards = [as_tensor(p) for p in params]
        if not shards:
            raise ValueError("Need at least one param")
        table = shards[0] if len(shards) == 1 else concat(shards, axis=0)
        _check_div_layout(shards)
    else:
        table = as_tensor(params)
    rows = gather(table, ids)
    if max_norm is not None:
        axes = list(range(ids.shape.rank, rows.shape.rank)) if ids.shape.rank is not None else None
        rows = clip_by_norm(rows, max_norm, axes=axes)
    return rows


def _check_div_layout(shards):
    """Concatenating the shards gives the table only when they are the "div" blocks TensorFlow 2
    uses: sizes that differ by at most one, the larger ones first (checked when sizes are known)."""
    sizes = [s.shape[0] for s in shards]
    if any(n is None for n in sizes):
        return
    total, count = sum(sizes), len(sizes)
    expected = [total // count + (1 if p < total % count else 0) for p in range(count)]
    if sizes != expected:
        raise ValueError(f"embedding_lookup with a list of {count} params expects TensorFlow's 'div' sharding of "
                         f"{total} rows: shard sizes {expected}, got {sizes}")


