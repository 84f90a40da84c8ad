"""tf.nn.ctc_loss against TensorFlow 2.21: losses and gradients w.r.t. the logits (of
sum(loss * [1, 2, 3])) for dense labels (time- or batch-major logits, blank 0, -1 or 2) and
SparseTensor labels (TensorFlow's CTCLoss op), a label too long for its logits (dense: TensorFlow's
large finite loss and its gradient; sparse: its InvalidArgumentError), zero lengths, float16, and
the float64 refusal. Logits come from a NumPy RandomState stream rebuilt here; finite-difference
checks of the gradient are in tests/gradcheck/test_ctc_grads.py."""
import numpy as np
import pytest

import eagerflow as tf

LOGITS = np.random.RandomState(11).randn(6, 3, 5).astype("float32")  # [time, batch, classes]
LABELS = np.array([[1, 2, 2, 0], [3, 1, 4, 2], [4, 0, 0, 0]], np.int32)
LABEL_LENGTH = np.array([3, 3, 1], np.int32)
LOGIT_LENGTH = np.array([6, 5, 3], np.int32)
IMPOSSIBLE = np.array([[1, 2, 1, 2], [1, 1, 1, 1], [3, 0, 0, 0]], np.int32)  # rows 0, 1 cannot fit
SPARSE_DENSE = np.array([[1, 2, 2, 0], [3, 1, 4, 0], [4, 0, 0, 0]], np.int32)

DENSE_TM_LOSS = [8.185019493103027, 5.735740661621094, 3.9451749324798584]
DENSE_BLANK_M1_LOSS = [4.710461139678955, 6.0816144943237305, 2.7401485443115234]
DENSE_BLANK_2_LOSS = [9.14576530456543, 5.825653553009033, 3.370244026184082]
SPARSE_BLANK0_LOSS = [8.185019493103027, 5.735740661621094, 3.9451746940612793]
DENSE_IMPOSSIBLE_LOSS = [708.8187866210938, 715.2973022460938, 3.3402037620544434]
DENSE_ZERO_LABEL_LOSS = [12.403703689575195, 5.735740661621094, 706.8936157226562]
DENSE_F16_LOSS = [8.1875, 5.734375, 3.9453125]
DENSE_TM_GRAD = np.array(
    [[[ 0.2746996, -0.47983  ,  0.0752939,  0.0086076,  0.1212288],
      [-0.0754568,  0.2570165,  0.602551 , -0.9355472,  0.1514365],
      [-1.9453021,  0.3691293,  1.1838924,  1.0411413, -0.6488604]],
    
     [[ 0.0230931, -0.237197 ,  0.0450165,  0.1111825,  0.0579049],
      [-0.0197614, -0.1848768,  0.3339189, -0.4327335,  0.3034527],
      [-0.9143547,  1.227707 ,  0.3104605,  0.4940017, -1.1178143]],
    
     [[-0.2737707,  0.0978979, -0.2642003,  0.1693099,  0.2707632],
      [-0.1762951, -1.1476057,  0.7862968, -0.0143919,  0.5519959],
      [-0.1446779,  0.1476124,  0.4260329,  0.5548927, -0.9838599]],
    
     [[-0.3579567,  0.3877821, -0.1830705,  0.0579155,  0.0953296],
      [-0.1146817, -0.4313186,  0.5944005,  0.3416081, -0.3900085],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.3102303,  0.2660823, -0.6424992,  0.0667606,  0.6198865],
      [-0.1986212,  0.1737156,  1.4059877,  0.1001428, -1.4812249],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.1801297,  0.317111 , -0.248581 ,  0.0856624,  0.0259373],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]]])
