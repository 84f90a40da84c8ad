"""AdaptiveAveragePooling1D: the mean over each of output_size cells tiling the input's 1 spatial axes."""
from __future__ import annotations

from .base_adaptive_pooling import AdaptiveAverage, BaseAdaptivePooling


class AdaptiveAveragePooling1D(AdaptiveAverage, BaseAdaptivePooling):
    _rank = 1
