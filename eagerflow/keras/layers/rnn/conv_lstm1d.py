"""ConvLSTM1D: a convolutional LSTM over (batch, time, steps, channels) sequences."""
from __future__ import annotations

from .conv_lstm import ConvLSTM


class ConvLSTM1D(ConvLSTM):
    _rank = 1
