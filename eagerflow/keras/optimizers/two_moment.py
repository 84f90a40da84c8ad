"""TwoMomentOptimizer: the shared constructor of Adamax, Nadam and Lamb."""
from __future__ import annotations

from .base import Optimizer


class TwoMomentOptimizer(Optimizer):
    """The constructor and config keys Keras gives its Adam-like rules (Adamax, Nadam, Lamb): two
    moment decay rates and an epsilon."""
    _config_keys = ("beta_1", "beta_2", "epsilon")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name=None, **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
