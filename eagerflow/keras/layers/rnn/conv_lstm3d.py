"""ConvLSTM3D: a convolutional LSTM over (batch, time, d1, d2, d3, channels) sequences."""
from __future__ import annotations

from .conv_lstm import ConvLSTM


class ConvLSTM3D(ConvLSTM):
    _rank = 3
