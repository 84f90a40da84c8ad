"""`keras.layers`."""
from .base import Layer  # noqa: F401
from .conv import (AveragePooling2D, AvgPool2D, Conv2D, GlobalAveragePooling2D, GlobalAvgPool2D,  # noqa: F401
                   MaxPool2D, MaxPooling2D)
from .core import Activation, Dense, Dropout, Embedding, Flatten, ReLU, Reshape, Softmax  # noqa: F401
from .input_layer import Input, InputLayer  # noqa: F401
from .merging import Add, Concatenate  # noqa: F401
from .normalization import BatchNormalization, LayerNormalization  # noqa: F401
from .rnn import GRU, LSTM, SimpleRNN  # noqa: F401,E402
from .masking import Masking  # noqa: F401,E402
