"""`tf.nn`: activations, softmax, losses, convolution, pooling, dropout, normalization."""
from ..ops.nn.conv import conv1d, conv2d, conv2d_transpose  # noqa: F401
from ..ops.nn.embedding import embedding_lookup  # noqa: F401
from ..ops.nn.losses import (l2_loss, sigmoid_cross_entropy_with_logits,  # noqa: F401
                          softmax_cross_entropy_with_logits, sparse_softmax_cross_entropy_with_logits)
from ..ops.nn.basic import (batch_normalization, bias_add, dropout, elu, gelu, leaky_relu, log_softmax,  # noqa: F401
                      moments, relu, relu6, selu, sigmoid, silu, softmax, softplus, swish, tanh)
from ..ops.array.ordering import top_k  # noqa: F401,E402  (TensorFlow exports it under tf.nn; it lives with the sorts)
from ..ops.nn.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d  # noqa: F401

# --- tf.nn breadth: depthwise/separable convolution, space/depth moves, LRN, the composed losses and
# moment helpers, pool/convolution/conv_transpose (ops/nn/depthwise.py, space_depth.py, lrn.py, nn_extra.py) ---
from ..ops.nn.depthwise import depthwise_conv2d, separable_conv2d  # noqa: F401,E402
from ..ops.nn.lrn import local_response_normalization, lrn  # noqa: F401,E402
from ..ops.math.counting import in_top_k, zero_fraction  # noqa: F401,E402
from ..ops.nn.convolution import (avg_pool1d, conv1d_transpose, conv_transpose, convolution,  # noqa: F401,E402
                                  max_pool1d, pool)
from ..ops.nn.losses import (compute_average_loss, log_poisson_loss, scale_regularization_loss,  # noqa: F401,E402
                             weighted_cross_entropy_with_logits)
from ..ops.nn.basic import crelu  # noqa: F401,E402
from ..ops.nn.statistics import normalize_moments, sufficient_statistics, weighted_moments  # noqa: F401,E402
from ..ops.linalg.norms import l2_normalize  # noqa: F401,E402
from ..ops.array.space_depth import depth_to_space, space_to_depth  # noqa: F401,E402
from ..ops.math.special import softsign  # noqa: F401,E402

# The CTC ops (ops/nn/ctc*.py) and space_to_batch load on first use, not at `import eagerflow`.
_LAZY_CTC = {"ctc_loss": "..ops.nn.ctc", "ctc_unique_labels": "..ops.nn.ctc",
             "ctc_beam_search_decoder": "..ops.nn.ctc_decoders", "ctc_greedy_decoder": "..ops.nn.ctc_decoders",
             "space_to_batch": "..ops.array.space_batch"}


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
