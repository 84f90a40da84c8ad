"""`keras.layers`."""
from .base import Layer  # noqa: F401
from .conv import (AveragePooling2D, AvgPool2D, Conv2D, GlobalAveragePooling2D, GlobalAvgPool2D,  # noqa: F401
                   MaxPool2D, MaxPooling2D)
from .core import Activation, Dense, Dropout, Embedding, Flatten, ReLU, Reshape, Softmax  # noqa: F401
from .input_layer import Input, InputLayer  # noqa: F401
from .merging import Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract  # noqa: F401
from .normalization import BatchNormalization, LayerNormalization  # noqa: F401
from .rnn import GRU, LSTM, SimpleRNN  # noqa: F401,E402
from .masking import Masking  # noqa: F401,E402
from .activations_layers import ELU, Identity, LeakyReLU, PReLU  # noqa: F401,E402
from .reshaping import Cropping2D, Permute, RepeatVector, Rescaling, UpSampling2D, ZeroPadding2D  # noqa: F401,E402
from .pooling1d import (AveragePooling1D, AvgPool1D, Conv1D, GlobalAveragePooling1D, GlobalAvgPool1D,  # noqa: F401
                        GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPool1D,
                        MaxPooling1D)
from .noise import GaussianDropout, GaussianNoise, SpatialDropout1D  # noqa: F401,E402
from .wrappers import Bidirectional, TimeDistributed  # noqa: F401,E402
from .conv_extra import Conv2DTranspose, DepthwiseConv2D, SeparableConv2D  # noqa: F401,E402
from .lambda_layer import Lambda  # noqa: F401,E402
from .einsum_dense import EinsumDense  # noqa: F401,E402
from .multi_head_attention import MultiHeadAttention  # noqa: F401,E402
from .attention import AdditiveAttention, Attention  # noqa: F401,E402
from .normalization_extra import GroupNormalization, UnitNormalization  # noqa: F401,E402
from .noise import ActivityRegularization, AlphaDropout, SpatialDropout2D, SpatialDropout3D  # noqa: F401,E402
from .rnn_cells import GRUCell, LSTMCell, RNN, SimpleRNNCell, StackedRNNCells  # noqa: F401,E402
from .preprocessing import CategoryEncoding, Discretization, Normalization  # noqa: F401,E402
from .hashing import Hashing  # noqa: F401,E402
from .image_preprocessing import (CenterCrop, RandomBrightness, RandomContrast, RandomFlip, RandomTranslation,  # noqa: F401,E402,E501
                                  RandomRotation, RandomZoom, Resizing)
from .reshaping3d import (Cropping1D, Cropping3D, UpSampling1D, UpSampling3D, ZeroPadding1D,  # noqa: F401,E402
                          ZeroPadding3D)
from .conv3d import (AveragePooling3D, AvgPool3D, Conv1DTranspose, Conv3D, GlobalAveragePooling3D,  # noqa: F401,E402
                     GlobalAvgPool3D, GlobalMaxPool3D, GlobalMaxPooling3D, MaxPool3D, MaxPooling3D)
from .merging import add, average, concatenate, dot, maximum, minimum, multiply, subtract  # noqa: F401,E402
from .index_lookup import IntegerLookup, StringLookup  # noqa: F401,E402
from .text_vectorization import TextVectorization  # noqa: F401,E402
