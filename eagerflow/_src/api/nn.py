"""`tf.nn`: activations, softmax, losses, convolution, pooling, dropout, normalization and moments.
The CTC ops and space_to_batch load on first use (the table at the end), not at `import eagerflow`."""
# Activations and softmax.
from ..ops.nn.basic import (elu, gelu, leaky_relu, log_softmax, relu, relu6, selu, sigmoid, silu, softmax,  # noqa: F401
                      softplus, swish, tanh)
from ..ops.nn.basic import crelu  # noqa: F401
from ..ops.math.special import softsign  # noqa: F401

# Losses.
from ..ops.nn.losses import (l2_loss, sigmoid_cross_entropy_with_logits,  # noqa: F401
                          softmax_cross_entropy_with_logits, sparse_softmax_cross_entropy_with_logits)
from ..ops.nn.losses import (compute_average_loss, log_poisson_loss, scale_regularization_loss,  # noqa: F401
                            weighted_cross_entropy_with_logits)

# Convolution, pooling and moves between space and depth.
from ..ops.nn.conv import conv1d, conv2d, conv2d_transpose  # noqa: F401
from ..ops.nn.depthwise import depthwise_conv2d, separable_conv2d  # noqa: F401
from ..ops.nn.convolution import avg_pool1d, conv1d_transpose, conv_transpose, convolution, max_pool1d, pool  # noqa: F401
from ..ops.nn.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d  # noqa: F401
from ..ops.nn.volumes import conv3d, max_pool3d  # noqa: F401
from ..ops.array.space_depth import depth_to_space, space_to_depth  # noqa: F401
from ..ops.nn.basic import bias_add  # noqa: F401

# Dropout, normalization and moments.
from ..ops.nn.basic import batch_normalization, dropout, moments  # noqa: F401
from ..ops.nn.lrn import local_response_normalization, lrn  # noqa: F401
from ..ops.linalg.norms import l2_normalize  # noqa: F401
from ..ops.nn.statistics import normalize_moments, sufficient_statistics, weighted_moments  # noqa: F401

# Lookups and ranking.
from ..ops.nn.embedding import embedding_lookup  # noqa: F401
from ..ops.array.ordering import top_k  # noqa: F401 - TensorFlow exports it under tf.nn; it lives with the sorts
from ..ops.math.counting import in_top_k, zero_fraction  # noqa: F401

# Names that load on first use: name -> module of ops/ that defines it.
_LAZY_CTC = {"ctc_loss": "..ops.nn.ctc", "ctc_unique_labels": "..ops.nn.ctc",
             "ctc_beam_search_decoder": "..ops.nn.ctc_decoders", "ctc_greedy_decoder": "..ops.nn.ctc_decoders",
             "space_to_batch": "..ops.array.space_batch", "max_pool_with_argmax": "..ops.nn.pooling_argmax"}


def __getattr__(name):
    module = _LAZY_CTC.get(name)
    if module is None:
        raise AttributeError(f"module 'tf.nn' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module, __package__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY_CTC))
