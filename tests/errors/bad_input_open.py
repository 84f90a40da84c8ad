"""Rows of bad_input_cases.py where eagerflow still answers otherwise than TensorFlow 2.21, and in which
mode: test_bad_input.py marks them xfail(strict=True), so that a row fixed must leave this list (and a
row not listed must keep matching). Most traced ones are graph-mode shape-inference wording; a few
rows differ by TensorFlow build details (MKL kernels named in messages, MKL refusing a conv2d_transpose).
"""
# Rows whose eager answer depends on what ran before (marked xfail without strict, so the run order of
# the whole suite does not matter). None now: a first eager call that its rule refuses answers with the
# kernel's error where the kernel refuses too, as later calls with a cached verdict do (ops/validation.py).
ORDER_DEPENDENT = {
}

OPEN = {
    "argmax_axis_out": ('traced',),
    "avg_pool2d_int": ('traced',),
    "base64_bad": ('eager', 'traced'),
    "bias_add_rank": ('traced',),
    "bias_add_shape": ('traced',),
    "categorical_neg": ('eager', 'traced'),
    "categorical_rank": ('traced',),
    "concat_empty": ('eager',),  # eager: TF's words are its kernel registry's (qint32 only)
    "cond_pred_float": ('traced',),  # same class; TF names its node 'cond/switch_pred/_2'
    "cond_structures": ('traced',),  # TF: an internal assert fails (AssertionError '[2, 1]')
    "conv1d_padding_foo": ('eager', 'traced'),
    "conv2d_channels": ('traced',),
    "conv2d_data_format": ('eager', 'traced'),
    "conv2d_dilation_zero": ('eager', 'traced'),
    "conv2d_dtypes": ('eager',),
    "conv2d_explicit_pad_len": ('eager', 'traced'),
    "conv2d_filter_rank": ('eager', 'traced'),
    "conv2d_padding_foo": ('eager', 'traced'),
    "conv2d_padding_lower": ('eager', 'traced'),
    "conv2d_too_big": ('eager', 'traced'),
    "conv2d_transpose_shape": ('eager', 'traced'),
    "conv3d_stride_zero": ('eager', 'traced'),
    "cumsum_axis_out": ('traced',),
    "dataset_rebatch_ragged": ('eager', 'traced'),  # same class; TF's words differ by its mode
    "decode_raw_size": ('eager', 'traced'),
    "einsum_bad": ('traced',),
    "einsum_spec": ('eager', 'traced'),
    "generator_bad_alg": ('eager', 'traced'),
    "l2_normalize_axis": ('traced',),
    "logical_and_float": ('eager', 'traced'),
    "matmul_rank1": ('eager', 'traced'),
    "matmul_shapes": ('traced',),
    "max_pool2d_padding": ('eager', 'traced'),
    "max_pool2d_rank": ('eager', 'traced'),
    "max_pool3d_ksize_zero": ('eager', 'traced'),
    "max_pool_batch_ksize": ('eager', 'traced'),
    "moments_axes_out": ('traced',),
    "name_dash": ('traced',),
    "name_fullwidth": ('traced',),
    "name_greek": ('traced',),
    "name_kelvin": ('traced',),
    "name_ligature": ('traced',),
    "name_mu": ('traced',),
    "name_mu_reduce": ('traced',),
    "name_space": ('traced',),
    "name_superscript": ('traced',),
    "normal_float_shape": ('eager', 'traced'),
    "normal_int": ('traced',),
    "parallel_stack_empty": ('eager', 'traced'),
    "poisson_neg_shape": ('traced',),
    "pool_type": ('eager', 'traced'),
    "random_crop_big": ('eager', 'traced'),
    "random_gamma_shape": ('traced',),
    "range_bool": ('eager', 'traced'),  # TF: an internal dtype assert fails (AssertionError)
    "range_str": ('eager', 'traced'),  # TF: an internal dtype assert fails (AssertionError)
    "reduce_all_float": ('eager', 'traced'),
    "reduce_logsumexp_axis_out": ('traced',),
    "reduce_max_axis_out": ('traced',),
    "reduce_mean_axis_matrix": ('traced',),
    "reduce_sum_axis_dup": ('traced',),
    "reduce_sum_axis_float": ('eager', 'traced'),
    "reduce_sum_axis_out": ('traced',),
    "reduce_sum_axis_str": ('traced',),
    "regex_full_match_bad": ('eager', 'traced'),
    "regex_replace_bad": ('eager', 'traced'),
    "saturate_cast_bad": ('eager', 'traced'),
    "softmax_ce_shapes": ('traced',),
    "sort_axis_out": ('eager', 'traced'),
    "sparse_ce_rank": ('eager', 'traced'),
    "stateless_seed_none": ('traced',),
    "stateless_seed_shape": ('traced',),
    "strings_format_count": ('eager', 'traced'),
    "strings_join_shapes": ('traced',),
    "strings_reduce_join_axis": ('traced',),
    "strings_split_float": ('eager', 'traced'),
    "tensordot_axes": ('traced',),
    "to_number_dtype": ('traced',),
    "top_k_neg": ('traced',),
    "top_k_too_big": ('traced',),
    "truncated_normal_str": ('traced',),
    "unicode_decode_bad": ('eager', 'traced'),
    "unicode_encode_bad_cp": ('eager', 'traced'),
    "uniform_neg_shape": ('traced',),
    "uniform_str_shape": ('eager', 'traced'),
    "unsorted_segment_neg": ('eager', 'traced'),
    "while_body_arity": ('traced',),  # Python's TypeError, naming AutoGraph's function
    "while_cond_float": ('traced',),  # same class; TF names its node 'while/LoopCond/_8'
}
