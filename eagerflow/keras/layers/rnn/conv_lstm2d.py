"""ConvLSTM2D: a convolutional LSTM over (batch, time, rows, cols, channels) sequences."""
from __future__ import annotations

from .conv_lstm import ConvLSTM


class ConvLSTM2D(ConvLSTM):
    _rank = 2