DENSE_BLANK_M1_GRAD = np.array(
    [[[-0.2588193,  0.0918256,  0.0752939,  0.0086076,  0.0830922],
      [ 0.3193023,  0.2570165, -1.2385153,  0.6696936, -0.0074972],
      [ 0.2448488,  0.3691293,  1.1838924, -1.630291 , -0.1675794]],
    
     [[-0.1402389, -0.405929 ,  0.5538437,  0.1111825, -0.1188584],
      [-0.5688529,  0.1185778, -0.2774819,  0.7606837, -0.0329268],
      [ 0.6353179,  1.2277071,  0.3104606, -1.577744 , -0.5957416]],
    
     [[ 0.1371421, -0.2687509,  0.205715 ,  0.1693099, -0.2434161],
      [-0.4730652,  0.2600595,  0.5521836, -0.0101896, -0.3289883],
      [ 0.3992892,  0.1476124,  0.4260329, -0.0633521, -0.9095824]],
    
     [[ 0.1079276, -0.3616998,  0.3510452,  0.0579155, -0.1551885],
      [-0.325718 ,  0.4015812,  0.5944005, -0.6594647, -0.010799 ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[ 0.014811 ,  0.0072531,  0.0324596,  0.0667606, -0.1212844],
      [ 0.1286833,  0.1737156,  1.4059876, -1.2238828, -0.4845038],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[ 0.4829511, -0.6317212,  0.0883381,  0.0856624, -0.0252305],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]]])
DENSE_BLANK_2_GRAD = np.array(
    [[[ 0.7030439, -0.7394908, -0.0933896,  0.0086076,  0.1212288],
      [ 0.3193023,  0.2570165, -0.5450026,  0.6696936, -0.7010098],
      [-0.2747166,  0.3691293, -1.2965423,  1.0411413,  0.1609884]],
    
     [[ 0.0374412, -0.1134964,  0.1074983, -0.0893479,  0.0579049],
      [ 0.4833668, -0.2493109, -0.0568911,  0.7606837, -0.9378486],
      [-1.7857335,  1.227707 , -0.2684881,  0.4940017,  0.3325125]],
    
     [[ 0.2019241,  0.1334936,  0.0614605, -0.6676414,  0.2707632],
      [ 0.096668 , -0.867241 ,  0.355469 ,  0.0411696,  0.3739344],
      [-1.2462986,  0.1476124, -0.9283794,  0.5548927,  1.4721729]],
    
     [[ 0.1079276,  0.3877821, -0.5595687, -0.0314706,  0.0953296],
      [-0.7638164, -0.2559442,  0.3807592,  0.3416081,  0.297393 ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[ 0.014811 ,  0.2660823, -0.2195527, -0.6812271,  0.6198865],
      [-0.7716359,  0.1737156,  0.3063071,  0.1001428,  0.1914705],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[ 0.4829512,  0.317111 , -0.2946766, -0.5313227,  0.0259374],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]]])
DENSE_IMPOSSIBLE_GRAD = np.array(
    [[[-0.0326107, -0.0807727, -0.0164535,  0.0086076,  0.1212288],
      [-0.788724 , -0.6348977,  0.602551 ,  0.6696936,  0.1514365],
      [-0.3877993,  0.3691293,  1.1838924, -1.3262105,  0.1609884]],
    
     [[-0.0143209, -0.0487897, -0.1059914,  0.1111825,  0.0579049],
      [-1.1226145, -0.2753938,  0.3339189,  0.7606837,  0.3034527],
      [-0.4636625,  1.227707 ,  0.3104605, -1.4070178,  0.3325125]],
    
     [[-0.2010408,  0.0937079, -0.3327442,  0.1693099,  0.2707632],
      [-0.6781217, -0.8557578,  0.7862968,  0.0411696,  0.7064001],
      [-1.2244968,  0.1476124,  0.4260329, -0.8213214,  1.4721729]],
    
     [[ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [-0.5873094, -0.6461301,  0.5944005,  0.3416081,  0.297393 ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [-0.7224363, -0.9752041,  1.4059877,  0.1001428,  0.1914705],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [-1.4959452, -0.1215344,  0.4285564,  1.1274046,  0.061538 ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]]])
DENSE_ZERO_LABEL_GRAD = np.array(
    [[[-0.2969561,  0.0918256,  0.0752939,  0.0086076,  0.1212288],
      [-0.0754568,  0.2570165,  0.602551 , -0.9355472,  0.1514365],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.9625587,  0.2396275,  0.5538437,  0.1111825,  0.0579049],
      [-0.0197614, -0.1848768,  0.3339189, -0.4327335,  0.3034527],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.7980759,  0.1522878,  0.205715 ,  0.1693099,  0.2707632],
      [-0.1762951, -1.1476057,  0.7862968, -0.0143919,  0.5519959],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.8920724,  0.3877821,  0.3510452,  0.0579155,  0.0953296],
      [-0.1146817, -0.4313186,  0.5944005,  0.3416081, -0.3900085],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.985189 ,  0.2660823,  0.0324596,  0.0667606,  0.6198865],
      [-0.1986212,  0.1737156,  1.4059877,  0.1001428, -1.4812249],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]],
    
     [[-0.5170488,  0.317111 ,  0.0883381,  0.0856624,  0.0259373],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ],
      [ 0.       ,  0.       ,  0.       ,  0.       ,  0.       ]]])

