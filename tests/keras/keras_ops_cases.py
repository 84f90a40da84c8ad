"""The keras.ops calls compared with Keras 3.15 on TF 2.21: make_cases(O, tf) builds them over either
eagerflow (the tests) or TensorFlow's Keras (make_ops_oracle.py, which records keras3_ops_oracle.json), so
both sides run the very same calls. Only APIs both share appear here (tf.constant, tf.GradientTape)."""
import numpy as np


def make_cases(O, tf):  # noqa: N803 - O is keras.ops, as in the other ops tests
    x = tf.constant([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]])
    i = tf.constant([[1, 2, 3], [4, 5, 6]])
    b = tf.constant([True, False, True])
    v = tf.constant([3.0, 1.0, 2.0, 5.0])
    iv = tf.constant([3, 1, 2, 5])
    nv = tf.constant([1.0, np.nan, 3.0, -2.0])
    nm = tf.constant([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]])
    m = tf.constant([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    r = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10.0 - 1.0)
    img = tf.constant(np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3) / 96.0)
    k = tf.constant(np.linspace(-1, 1, 3 * 3 * 3 * 2, dtype=np.float32).reshape(3, 3, 3, 2))
    kt = tf.transpose(k, (0, 1, 3, 2))
    seq = tf.constant(np.linspace(-1, 1, 2 * 5 * 2, dtype=np.float32).reshape(2, 5, 2))
    q = tf.constant(np.linspace(-1, 1, 2 * 3 * 2 * 4, dtype=np.float32).reshape(2, 3, 2, 4))
    kk = tf.constant(np.cos(np.arange(2 * 4 * 2 * 4, dtype=np.float32)).reshape(2, 4, 2, 4))

    def grad(f, at):
        with tf.GradientTape() as tape:
            tape.watch(at)
            y = tf.reduce_sum(f(at))
        return tape.gradient(y, at)

    N = O.numpy
    c = {
        # --- nn: new activations, with int inputs for the dtype rule
        "celu": lambda: O.celu(x, 0.5), "celu_i": lambda: O.celu(i), "glu": lambda: O.glu(r), "glu_ax": lambda: O.glu(x[:, :2], axis=1),
        "hard_shrink": lambda: O.hard_shrink(x, 1.0), "hard_tanh": lambda: O.hard_tanh(x), "hard_tanh_i": lambda: O.hard_tanh(i),
        "soft_shrink": lambda: O.soft_shrink(x, 0.75), "tanh_shrink": lambda: O.tanh_shrink(x), "threshold": lambda: O.threshold(x, 0.6, -7.0),
        "sparse_plus": lambda: O.sparse_plus(x / 2.0), "sparse_sigmoid": lambda: O.sparse_sigmoid(x / 2.0), "sparsemax": lambda: O.sparsemax(x),
        "squareplus": lambda: O.squareplus(x), "squareplus_b": lambda: O.squareplus(x, 1),
        "polar": lambda: O.real(O.polar(v, v)), "sigmoid_i": lambda: O.sigmoid(i), "relu_i": lambda: O.relu(i), "softplus_i": lambda: O.softplus(i),
        "gelu_i": lambda: O.gelu(i), "selu_i": lambda: O.selu(i), "leaky_i": lambda: O.leaky_relu(i), "softmax_i": lambda: O.softmax(i),
        "softmax_none": lambda: O.softmax(x, axis=None), "logsoftmax_i": lambda: O.log_softmax(i),
        "g_celu": lambda: grad(lambda a: O.celu(a), x), "g_sparsemax": lambda: grad(lambda a: O.sparsemax(a) * v[:3], x),
        "g_glu": lambda: grad(lambda a: O.glu(a), r),
        # --- nn: layers
        "conv2d": lambda: O.conv(img, k), "conv2d_same_s2": lambda: O.conv(img, k, strides=2, padding="same"),
        "conv2d_dil": lambda: O.conv(img, k[:2, :2], dilation_rate=2),
        "conv1d": lambda: O.conv(seq, k[0, :, :2, :]), "conv_cf": lambda: O.conv(O.transpose(img, (0, 3, 1, 2)), k, data_format="channels_first"),
        "conv_t": lambda: O.conv_transpose(img, kt, strides=2), "conv_t_same": lambda: O.conv_transpose(img, kt, strides=2, padding="same"),
        "conv_t_op": lambda: O.conv_transpose(img, kt[:2, :2], strides=2, output_padding=1),
        "dwconv": lambda: O.depthwise_conv(img, k[:, :, :, :2]), "dwconv_same": lambda: O.depthwise_conv(img, k[:2, :2], strides=2, padding="same"),
        "dwconv1d": lambda: O.depthwise_conv(seq, k[0, :, :2, :]),
        "sepconv": lambda: O.separable_conv(img, k[:2, :2, :, :1], tf.ones([1, 1, 3, 2]) / 3.0),
        "maxpool": lambda: O.max_pool(img, 2), "maxpool_same": lambda: O.max_pool(img, 3, 2, padding="same"),
        "avgpool": lambda: O.average_pool(img, (2, 2), 1), "avgpool_same": lambda: O.average_pool(img, 3, 2, padding="same"),
        "avgpool1d": lambda: O.average_pool(seq, 2), "maxpool_cf": lambda: O.max_pool(img, 2, data_format="channels_first"),
        "adapt_avg": lambda: O.adaptive_average_pool(img, (3, 2)), "adapt_max": lambda: O.adaptive_max_pool(img, 3),
        "adapt_avg1d": lambda: O.adaptive_average_pool(seq, 3),
        "batchnorm": lambda: O.batch_normalization(x, tf.constant([0.5, 1.0, 1.0]), tf.constant([1.0, 4.0, 0.25]), axis=-1,
                                                   offset=tf.constant([0.1, 0.2, 0.3]), scale=tf.constant([2.0, 1.0, 0.5])),
        "batchnorm_ax0": lambda: O.batch_normalization(x, tf.constant([0.5, 1.0]), tf.constant([1.0, 4.0]), axis=0),
        "layernorm": lambda: O.layer_normalization(x), "layernorm_gb": lambda: O.layer_normalization(x, tf.constant([1.0, 2.0, 3.0]), tf.constant([0.0, 1.0, 0.0]), epsilon=1e-5),
        "rmsnorm": lambda: O.rms_normalization(x), "rmsnorm_s": lambda: O.rms_normalization(x, tf.constant([1.0, 2.0, 3.0]), epsilon=1e-3),
        "d2s": lambda: O.depth_to_space(tf.reshape(tf.range(16.0), (1, 1, 2, 8)), 2), "s2d": lambda: O.space_to_depth(img, 2),
        "attn": lambda: O.dot_product_attention(q, kk[:, :3], kk[:, 1:], ), "attn_causal": lambda: O.dot_product_attention(q, q, q, is_causal=True),
        "attn_scale_bias": lambda: O.dot_product_attention(q, q, q, bias=tf.ones([2, 2, 3, 3]) * 0.5, scale=0.3),
        "attn_mask": lambda: O.dot_product_attention(q, q, q, mask=tf.constant([[True, False, True]] * 3)),
        "multi_hot": lambda: O.multi_hot(tf.constant([[0, 2], [1, 1]]), 4), "multi_hot_1d": lambda: O.multi_hot(tf.constant([0, 3]), 5),
        "psnr": lambda: O.psnr(img, img * 0.9, 1.0), "moments_i": lambda: O.moments(i, [1]),
        "g_conv": lambda: grad(lambda a: O.conv(a, k, padding="same"), img), "g_maxpool": lambda: grad(lambda a: O.max_pool(a, 2) * 2.0, img),
        "g_attn": lambda: grad(lambda a: O.dot_product_attention(a, q, q), q), "g_layernorm": lambda: grad(lambda a: O.layer_normalization(a) * x, x),
        "unfold": lambda: O.unfold(tf.transpose(img, (0, 3, 1, 2)), 2), "unfold_args": lambda: O.unfold(tf.transpose(img, (0, 3, 1, 2)), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)),
        "fold": lambda: O.fold(O.unfold(tf.transpose(img, (0, 3, 1, 2)), 2), (4, 4), 2),
        "fold_overlap": lambda: O.fold(O.unfold(tf.transpose(img, (0, 3, 1, 2)), 3, padding=1, stride=2, dilation=1), (4, 4), 3, padding=1, stride=2),
        "fold_dil": lambda: O.fold(O.unfold(tf.transpose(img, (0, 3, 1, 2)), 2, dilation=2), 4, 2, dilation=2),
        "unfold_3d": lambda: O.unfold(img[0], 2),
        "ctc_greedy": lambda: O.ctc_decode(tf.math.log(tf.nn.softmax(tf.constant(np.cos(np.arange(2 * 6 * 4).reshape(2, 6, 4) * 1.3), "float32"))), tf.constant([6, 4])),
        "ctc_greedy_nomerge": lambda: O.ctc_decode(tf.constant(np.cos(np.arange(2 * 6 * 4).reshape(2, 6, 4) * 0.7), "float32"), tf.constant([5, 6]), merge_repeated=False, mask_index=3),
        "ctc_greedy_rep": lambda: O.ctc_decode(tf.constant([[[0.0, 2.0, 0.1], [0.0, 2.0, 0.1], [3.0, 0.0, 0.1], [0.0, 2.0, 0.0], [0.0, 0.0, 1.0]]]), tf.constant([5]), mask_index=-3),
        # --- linalg
        "cholesky": lambda: O.cholesky(m), "cholesky_up": lambda: O.cholesky(m, upper=True), "chol_inv": lambda: O.cholesky_inverse(O.cholesky(m)),
        "chol_inv_up": lambda: O.cholesky_inverse(O.cholesky(m, upper=True), upper=True), "det": lambda: O.det(m), "det_i": lambda: O.det(tf.constant([[2, 1], [1, 3]])),
        "inv": lambda: O.inv(m), "eigh": lambda: O.eigh(m)[0], "eig": lambda: O.real(O.eig(tf.constant([[2.0, 0.0], [0.0, 3.0]]))[0]),
        "solve": lambda: O.solve(m, x[:1, :].__class__ and tf.transpose(x)), "solve_vec": lambda: O.solve(m, v[:3]),
        "solve_tri": lambda: O.solve_triangular(m, tf.transpose(x), lower=True), "solve_tri_up": lambda: O.solve_triangular(m, tf.transpose(x)),
        "lstsq": lambda: O.lstsq(tf.transpose(x), v[:3]), "pinv": lambda: O.pinv(x), "rank": lambda: O.matrix_rank(m), "rank_lo": lambda: O.matrix_rank(tf.ones([3, 3])),
        "qr_r": lambda: O.abs(O.qr(x)[1]), "qr_complete": lambda: O.shape(O.qr(tf.transpose(x), mode="complete")[0]),
        "svd_s": lambda: O.svd(x, compute_uv=False), "svd_shapes": lambda: [O.shape(a) for a in O.svd(x)],
        "svd_rebuild": lambda: (lambda u, s, vh: O.matmul(u * s, vh))(*O.svd(x, full_matrices=False)),
        "lu": lambda: O.lu_factor(tf.constant([[1.0, 2.0, 0.0], [4.0, 1.0, 1.0], [2.0, 5.0, 3.0]])),
        "norm": lambda: O.norm(x), "norm_ax": lambda: O.norm(x, axis=1), "norm_ord1": lambda: O.norm(x, ord=1, axis=0),
        "norm_inf": lambda: O.norm(v, ord=float("inf")), "norm_0": lambda: O.norm(tf.constant([0.0, 2.0, 0.0, 3.0]), ord=0),
        "norm_3": lambda: O.norm(v, ord=3), "norm_fro": lambda: O.norm(m, ord="fro"), "norm_nuc": lambda: O.norm(m, ord="nuc"),
        "norm_m1": lambda: O.norm(x, ord=1), "norm_minf": lambda: O.norm(x, ord=float("inf")), "norm_m2": lambda: O.norm(m, ord=2),
        "norm_mneg2": lambda: O.norm(m, ord=-2), "norm_kd": lambda: O.norm(x, axis=(0, 1), keepdims=True), "norm_i": lambda: O.norm(i),
        "g_det": lambda: grad(O.det, m), "g_inv": lambda: grad(O.inv, m), "g_norm": lambda: grad(O.norm, x),
        "jvp": lambda: O.jvp(lambda a: O.sin(a) * a, (x,), (tf.ones_like(x),)),
        # --- core and math
        "scan": lambda: O.scan(lambda cc, xx: (cc + xx, cc * xx), tf.constant(0.0), v),
        "scan_rev": lambda: O.scan(lambda cc, xx: (cc + xx, cc), tf.constant(1.0), v, reverse=True),
        "scan_len": lambda: O.scan(lambda cc, _: (cc * 2, cc), tf.constant(1), None, length=4),
        "assoc_scan": lambda: O.associative_scan(lambda a, bb: a + bb, v), "assoc_scan_rev": lambda: O.associative_scan(lambda a, bb: a * bb, x, reverse=True, axis=1),
        "map": lambda: O.map(lambda row: O.sum(row) * row, x), "switch": lambda: O.switch(1, [lambda a: a + 1, lambda a: a * 10], v),
        "switch_clip": lambda: O.switch(7, [lambda a: a + 1, lambda a: a * 10], v),
        "saturate": lambda: O.saturate_cast(tf.constant([-300.0, 12.7, 300.0]), "uint8"), "saturate_i": lambda: O.saturate_cast(tf.constant([-200, 5, 200]), "int8"),
        "slice_update": lambda: O.slice_update(x, (1, 1), tf.constant([[9.0, 8.0]])),
        "scatter": lambda: O.scatter(tf.constant([[0, 1], [1, 2], [0, 1]]), tf.constant([1.0, 2.0, 3.0]), (2, 3)),
        "scatter_update": lambda: O.scatter_update(x, tf.constant([[0, 0], [1, 2]]), tf.constant([7.0, 8.0])),
        "erfinv": lambda: O.erfinv(tf.constant([-0.5, 0.0, 0.9])), "erfinv_i": lambda: O.erfinv(tf.constant([0, 0])),
        "rsqrt_f": lambda: O.rsqrt(v), "seg_sum": lambda: O.segment_sum(v, tf.constant([0, 0, 2, 2])), "seg_max": lambda: O.segment_max(v, tf.constant([0, 1, 1, 1])),
        "seg_min_n": lambda: O.segment_min(v, tf.constant([0, 1, 1, 1]), num_segments=3), "seg_prod": lambda: O.segment_prod(x, tf.constant([0, 0])),
        "seg_sum_sorted": lambda: O.segment_sum(v, tf.constant([0, 0, 1, 1]), sorted=True), "seg_sum_i": lambda: O.segment_sum(iv, tf.constant([1, 0, 1, 0])),
        "in_top_k": lambda: O.in_top_k(tf.constant([2, 0]), x, 1), "extract_seq": lambda: O.extract_sequences(v, 2, 1),
        "fft": lambda: O.fft((v, v * 0.5)), "fft2": lambda: O.fft2((x, x * 0.0)), "ifft2": lambda: O.ifft2((x, x)),
        "rfft": lambda: O.rfft(v), "rfft_n": lambda: O.rfft(v, 6), "irfft": lambda: O.irfft(O.rfft(v)), "irfft_n": lambda: O.irfft((v, v), 6),
        "stft": lambda: O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 6, 3, 8),
        "stft_nocenter": lambda: O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 8, 4, 8, window="hamming", center=False),
        "stft_nowin": lambda: O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 8, 4, 8, window=None),
        "istft": lambda: O.istft(O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 6, 3, 8), 6, 3, 8),
        "istft_len": lambda: O.istft(O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 8, 4, 8, window="hamming", center=False), 8, 4, 8, length=12, window="hamming", center=False),
        "istft_nowin": lambda: O.istft(O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 8, 4, 8, window=None), 8, 4, 8, window=None),
        "istft_nocenter": lambda: O.istft(O.stft(tf.constant(np.sin(np.arange(16, dtype=np.float32))), 8, 2, 8, center=False), 8, 2, 8, center=False),
        "rearrange": lambda: O.rearrange(img, "b h w c -> b c (h w)"), "rearrange_split": lambda: O.rearrange(img, "b (h p) w c -> (b h) p w c", p=2),
        "rearrange_mixed": lambda: O.rearrange(r, "a b (c d) -> (d a) c b", d=2), "rearrange_bad": lambda: O.rearrange(r, "a b -> b a"),
        "view_as_complex": lambda: O.real(O.view_as_complex(tf.constant([[1.0, 2.0], [3.0, -4.0]]))),
        "view_as_real": lambda: O.view_as_real(O.view_as_complex(tf.constant([[1.0, 2.0], [3.0, -4.0]]))),
        "cdist": lambda: O.cdist(x, tf.constant([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [2.0, -1.0, 0.5], [0.0, 1.0, 0.0]])),
        "logdet": lambda: O.logdet(m), "logsumexp_i": lambda: O.logsumexp(i),
        "g_scan": lambda: grad(lambda a: O.scan(lambda cc, xx: (cc * xx, cc), tf.constant(1.0), a)[1], v),
        # --- numpy: element-wise
        "angle": lambda: N.angle(x), "cbrt": lambda: N.cbrt(x), "cbrt_i": lambda: N.cbrt(i), "conj": lambda: N.conj(x), "conj_i": lambda: N.conjugate(i),
        "deg2rad": lambda: N.deg2rad(i), "rad2deg": lambda: N.rad2deg(x), "exp2": lambda: N.exp2(i), "exp2_f": lambda: N.exp2(x), "fabs_i": lambda: N.fabs(i),
        "floor_i": lambda: N.floor(i), "ceil_i": lambda: N.ceil(i), "trunc": lambda: N.trunc(x * 1.5), "trunc_i": lambda: N.trunc(i), "i0": lambda: N.i0(x),
        "imag": lambda: N.imag(x), "real_i": lambda: N.real(i), "isreal": lambda: N.isreal(x), "signbit": lambda: N.signbit(tf.constant([-0.0, 0.0, -2.0, 3.0])),
        "signbit_i": lambda: N.signbit(i - 3), "sinc": lambda: N.sinc(tf.constant([0.0, 0.5, 1.0, -1.5])), "sinc_i": lambda: N.sinc(i),
        "hypot": lambda: N.hypot(x, i), "hypot_i": lambda: N.hypot(i, i), "logaddexp": lambda: N.logaddexp(x, v[:3]), "logaddexp_i": lambda: N.logaddexp(i, i),
        "logaddexp2": lambda: N.logaddexp2(x, 1.0), "heaviside": lambda: N.heaviside(tf.constant([-1.0, 0.0, 2.0]), 0.5), "heaviside_i": lambda: N.heaviside(i - 2, i),
        "fmod": lambda: N.fmod(tf.constant([-5.0, 5.0, 7.5]), tf.constant([3.0, -3.0, 2.0])), "fmod_i": lambda: N.fmod(tf.constant([-5, 5, 7]), 3),
        "fmax": lambda: N.fmax(nv, tf.constant([2.0, 2.0, np.nan, -3.0])), "fmin": lambda: N.fmin(nv, 2.0), "fmax_i": lambda: N.fmax(i, 3),
        "ldexp": lambda: N.ldexp(x, tf.constant([1, 2, 3])), "ldexp_i": lambda: N.ldexp(i, tf.constant([1, 2, 3])),
        "gcd": lambda: N.gcd(tf.constant([12, 18, 0, -8]), tf.constant([8, 12, 5, 6])), "lcm": lambda: N.lcm(tf.constant([4, 6, 0, -3]), tf.constant([6, 4, 5, 4])),
        "isclose": lambda: N.isclose(x, x + 1e-6), "isclose_nan": lambda: N.isclose(nv, nv, equal_nan=True), "isclose_i": lambda: N.isclose(i, 2),
        "allclose": lambda: N.allclose(x, x * 1.001), "isposinf": lambda: N.isposinf(tf.constant([np.inf, -np.inf, 1.0])), "isneginf": lambda: N.isneginf(tf.constant([np.inf, -np.inf, 1.0])),
        "isneginf_i": lambda: N.isneginf(i), "isnan_i": lambda: N.isnan(i), "nextafter": lambda: N.nextafter(tf.constant([1.0, 2.0]), tf.constant([2.0, 0.0])),
        "nonzero": lambda: N.nonzero(tf.constant([[0, 1], [2, 0]])), "where1": lambda: N.where(tf.constant([0, 3, 0, 4])),
        "floor_div_f": lambda: N.floor_divide(x, 2), "divide_bool": lambda: N.divide(b, b),
        # --- numpy: reductions
        "average": lambda: N.average(x), "average_w": lambda: N.average(x, axis=1, weights=tf.constant([1.0, 2.0, 3.0])),
        "average_i": lambda: N.average(i, axis=0), "median": lambda: N.median(x), "median_ax": lambda: N.median(x, axis=1),
        "median_i": lambda: N.median(i, axis=0, keepdims=True), "quantile": lambda: N.quantile(x, 0.3), "quantile_v": lambda: N.quantile(x, tf.constant([0.25, 0.5]), axis=1),
        "quantile_lo": lambda: N.quantile(v, 0.4, method="lower"), "quantile_hi": lambda: N.quantile(v, 0.4, method="higher"),
        "quantile_mid": lambda: N.quantile(v, 0.4, method="midpoint"), "quantile_near": lambda: N.quantile(v, 0.4, method="nearest"),
        "percentile": lambda: N.percentile(i, 40), "percentile_kd": lambda: N.percentile(x, [10, 90], axis=0, keepdims=True),
        "ptp": lambda: N.ptp(x, axis=1), "ptp_i": lambda: N.ptp(i), "max_init": lambda: N.max(x, initial=3.5), "min_init": lambda: N.min(i, axis=1, initial=2),
        "prod_dt": lambda: N.prod(i, dtype="float32"),
        "nansum": lambda: N.nansum(nm, axis=1), "nanprod": lambda: N.nanprod(nv), "nanmean": lambda: N.nanmean(nm, axis=0), "nanvar": lambda: N.nanvar(nv),
        "nanstd": lambda: N.nanstd(nm), "nanmax": lambda: N.nanmax(nm, axis=1), "nanmin": lambda: N.nanmin(nv), "nanargmax": lambda: N.nanargmax(nv),
        "nanargmin": lambda: N.nanargmin(nm[:1], axis=1), "nancumsum": lambda: N.nancumsum(nv), "nancumprod": lambda: N.nancumprod(nm, axis=1),
        "nanmedian": lambda: N.nanmedian(nv), "nanquantile": lambda: N.nanquantile(nm[:1], 0.75, axis=1), "nanpercentile": lambda: N.nanpercentile(nv, 50),
        "nansum_i": lambda: N.nansum(i), "nanmean_i": lambda: N.nanmean(i),
        "argpartition": lambda: N.sort(N.argpartition(v, 1)[:2]), "searchsorted": lambda: N.searchsorted(tf.constant([1.0, 2.0, 3.0]), tf.constant([0.5, 2.0, 3.5])),
        "searchsorted_r": lambda: N.searchsorted(tf.constant([1, 2, 3]), tf.constant([[2, 3]]), side="right"),
        "digitize": lambda: N.digitize(tf.constant([0.2, 6.4, 3.0, 1.6]), tf.constant([0.0, 1.0, 2.5, 4.0, 10.0])),
        "bincount": lambda: N.bincount(tf.constant([0, 1, 1, 3])), "bincount_w": lambda: N.bincount(tf.constant([0, 1, 1, 3]), weights=v, minlength=6),
        "histogram": lambda: N.histogram(v, bins=3), "histogram_r": lambda: N.histogram(x, bins=4, range=(-2, 2)),
        "unique": lambda: N.unique(tf.constant([3, 1, 3, 2, 1])), "unique_all": lambda: N.unique(tf.constant([3, 1, 3, 2, 1]), return_index=True, return_inverse=True, return_counts=True),
        "count_nonzero_ax": lambda: N.count_nonzero(i - 2, axis=0),
        # --- numpy: arrays
        "append": lambda: N.append(x, i), "append_ax": lambda: N.append(x, i, axis=0), "array": lambda: N.array([[1, 2], [3, 4]]), "array_f": lambda: N.array([1.5, 2.0]),
        "array_dt": lambda: N.array([1, 2], "float16"), "copy": lambda: N.copy(i), "array_split": lambda: N.array_split(tf.range(7), 3),
        "hsplit": lambda: N.hsplit(r, 2), "vsplit": lambda: N.vsplit(x, 2), "dsplit": lambda: N.dsplit(r, [1, 3]), "hstack": lambda: N.hstack([x, i]),
        "vstack": lambda: N.vstack([v, v]), "dstack": lambda: N.dstack([x, i]), "hstack_1d": lambda: N.hstack([v, iv]),
        "empty": lambda: O.shape(N.empty((2, 3))), "empty_like": lambda: [O.shape(N.empty_like(i)), O.dtype(N.empty_like(i))],
        "fliplr": lambda: N.fliplr(x), "flipud": lambda: N.flipud(x), "rot90": lambda: N.rot90(x), "rot90_k3": lambda: N.rot90(r, 3, axes=(1, 2)),
        "geomspace": lambda: N.geomspace(1, 1000, 4), "logspace": lambda: N.logspace(0, 2, 3), "logspace_b2": lambda: N.logspace(0, 3, 4, base=2),
        "get_item": lambda: N.get_item(x, 1), "get_item_sl": lambda: N.get_item(r, (slice(None), 1)), "select": lambda: N.select([x < 0, x > 2], [x, x * 10], default=-1),
        "isin": lambda: N.isin(i, tf.constant([2, 5, 9])), "isin_inv": lambda: N.isin(v, [1.0, 5.0], invert=True),
        "unravel": lambda: N.unravel_index(tf.constant([1, 7, 11]), (3, 4)), "expand_multi": lambda: O.shape(N.expand_dims(x, (0, 3))),
        "moveaxis_multi": lambda: O.shape(N.moveaxis(r, [0, 1], [2, 0])), "tri": lambda: N.tri(3, 4, 1), "tri_dt": lambda: N.tri(2, dtype="int32"),
        # --- numpy: products
        "inner": lambda: N.inner(x, i), "outer": lambda: N.outer(v, iv), "vdot": lambda: N.vdot(x, i), "kron": lambda: N.kron(x[:, :2], i[:, :2]), "kron_1d": lambda: N.kron(v[:2], iv[:3]),
        "cross": lambda: N.cross(x, i), "cross_2d": lambda: N.cross(x[:, :2], tf.cast(i[:, :2], "float32")), "cross_ax": lambda: N.cross(tf.transpose(x), tf.transpose(i), axis=0),
        "tril": lambda: N.tril(m), "tril_k": lambda: N.tril(x, -1), "triu": lambda: N.triu(x, 1), "triu_b": lambda: N.triu(r),
        "diag": lambda: N.diag(v), "diag_k": lambda: N.diag(v[:2], -1), "diag_2d": lambda: N.diag(x, 1), "diagflat": lambda: N.diagflat(x[:, :2]),
        "diagonal": lambda: N.diagonal(r), "diagonal_off": lambda: N.diagonal(r, 1, 1, 2), "diagonal_neg": lambda: N.diagonal(x, -1),
        "trace": lambda: N.trace(x), "trace_i": lambda: N.trace(r, 1, 1, 2), "trace_b": lambda: N.trace(tf.constant([[True, False], [True, True]])),
        "vander": lambda: N.vander(v[:3]), "vander_inc": lambda: N.vander(iv[:3], 4, increasing=True), "slogdet": lambda: N.slogdet(m),
        "diff": lambda: N.diff(v), "diff_2": lambda: N.diff(x, 2), "diff_ax": lambda: N.diff(i, axis=0), "diff_b": lambda: N.diff(b),
        "trapezoid": lambda: N.trapezoid(v), "trapezoid_x": lambda: N.trapezoid(x, tf.constant([0.0, 1.0, 3.0])), "trapezoid_dx": lambda: N.trapezoid(i, dx=0.5, axis=0),
        "correlate": lambda: N.correlate(v, tf.constant([1.0, 0.5])), "correlate_full": lambda: N.correlate(v, tf.constant([1.0, 0.5, 2.0]), mode="full"),
        "correlate_same": lambda: N.correlate(v, tf.constant([1.0, 0.5, 2.0]), mode="same"), "correlate_same_short": lambda: N.correlate(v[:2], v, mode="same"),
        "corrcoef": lambda: N.corrcoef(x), "bartlett": lambda: N.bartlett(5), "blackman": lambda: N.blackman(4), "hamming": lambda: N.hamming(5),
        "hanning": lambda: N.hanning(4), "kaiser": lambda: N.kaiser(5, 3.0),
        "g_median": lambda: grad(N.median, v), "g_hypot": lambda: grad(lambda a: N.hypot(a, 2.0), x), "g_logaddexp": lambda: grad(lambda a: N.logaddexp(a, 1.0), x),
        "g_cross": lambda: grad(lambda a: N.cross(a, tf.cast(i, "float32")), x), "g_trapezoid": lambda: grad(N.trapezoid, v),
    }
    # dtype rules over int, bool and float16 inputs for the element-wise functions and reductions
    ib = tf.constant([[1, 0, 3], [2, 5, 0]])
    bb = tf.constant([[True, False, True], [False, True, True]])
    hh = tf.constant([[1.5, -0.5, 2.0], [0.25, 3.0, -1.0]], "float16")
    unary = ["abs", "angle", "arccos", "arcsinh", "arctan", "cbrt", "ceil", "conj", "cos", "cosh", "deg2rad", "exp",
             "exp2", "expm1", "fabs", "floor", "i0", "imag", "isfinite", "isinf", "isnan", "isneginf", "isposinf",
             "isreal", "log1p", "log2", "negative", "rad2deg", "real", "reciprocal", "round", "sign", "signbit", "sin",
             "sinc", "sqrt", "square", "tan", "tanh", "trunc", "logical_not", "nan_to_num", "copy"]
    binary = ["add", "arctan2", "divide", "divide_no_nan", "equal", "floor_divide", "fmax", "fmin", "fmod", "greater",
              "heaviside", "hypot", "logaddexp", "logaddexp2", "maximum", "minimum", "mod", "multiply", "nextafter",
              "power", "subtract", "true_divide", "logical_and", "logical_xor", "isclose"]
    reductions = ["all", "amax", "amin", "any", "argmax", "count_nonzero", "cumprod", "cumsum", "max", "mean", "median",
                  "min", "nanmax", "nanmean", "nanmin", "nanprod", "nansum", "nanstd", "nanvar", "prod", "ptp", "std",
                  "sum", "var", "nancumsum", "trace"]
    # bitwise and view: integer operands (Keras' promotion first), shifts past the width, a bool refused
    u8 = tf.constant([[200, 7, 255], [0, 16, 1]], "uint8")
    c.update({
        "bitwise_and": lambda: N.bitwise_and(ib, 6), "bitwise_or": lambda: N.bitwise_or(ib, u8),
        "bitwise_xor": lambda: N.bitwise_xor(u8, u8 // 2), "bitwise_invert": lambda: N.bitwise_invert(u8),
        "bitwise_not": lambda: N.bitwise_not(ib), "bitwise_and_b": lambda: N.bitwise_and(bb, bb),
        "left_shift": lambda: N.left_shift(ib, tf.constant([[1, 40, 3], [0, 31, 2]])),
        "bitwise_left_shift": lambda: N.bitwise_left_shift(u8, 3), "right_shift": lambda: N.right_shift(-ib, 1),
        "bitwise_right_shift": lambda: N.bitwise_right_shift(u8, tf.constant([[1, 9, 2], [0, 3, 8]], "uint8")),
        "view_u8": lambda: N.view(x, "uint8"), "view_f32": lambda: N.view(N.view(x, "uint8"), "float32"),
        "view_i32": lambda: N.view(x, "int32"), "view_bad": lambda: N.view(x, "float64"),
    })
    for name in unary + reductions:
        for tag, arg in (("i", ib), ("b", bb), ("h", hh)):
            c[f"dt_{name}_{tag}"] = (lambda f, a: lambda: f(a))(getattr(N, name), arg)
    for name in binary:
        for tag, (first, second) in (("i_pyf", (ib, 1.5)), ("b_i", (bb, ib)), ("h_i", (hh, ib)), ("i_pyi", (ib, 2)),
                                     ("b_b", (bb, bb)), ("h_pyf", (hh, 2.5))):
            c[f"dt_{name}_{tag}"] = (lambda f, a, b_: lambda: f(a, b_))(getattr(N, name), first, second)
    return c


def make_image_cases(O, tf):  # noqa: N803
    """keras.ops.image calls (kept apart: keras.ops.image is not re-exported at the top of keras.ops)."""
    img = tf.constant(np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3) / 120.0)
    one = img[0]
    I = O.image  # noqa: E741
    cf = tf.transpose(img, (0, 3, 1, 2))
    return {
        "resize": lambda: I.resize(img, (3, 7)), "resize_nearest": lambda: I.resize(img, (8, 3), interpolation="nearest"),
        "resize_bicubic": lambda: I.resize(one, (6, 6), interpolation="bicubic"), "resize_area": lambda: I.resize(img, (2, 2), interpolation="area"),
        "resize_crop": lambda: I.resize(img, (2, 2), crop_to_aspect_ratio=True), "resize_pad": lambda: I.resize(img, (3, 3), pad_to_aspect_ratio=True),
        "resize_cf": lambda: I.resize(cf, (3, 2), data_format="channels_first"), "resize_aa": lambda: I.resize(img, (2, 3), antialias=True),
        "resize_bad": lambda: I.resize(img, (2, 3), interpolation="cubic"),
        "gray": lambda: I.rgb_to_grayscale(img), "gray_one": lambda: I.rgb_to_grayscale(one), "gray_cf": lambda: I.rgb_to_grayscale(cf, data_format="channels_first"),
        "gray_i": lambda: I.rgb_to_grayscale(tf.constant(np.arange(12).reshape(1, 2, 2, 3))),
        "hsv": lambda: I.rgb_to_hsv(tf.constant([[[[1.0, 0.0, 0.0], [0.2, 0.6, 0.4], [0.1, 0.2, 0.9], [0.5, 0.5, 0.5], [0.9, 0.1, 0.5]]]])),
        "hsv_img": lambda: I.rgb_to_hsv(img), "rgb": lambda: I.hsv_to_rgb(tf.constant([[[[0.0, 1.0, 1.0], [0.3, 0.5, 0.6], [0.7, 0.9, 0.9], [0.95, 0.2, 0.4]]]])),
        "hsv_roundtrip": lambda: I.hsv_to_rgb(I.rgb_to_hsv(img)), "hsv_i": lambda: I.rgb_to_hsv(tf.constant([[[1, 2, 3]]])),
        "pad": lambda: I.pad_images(img, 1, 2, 0, 1), "pad_target": lambda: I.pad_images(one, top_padding=1, left_padding=0, target_height=7, target_width=6),
        "pad_cf": lambda: I.pad_images(cf, 1, 1, 1, 1, data_format="channels_first"),
        "crop": lambda: I.crop_images(img, 1, 2, 1, 0), "crop_target": lambda: I.crop_images(one, top_cropping=1, left_cropping=1, target_height=2, target_width=3),
        "patches": lambda: I.extract_patches(img, 2), "patches_s1": lambda: I.extract_patches(img, (2, 3), strides=1),
        "patches_same": lambda: I.extract_patches(img, 3, strides=2, padding="same"), "patches_dil": lambda: I.extract_patches(one, 2, strides=1, dilation_rate=2),
        "affine": lambda: I.affine_transform(img, tf.constant([1.0, 0.2, 0.5, 0.1, 0.9, -0.5, 0.0, 0.0])),
        "affine_nearest": lambda: I.affine_transform(img, tf.constant([[0.8, 0.0, 1.0, 0.0, 1.2, 0.0, 0.0, 0.0]] * 2), interpolation="nearest", fill_mode="reflect"),
        "affine_wrap": lambda: I.affine_transform(one, tf.constant([1.0, 0.0, 2.0, 0.0, 1.0, -1.0, 0.0, 0.0]), fill_mode="wrap"),
        "mapc": lambda: I.map_coordinates(one[:, :, 0], [tf.constant([0.5, 1.2, 3.0, -1.0]), tf.constant([0.0, 2.5, 4.0, 1.0])], 1),
        "mapc0": lambda: I.map_coordinates(one[:, :, 0], [tf.constant([0.4, 1.6, 3.0]), tf.constant([0.0, 2.5, 4.2])], 0),
        "mapc_nearest": lambda: I.map_coordinates(one[:, :, 0], [tf.constant([-1.5, 4.2]), tf.constant([0.5, 7.0])], 1, fill_mode="nearest"),
        "mapc_fill": lambda: I.map_coordinates(one[:, :, 0], [tf.constant([-1.5, 4.2]), tf.constant([0.5, 2.0])], 1, fill_value=9.0),
        "blur": lambda: I.gaussian_blur(img), "blur_5": lambda: I.gaussian_blur(img, (5, 3), (2.0, 0.5)),
        "sobel": lambda: I.sobel_edges(img),
        "projective": lambda: I.affine_transform(img, tf.constant([1.0, 0.1, 0.2, 0.05, 0.9, 0.3, 0.02, -0.03])),
        "projective_nearest": lambda: I.affine_transform(img, tf.constant([0.9, 0.0, 0.5, 0.1, 1.1, 0.0, -0.05, 0.04]), interpolation="nearest", fill_mode="nearest"),
        "perspective": lambda: I.perspective_transform(img, tf.constant([[0.0, 0.0], [4.0, 0.0], [0.0, 3.0], [4.0, 3.0]]), tf.constant([[0.5, 0.2], [3.8, 0.0], [0.0, 3.0], [4.2, 2.5]])),
        "perspective_batch": lambda: I.perspective_transform(img, tf.constant([[[0.0, 0.0], [4.0, 0.0], [0.0, 3.0], [4.0, 3.0]]] * 2), tf.constant([[[0.3, 0.2], [3.8, 0.4], [0.1, 3.0], [4.0, 2.5]], [[0.0, 0.0], [4.0, 0.0], [0.0, 3.0], [4.0, 3.0]]]), interpolation="nearest", fill_value=0.5),
        "ssim": lambda: I.ssim(img, img * 0.8 + 0.1, filter_size=3), "ssim_one": lambda: I.ssim(one, one[::-1], filter_size=3, filter_sigma=0.8),
        "ssim_cf": lambda: I.ssim(cf, cf * cf, filter_size=2, data_format="channels_first"), "ssim_self": lambda: I.ssim(img, img, filter_size=3),
        "patches3d": lambda: I.extract_patches_3d(tf.reshape(img, (2, 2, 2, 5, 3)), (1, 2, 2)),
        "patches3d_s": lambda: I.extract_patches_3d(tf.reshape(img, (4, 2, 5, 3)), 2, strides=1, padding="same"),
        "patches3d_dil": lambda: I.extract_patches_3d(tf.reshape(img, (1, 2, 4, 5, 3)), (1, 2, 2), strides=(1, 1, 2), dilation_rate=(1, 2, 1)),
    }
