"""`keras.layers`."""
from .base import Layer  # noqa: F401
from .convolutional.conv1d import Conv1D  # noqa: F401
from .convolutional.conv1d_transpose import Conv1DTranspose  # noqa: F401
from .convolutional.conv2d import Conv2D  # noqa: F401
from .convolutional.conv2d_transpose import Conv2DTranspose  # noqa: F401
from .convolutional.conv3d import Conv3D  # noqa: F401
from .convolutional.depthwise_conv2d import DepthwiseConv2D  # noqa: F401
from .convolutional.separable_conv2d import SeparableConv2D  # noqa: F401
from .pooling.average_pooling1d import AveragePooling1D, AvgPool1D  # noqa: F401
from .pooling.average_pooling2d import AveragePooling2D, AvgPool2D  # noqa: F401
from .pooling.average_pooling3d import AveragePooling3D, AvgPool3D  # noqa: F401
from .pooling.global_average_pooling1d import GlobalAveragePooling1D, GlobalAvgPool1D  # noqa: F401
from .pooling.global_average_pooling2d import GlobalAveragePooling2D, GlobalAvgPool2D  # noqa: F401
from .pooling.global_average_pooling3d import GlobalAveragePooling3D, GlobalAvgPool3D  # noqa: F401
from .pooling.global_max_pooling1d import GlobalMaxPool1D, GlobalMaxPooling1D  # noqa: F401
from .pooling.global_max_pooling2d import GlobalMaxPool2D, GlobalMaxPooling2D  # noqa: F401
from .pooling.global_max_pooling3d import GlobalMaxPool3D, GlobalMaxPooling3D  # noqa: F401
from .pooling.max_pooling1d import MaxPool1D, MaxPooling1D  # noqa: F401
from .pooling.max_pooling2d import MaxPool2D, MaxPooling2D  # noqa: F401
from .pooling.max_pooling3d import MaxPool3D, MaxPooling3D  # noqa: F401
from .core.dense import Activation, Dense, Dropout, Embedding, Flatten, ReLU, Reshape, Softmax  # noqa: F401
from .core.input_layer import Input, InputLayer  # noqa: F401
from .merging.base_merge import Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract  # noqa: F401
from .normalization.batch_normalization import BatchNormalization, LayerNormalization  # noqa: F401
from .rnn.recurrent import GRU, LSTM, SimpleRNN  # noqa: F401,E402
from .core.masking import Masking  # noqa: F401,E402
from .activations.leaky_relu import ELU, Identity, LeakyReLU, PReLU  # noqa: F401,E402
from .reshaping.zero_padding2d import Cropping2D, Permute, RepeatVector, Rescaling, UpSampling2D, ZeroPadding2D  # noqa: F401,E402
from .regularization.gaussian_noise import GaussianDropout, GaussianNoise, SpatialDropout1D  # noqa: F401,E402
from .rnn.bidirectional import Bidirectional, TimeDistributed  # noqa: F401,E402
from .core.lambda_layer import Lambda  # noqa: F401,E402
from .core.einsum_dense import EinsumDense  # noqa: F401,E402
from .attention.multi_head_attention import MultiHeadAttention  # noqa: F401,E402
from .attention.attention import AdditiveAttention, Attention  # noqa: F401,E402
from .normalization.group_normalization import GroupNormalization, UnitNormalization  # noqa: F401,E402
from .regularization.gaussian_noise import ActivityRegularization, AlphaDropout, SpatialDropout2D, SpatialDropout3D  # noqa: F401,E402
from .rnn.cells import GRUCell, LSTMCell, RNN, SimpleRNNCell, StackedRNNCells  # noqa: F401,E402
from .preprocessing.normalization import CategoryEncoding, Discretization, Normalization  # noqa: F401,E402
from .preprocessing.hashing import Hashing  # noqa: F401,E402
from .preprocessing.image_preprocessing import (CenterCrop, RandomBrightness, RandomContrast, RandomFlip, RandomTranslation,  # noqa: F401,E402,E501
                                  RandomRotation, RandomZoom, Resizing)
from .reshaping.zero_padding3d import (Cropping1D, Cropping3D, UpSampling1D, UpSampling3D, ZeroPadding1D,  # noqa: F401,E402
                          ZeroPadding3D)
from .merging.base_merge import add, average, concatenate, dot, maximum, minimum, multiply, subtract  # noqa: F401,E402
from .preprocessing.index_lookup import IntegerLookup, StringLookup  # noqa: F401,E402
from .preprocessing.text_vectorization import TextVectorization  # noqa: F401,E402
