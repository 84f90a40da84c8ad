"""AdaptiveMaxPooling1D: the maximum over each of output_size cells tiling the input's 1 spatial axes."""
from __future__ import annotations

from .base_adaptive_pooling import AdaptiveMax, BaseAdaptivePooling


class AdaptiveMaxPooling1D(AdaptiveMax, BaseAdaptivePooling):
    _rank = 1
