"""`tf.nn`: activations, softmax, losses, convolution, pooling, dropout, normalization."""
from ..ops.conv import conv1d, conv2d, conv2d_transpose  # noqa: F401
from ..ops.embedding import embedding_lookup  # noqa: F401
from ..ops.losses import (l2_loss, sigmoid_cross_entropy_with_logits,  # noqa: F401
                          softmax_cross_entropy_with_logits, sparse_softmax_cross_entropy_with_logits)
from ..ops.nn import (batch_normalization, bias_add, dropout, elu, gelu, leaky_relu, log_softmax,  # noqa: F401
                      moments, relu, relu6, selu, sigmoid, silu, softmax, softplus, swish, tanh)
from ..ops.ordering import top_k  # noqa: F401,E402  (TensorFlow exports it under tf.nn; it lives with the sorts)
from ..ops.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d  # noqa: F401
