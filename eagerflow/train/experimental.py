"""`tf.train.experimental`: the sharding policies a checkpoint's options may name.

`CheckpointOptions(experimental_sharding_callback=...)` decides how many `.data-K-of-N` files a checkpoint's
bytes are spread over. eagerflow runs as one task on the host, so `ShardByTaskPolicy` gives one shard;
`MaxShardSizePolicy(n)` fills shards of at most `n` bytes, storing a number tensor larger than a shard in slices
along its first axis (TensorFlow's reader and eagerflow's both put such slices back together).
"""
from __future__ import annotations


class ShardingCallback:
    """The base of the sharding policies; `description` says what one does."""

    @property
    def description(self) -> str:
        raise NotImplementedError


class ShardByTaskPolicy(ShardingCallback):
    @property
    def description(self) -> str:
        return "Split tensors into shards based on their device spec task."


class MaxShardSizePolicy(ShardingCallback):
    def __init__(self, max_shard_size: int):
        self.max_shard_size = max_shard_size

    @property
    def description(self) -> str:
        return "Split tensors into shards with a max shard size."


def max_shard_size(options):
    """The shard size in bytes a checkpoint's options ask for, or None for a single data file."""
    policy = getattr(options, "experimental_sharding_callback", None)
    if policy is None or isinstance(policy, ShardByTaskPolicy):
        return None
    if isinstance(policy, MaxShardSizePolicy):
        return max(1, int(policy.max_shard_size))
    raise NotImplementedError(f"experimental_sharding_callback {policy!r}: eagerflow writes checkpoints with "
                              "tf.train.experimental.MaxShardSizePolicy or ShardByTaskPolicy only")