MODES = {"eager": lambda f, *a: f(*a), "function": lambda f, *a: tf.function(f)(*a)}
WEIGHTS = [1.0, 2.0, 3.0]


def _loss_and_grad(logits, **kwargs):
    def run(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.nn.ctc_loss(logits=x, **kwargs)
            total = tf.reduce_sum(loss * tf.constant(WEIGHTS, loss.dtype))
        return loss, tape.gradient(total, x)
    return run


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", ["time-major", "batch-major", "int64"])
def test_dense_labels_match_tensorflow(mode, case):
    logits, kwargs = LOGITS, dict(labels=LABELS, label_length=LABEL_LENGTH, logit_length=LOGIT_LENGTH)
    if case == "batch-major":
        logits, kwargs["logits_time_major"] = LOGITS.transpose(1, 0, 2), False
    if case == "int64":
        kwargs = {k: v.astype(np.int64) for k, v in kwargs.items()}
    loss, grad = MODES[mode](_loss_and_grad(tf.constant(logits), **kwargs), tf.constant(logits))
    assert loss.dtype == tf.float32 and loss.shape == (3,)
    np.testing.assert_allclose(loss.numpy(), DENSE_TM_LOSS, rtol=1e-6)
    expected = DENSE_TM_GRAD if case != "batch-major" else DENSE_TM_GRAD.transpose(1, 0, 2)
    np.testing.assert_allclose(grad.numpy(), expected, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_blank_index_last_and_in_the_middle(mode):
    loss, grad = MODES[mode](_loss_and_grad(LOGITS, labels=LABELS - 1, label_length=LABEL_LENGTH,
                                            logit_length=LOGIT_LENGTH, blank_index=-1), tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_BLANK_M1_LOSS, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), DENSE_BLANK_M1_GRAD, atol=1e-6)
    labels = np.array([[1, 3, 3, 0], [4, 1, 0, 3], [0, 0, 0, 0]], np.int32)
    loss, grad = MODES[mode](_loss_and_grad(LOGITS, labels=labels, label_length=LABEL_LENGTH,
                                            logit_length=LOGIT_LENGTH, blank_index=2), tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_BLANK_2_LOSS, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), DENSE_BLANK_2_GRAD, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_unique_labels_give_the_same_loss(mode):
    unique = tf.nn.ctc_unique_labels(LABELS)
    assert unique[0].dtype == tf.int64 and unique[1].dtype == tf.int32
    assert unique[0].numpy().tolist() == [[1, 2, 0, 0], [3, 1, 4, 2], [4, 0, 0, 0]]
    assert unique[1].numpy().tolist() == [[0, 1, 1, 2], [0, 1, 2, 3], [0, 1, 1, 1]]
    loss, _ = MODES[mode](_loss_and_grad(LOGITS, labels=LABELS, label_length=LABEL_LENGTH,
                                         logit_length=LOGIT_LENGTH, unique=unique), tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_TM_LOSS, rtol=1e-6)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("blank,major", [(0, True), (-1, True), (0, False)])
def test_sparse_labels_match_tensorflow(mode, blank, major):
    values = tf.sparse.from_dense(tf.constant(SPARSE_DENSE))
    if blank == -1:  # the same labels, numbered for a blank at the end
        values = tf.SparseTensor(values.indices, values.values - 1, values.dense_shape)
    logits = LOGITS if major else LOGITS.transpose(1, 0, 2)
    loss, grad = MODES[mode](_loss_and_grad(logits, labels=values, label_length=None, logit_length=LOGIT_LENGTH,
                                            blank_index=blank, logits_time_major=major), tf.constant(logits))
    expected_loss, expected_grad = (DENSE_TM_LOSS, DENSE_TM_GRAD) if blank == 0 else (DENSE_BLANK_M1_LOSS,
                                                                                      DENSE_BLANK_M1_GRAD)
    np.testing.assert_allclose(loss.numpy(), expected_loss, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), expected_grad if major else expected_grad.transpose(1, 0, 2),
                               atol=2e-6)


