"""The default strategy: what `tf.distribute.get_strategy()` returns outside every scope. One replica,
no distribution; its scope is a no-op (it never becomes "the" strategy of `has_strategy`)."""
from __future__ import annotations

from .strategy import Strategy, StrategyExtended


class _DefaultExtended(StrategyExtended):
    def __init__(self, strategy):
        super().__init__(strategy, devices=("/job:localhost/replica:0/task:0/device:CPU:0",))


class DefaultStrategy(Strategy):
    def __init__(self):
        super().__init__(_DefaultExtended(self))

    def scope(self):
        return _NoScope(self)


class _NoScope:
    def __init__(self, strategy):
        self._strategy = strategy

    def __enter__(self):
        return self._strategy

    def __exit__(self, *exc):
        return False
