"""`tf.keras.backend` (`K`): the legacy Keras backend functions TensorFlow 2.21 still ships, as thin
wrappers over eagerflow's ops, with Keras' argument names and defaults (`K.mean(x, axis=None,
keepdims=False)`), the float type and epsilon settings, and variable helpers (`K.get_value`).

Old TF 2.x programs lean on these (`from tensorflow.keras import backend as K`); each one here
does what Keras 3.15's does, checked against TensorFlow 2.21 (tests/keras/test_backend.py). The
convolution, pooling, RNN and CTC helpers are not provided.
"""
from __future__ import annotations

from .backend_settings import (  # noqa: F401, A004 - Keras' names, some shadowing builtins
    backend, floatx, set_floatx, epsilon, set_epsilon, image_data_format, set_image_data_format,
    clear_session, get_uid,
)
from .backend_values import (  # noqa: F401, A004 - Keras' names, some shadowing builtins
    standardize_dtype, dtype, is_float_dtype, is_int_dtype, result_type, cast_to_floatx, is_keras_tensor,
    is_sparse, to_dense, int_shape, ndim, shape, count_params, eval, get_value, batch_get_value, set_value,
    batch_set_value, variable, constant, cast, update, update_add, update_sub, moving_average_update, zeros,
    ones, eye, zeros_like, ones_like, arange,
)
from .backend_math import (  # noqa: F401, A004 - Keras' names, some shadowing builtins
    abs, exp, log, sqrt, square, sin, cos, tanh, sign, round, sigmoid, softplus, softsign, equal, not_equal,
    greater, greater_equal, less, less_equal, maximum, minimum, pow, sum, prod, mean, std, var, max, min, all,
    any, argmax, argmin, cumsum, cumprod, clip, l2_normalize, relu, elu, hard_sigmoid, softmax,
    binary_crossentropy, categorical_crossentropy, sparse_categorical_crossentropy,
)
from .backend_arrays import (  # noqa: F401, A004 - Keras' names, some shadowing builtins
    reshape, transpose, permute_dimensions, expand_dims, squeeze, flatten, batch_flatten, concatenate, stack,
    tile, repeat, repeat_elements, reverse, gather, one_hot, temporal_padding, spatial_2d_padding, dot,
    batch_dot, switch, in_top_k, stop_gradient, bias_add, batch_normalization, dropout, random_normal,
    random_uniform, truncated_normal, random_bernoulli, map_fn, foldl, foldr, gradients, name_scope,
)