@pytest.mark.parametrize("mode", MODES)
def test_a_label_longer_than_its_logits(mode):
    """Dense: TensorFlow's large finite loss (LOG_ZERO = log(1e-307) plus the path's cost) and its
    gradient; sparse (TensorFlow's CTCLoss op): its error, naming the first sequence that fails."""
    loss, grad = MODES[mode](_loss_and_grad(LOGITS, labels=IMPOSSIBLE, label_length=[4, 4, 1],
                                            logit_length=[3, 6, 3]), tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_IMPOSSIBLE_LOSS, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), DENSE_IMPOSSIBLE_GRAD, atol=1e-4)  # TF's float32 rounding there
    labels = tf.sparse.from_dense(tf.constant(IMPOSSIBLE))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Not enough time for target transition sequence \(required: 4, available: 3\)0You "
                             r"can turn this error into a warning by using the flag "
                             r"ignore_longer_outputs_than_inputs"):
        MODES[mode](lambda x: tf.nn.ctc_loss(labels, x, None, [3, 6, 3], blank_index=0), tf.constant(LOGITS))


@pytest.mark.parametrize("mode", MODES)
def test_zero_lengths(mode):
    loss, grad = MODES[mode](_loss_and_grad(LOGITS, labels=LABELS, label_length=[0, 3, 1],
                                            logit_length=[6, 5, 0]), tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_ZERO_LABEL_LOSS, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), DENSE_ZERO_LABEL_GRAD, atol=1e-6)


@pytest.mark.parametrize("mode", MODES)
def test_float16_runs_in_float32_and_float64_is_refused(mode):
    loss, grad = MODES[mode](_loss_and_grad(LOGITS.astype(np.float16), labels=LABELS, label_length=LABEL_LENGTH,
                                            logit_length=LOGIT_LENGTH), tf.constant(LOGITS.astype(np.float16)))
    assert loss.dtype == tf.float16 and grad.dtype == tf.float16
    np.testing.assert_allclose(loss.numpy(), DENSE_F16_LOSS, rtol=1e-3)
    np.testing.assert_allclose(grad.numpy(), DENSE_TM_GRAD, atol=2e-3)
    x64 = tf.constant(LOGITS.astype(np.float64))
    if mode == "eager":
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"cannot compute Mul as input #1\(zero-based\) was "
                                                                 r"expected to be a double tensor but is a float"):
            tf.nn.ctc_loss(LABELS, x64, LABEL_LENGTH, LOGIT_LENGTH)
    else:
        with pytest.raises(TypeError, match="Input 'y' of 'Mul' Op has type float32 that does not match type "
                                            "float64 of argument 'x'."):
            tf.function(lambda x: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH))(x64)


