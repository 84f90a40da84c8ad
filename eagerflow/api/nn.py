"""`tf.nn`: activations, softmax, losses, convolution, pooling, dropout, normalization."""
from ..ops.conv import (avg_pool, avg_pool2d, conv1d, conv2d, conv2d_transpose, max_pool,  # noqa: F401
                        max_pool2d)
from ..ops.nn import (batch_normalization, bias_add, dropout, elu, gelu, l2_loss, leaky_relu,  # noqa: F401
                      log_softmax, moments, relu, relu6, selu, sigmoid, sigmoid_cross_entropy_with_logits,
                      silu, softmax, softmax_cross_entropy_with_logits, softplus,
                      sparse_softmax_cross_entropy_with_logits, swish, tanh)
from ..ops.ordering import top_k  # noqa: F401,E402  (TensorFlow exports it under tf.nn; it lives with the sorts)
