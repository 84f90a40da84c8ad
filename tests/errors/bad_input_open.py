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
    "concat_empty": ('eager',),  # eager: TF's words are its kernel registry's (qint32 only)
    "cond_pred_float": ('traced',),  # same class; TF names its node 'cond/switch_pred/_2'
    # MKL's kernel name (_MklNativeConv2D) in TensorFlow's message; eagerflow names the op, Conv2D
    "conv2d_dtypes": ('eager',),
    # TensorFlow's MKL kernel answers a bogus [1,4,4,2]; its reference kernel (and eagerflow) an empty [1,0,0,3]
    "conv2d_too_big": ('eager',),
    # MKL's AbortedError; TensorFlow's reference kernel refuses the sizes with InvalidArgumentError, as eagerflow does
    "conv2d_transpose_shape": ('eager', 'traced'),
    "dataset_rebatch_ragged": ('eager', 'traced'),  # same class; TF's words differ by its mode
    # eagerflow raises TensorFlow's IndexError as it is; TensorFlow's AutoGraph wraps it in its StagingError
    "parallel_stack_empty": ('traced',),
    # eagerflow's Assert op words its failure as TensorFlow does eagerly, in graphs too (ops/debugging/checks.py)
    "random_crop_big": ('traced',),
    "range_bool": ('eager', 'traced'),  # TF: an internal dtype assert fails (AssertionError)
    "range_str": ('eager', 'traced'),  # TF: an internal dtype assert fails (AssertionError)
    "while_body_arity": ('traced',),  # Python's TypeError, naming AutoGraph's function
    "while_cond_float": ('traced',),  # same class; TF names its node 'while/LoopCond/_8'
}
