"""`keras.layers`: every layer by the name Keras 3 exports, one layer per file in the family folders
(core, convolutional, pooling, normalization, rnn, attention, merging, reshaping, preprocessing,
regularization, activations); the Layer base and the plumbing every layer shares stay at this level."""
from .activations.activation import Activation  # noqa: F401
from .activations.elu import ELU  # noqa: F401
from .activations.leaky_relu import LeakyReLU  # noqa: F401
from .activations.prelu import PReLU  # noqa: F401
from .activations.relu import ReLU  # noqa: F401
from .activations.softmax import Softmax  # noqa: F401
from .attention.additive_attention import AdditiveAttention  # noqa: F401
from .attention.attention import Attention  # noqa: F401
from .attention.multi_head_attention import MultiHeadAttention  # noqa: F401
from .base import Layer  # noqa: F401
from .convolutional.conv1d import Conv1D  # noqa: F401
from .convolutional.conv1d_transpose import Conv1DTranspose  # noqa: F401
from .convolutional.conv2d import Conv2D  # noqa: F401
from .convolutional.conv2d_transpose import Conv2DTranspose  # noqa: F401
from .convolutional.conv3d import Conv3D  # noqa: F401
from .convolutional.depthwise_conv2d import DepthwiseConv2D  # noqa: F401
from .convolutional.separable_conv2d import SeparableConv2D  # noqa: F401
from .core.dense import Dense  # noqa: F401
from .core.einsum_dense import EinsumDense  # noqa: F401
from .core.embedding import Embedding  # noqa: F401
from .core.identity import Identity  # noqa: F401
from .core.input_layer import Input, InputLayer  # noqa: F401
from .core.lambda_layer import Lambda  # noqa: F401
from .core.masking import Masking  # noqa: F401
from .merging.add import Add, add  # noqa: F401
from .merging.average import Average, average  # noqa: F401
from .merging.concatenate import Concatenate, concatenate  # noqa: F401
from .merging.dot import Dot, dot  # noqa: F401
from .merging.maximum import Maximum, maximum  # noqa: F401
from .merging.minimum import Minimum, minimum  # noqa: F401
from .merging.multiply import Multiply, multiply  # noqa: F401
from .merging.subtract import Subtract, subtract  # noqa: F401
from .normalization.batch_normalization import BatchNormalization  # noqa: F401
from .normalization.group_normalization import GroupNormalization  # noqa: F401
from .normalization.layer_normalization import LayerNormalization  # noqa: F401
from .normalization.unit_normalization import UnitNormalization  # noqa: F401
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
from .preprocessing.category_encoding import CategoryEncoding  # noqa: F401
from .preprocessing.center_crop import CenterCrop  # noqa: F401
from .preprocessing.discretization import Discretization  # noqa: F401
from .preprocessing.hashing import Hashing  # noqa: F401
from .preprocessing.integer_lookup import IntegerLookup  # noqa: F401
from .preprocessing.string_lookup import StringLookup  # noqa: F401
from .preprocessing.normalization import Normalization  # noqa: F401
from .preprocessing.random_brightness import RandomBrightness  # noqa: F401
from .preprocessing.random_contrast import RandomContrast  # noqa: F401
from .preprocessing.random_flip import RandomFlip  # noqa: F401
from .preprocessing.random_rotation import RandomRotation  # noqa: F401
from .preprocessing.random_translation import RandomTranslation  # noqa: F401
from .preprocessing.random_zoom import RandomZoom  # noqa: F401
from .preprocessing.rescaling import Rescaling  # noqa: F401
from .preprocessing.resizing import Resizing  # noqa: F401
from .preprocessing.text_vectorization import TextVectorization  # noqa: F401
from .regularization.activity_regularization import ActivityRegularization  # noqa: F401
from .regularization.alpha_dropout import AlphaDropout  # noqa: F401
from .regularization.dropout import Dropout  # noqa: F401
from .regularization.gaussian_dropout import GaussianDropout  # noqa: F401
from .regularization.gaussian_noise import GaussianNoise  # noqa: F401
from .regularization.spatial_dropout import SpatialDropout1D, SpatialDropout2D, SpatialDropout3D  # noqa: F401
from .reshaping.cropping1d import Cropping1D  # noqa: F401
from .reshaping.cropping2d import Cropping2D  # noqa: F401
from .reshaping.cropping3d import Cropping3D  # noqa: F401
from .reshaping.flatten import Flatten  # noqa: F401
from .reshaping.permute import Permute  # noqa: F401
from .reshaping.repeat_vector import RepeatVector  # noqa: F401
from .reshaping.reshape import Reshape  # noqa: F401
from .reshaping.up_sampling1d import UpSampling1D  # noqa: F401
from .reshaping.up_sampling2d import UpSampling2D  # noqa: F401
from .reshaping.up_sampling3d import UpSampling3D  # noqa: F401
from .reshaping.zero_padding1d import ZeroPadding1D  # noqa: F401
from .reshaping.zero_padding2d import ZeroPadding2D  # noqa: F401
from .reshaping.zero_padding3d import ZeroPadding3D  # noqa: F401
from .rnn.bidirectional import Bidirectional  # noqa: F401
from .rnn.cells import GRUCell, LSTMCell, SimpleRNNCell  # noqa: F401
from .rnn.gru import GRU  # noqa: F401
from .rnn.lstm import LSTM  # noqa: F401
from .rnn.rnn import RNN  # noqa: F401
from .rnn.simple_rnn import SimpleRNN  # noqa: F401
from .rnn.stacked_rnn_cells import StackedRNNCells  # noqa: F401
from .rnn.time_distributed import TimeDistributed  # noqa: F401
from ..saving.object_config import deserialize_layer as deserialize, serialize_layer as serialize  # noqa: F401,E402
from .convolutional.conv1d import Conv1D as Convolution1D  # noqa: F401
from .convolutional.conv1d_transpose import Conv1DTranspose as Convolution1DTranspose  # noqa: F401
from .convolutional.conv2d import Conv2D as Convolution2D  # noqa: F401
from .convolutional.conv2d_transpose import Conv2DTranspose as Convolution2DTranspose  # noqa: F401
from .convolutional.conv3d import Conv3D as Convolution3D  # noqa: F401
from .convolutional.conv3d_transpose import Conv3DTranspose  # noqa: F401
from .convolutional.conv3d_transpose import Conv3DTranspose as Convolution3DTranspose  # noqa: F401
from .convolutional.depthwise_conv1d import DepthwiseConv1D  # noqa: F401
from .convolutional.separable_conv1d import SeparableConv1D  # noqa: F401
from .convolutional.separable_conv1d import SeparableConv1D as SeparableConvolution1D  # noqa: F401
from .convolutional.separable_conv2d import SeparableConv2D as SeparableConvolution2D  # noqa: F401
from .pooling.adaptive_average_pooling1d import AdaptiveAveragePooling1D  # noqa: F401
from .pooling.adaptive_max_pooling1d import AdaptiveMaxPooling1D  # noqa: F401
from .pooling.adaptive_average_pooling2d import AdaptiveAveragePooling2D  # noqa: F401
from .pooling.adaptive_max_pooling2d import AdaptiveMaxPooling2D  # noqa: F401
from .pooling.adaptive_average_pooling3d import AdaptiveAveragePooling3D  # noqa: F401
from .pooling.adaptive_max_pooling3d import AdaptiveMaxPooling3D  # noqa: F401
from .normalization.rms_normalization import RMSNormalization  # noqa: F401
from .rnn.conv_lstm1d import ConvLSTM1D  # noqa: F401
from .rnn.conv_lstm2d import ConvLSTM2D  # noqa: F401
from .rnn.conv_lstm3d import ConvLSTM3D  # noqa: F401
from .attention.grouped_query_attention import GroupQueryAttention  # noqa: F401
from .preprocessing.pipeline import Pipeline  # noqa: F401
from .input_spec import InputSpec  # noqa: F401
from .core.wrapper import Wrapper  # noqa: F401
from .preprocessing.auto_contrast import AutoContrast  # noqa: F401
from .preprocessing.random_color_degeneration import RandomColorDegeneration  # noqa: F401
from .preprocessing.random_grayscale import RandomGrayscale  # noqa: F401
from .preprocessing.random_invert import RandomInvert  # noqa: F401
from .preprocessing.random_posterization import RandomPosterization  # noqa: F401
from .preprocessing.random_saturation import RandomSaturation  # noqa: F401
from .preprocessing.solarization import Solarization  # noqa: F401
from .preprocessing.cut_mix import CutMix  # noqa: F401
from .preprocessing.mix_up import MixUp  # noqa: F401
from .preprocessing.random_crop import RandomCrop  # noqa: F401
from .preprocessing.random_hue import RandomHue  # noqa: F401
from .preprocessing.random_sharpness import RandomSharpness  # noqa: F401
from .preprocessing.random_color_jitter import RandomColorJitter  # noqa: F401
from .preprocessing.equalization import Equalization  # noqa: F401
from .preprocessing.random_erasing import RandomErasing  # noqa: F401
from .preprocessing.random_gaussian_blur import RandomGaussianBlur  # noqa: F401
from .normalization.spectral_normalization import SpectralNormalization  # noqa: F401
from .core.reversible_embedding import ReversibleEmbedding  # noqa: F401
from .preprocessing.hashed_crossing import HashedCrossing  # noqa: F401
from .preprocessing.random_shear import RandomShear  # noqa: F401
from .preprocessing.mel_spectrogram import MelSpectrogram  # noqa: F401
from .preprocessing.stft_spectrogram import STFTSpectrogram  # noqa: F401
from .preprocessing.rand_augment import RandAugment  # noqa: F401
from .preprocessing.contrast_limited_equalization import ContrastLimitedAdaptiveHistogramEqualization  # noqa: F401,E501
from .preprocessing.max_num_bounding_boxes import MaxNumBoundingBoxes  # noqa: F401
from .preprocessing.random_perspective import RandomPerspective  # noqa: F401
from .preprocessing.random_elastic_transform import RandomElasticTransform  # noqa: F401
from .preprocessing.aug_mix import AugMix  # noqa: F401