def test_sparse_labels_need_a_blank_index():
    labels = tf.sparse.from_dense(tf.constant(SPARSE_DENSE))
    for mode in MODES.values():
        with pytest.raises(ValueError, match=r"^Argument `blank_index` must be provided when `labels` is a "
                                             r"`SparseTensor`.$"):
            mode(lambda x: tf.nn.ctc_loss(labels, x, None, LOGIT_LENGTH), tf.constant(LOGITS))


def test_unknown_time_axis_while_tracing():
    traced = tf.function(lambda x: tf.nn.ctc_loss(LABELS, x, LABEL_LENGTH, LOGIT_LENGTH),
                         input_signature=[tf.TensorSpec([None, 3, 5], tf.float32)])
    np.testing.assert_allclose(traced(tf.constant(LOGITS)).numpy(), DENSE_TM_LOSS, rtol=1e-6)


def test_jit_compile_matches_tensorflow():
    """TensorFlow's XLA compiles the dense CTC loss (the sparse one it refuses: no CTCLoss kernel)."""
    pytest.importorskip("jax")
    loss, grad = tf.function(_loss_and_grad(LOGITS, labels=IMPOSSIBLE, label_length=[4, 4, 1],
                                            logit_length=[3, 6, 3]), jit_compile=True)(tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_IMPOSSIBLE_LOSS, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), DENSE_IMPOSSIBLE_GRAD, atol=1e-4)
    loss, grad = tf.function(_loss_and_grad(LOGITS, labels=LABELS, label_length=LABEL_LENGTH,
                                            logit_length=LOGIT_LENGTH), jit_compile=True)(tf.constant(LOGITS))
    np.testing.assert_allclose(loss.numpy(), DENSE_TM_LOSS, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), DENSE_TM_GRAD, atol=1e-6)
    labels = tf.sparse.from_dense(tf.constant(SPARSE_DENSE))
    with pytest.raises(tf.errors.InvalidArgumentError, match="No registered 'CTCLoss' OpKernel for XLA_CPU_JIT"):
        tf.function(lambda x: tf.nn.ctc_loss(labels, x, None, LOGIT_LENGTH, blank_index=0),
                    jit_compile=True)(tf.constant(LOGITS))


@pytest.mark.parametrize("mode", MODES)
def test_dtype_refusals_in_tensorflows_words(mode):
    """TensorFlow's dense path meets a bad dtype in its LogSoftmax (logits) or OneHot (labels)."""
    def run(f):
        return f() if mode == "eager" else tf.function(f)()
    eager = mode == "eager"
    with pytest.raises(tf.errors.InvalidArgumentError if eager else TypeError,
                       match=r"Value for attr 'TI' of float is not in the list of allowed values: uint8, int8, "
                             r"int32, int64" if eager else r"Value passed to parameter 'indices' has DataType "
                                                           r"float32 not in list of allowed values: uint8, int8"):
        run(lambda: tf.nn.ctc_loss(LABELS.astype(np.float32), LOGITS, LABEL_LENGTH, LOGIT_LENGTH))
    with pytest.raises(tf.errors.InvalidArgumentError if eager else TypeError,
                       match=r"Value for attr 'T' of int32 is not in the list of allowed values: half, bfloat16, "
                             r"float, double" if eager else r"Value passed to parameter 'logits' has DataType "
                                                            r"int32 not in list of allowed values: float16"):
        run(lambda: tf.nn.ctc_loss(LABELS, LOGITS.astype(np.int32), LABEL_LENGTH, LOGIT_LENGTH))
    loss = run(lambda: tf.nn.ctc_loss(LABELS.astype(np.uint8), LOGITS, LABEL_LENGTH, LOGIT_LENGTH))
    np.testing.assert_allclose(loss.numpy(), DENSE_TM_LOSS, rtol=1e-6)
