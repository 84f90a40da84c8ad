"""Conv3DTranspose with `dilation_rate` and `output_padding`, against Keras 3.15.1 on TensorFlow 2.21: the
same inputs and weights (drawn below in Keras' order) give Keras' output shapes, sums and sampled values;
Keras' argument errors and config."""
import numpy as np
import pytest

from eagerflow.keras import layers

CASES = [{'abs_sum': 1751.6042,
  'args': {'dilation_rate': 2, 'filters': 3, 'kernel_size': 2},
  'at': [0, 54, 109, 164, 218, 273, 328, 383, 437, 492, 547, 602, 656, 711, 766, 821, 875, 930, 985, 1040, 1094,
         1149, 1204, 1259],
  'shape': [2, 5, 6, 7, 3],
  'sum': -541.7266,
  'values': [-2.00101, 0.157, -0.00413, -3.25344, -0.58677, 0.72549, 5.8647, 2.88926, -0.15285, -0.08116, 0.13263,
             -3.04696, -1.69941, -1.18035, 0.32325, -2.29973, 1.02909, -4.33906, -1.77707, 0.98975, 1.43327,
             0.28622, -0.59536, -0.90119]},
 {'abs_sum': 951.3506,
  'args': {'dilation_rate': [1, 2, 1], 'filters': 2, 'kernel_size': 3, 'padding': 'same'},
  'at': [0, 10, 20, 31, 41, 51, 62, 72, 83, 93, 103, 114, 124, 135, 145, 155, 166, 176, 187, 197, 207, 218, 228,
         239],
  'shape': [2, 3, 4, 5, 2],
  'sum': 74.872,
  'values': [3.13459, 0.25812, 1.67146, 4.91282, -2.28893, 3.80794, -4.81105, -1.5249, -0.68074, -1.28769, 4.26627,
             3.25655, 3.66516, -12.95642, 1.37312, -3.444, -1.70601, -0.3319, 1.52672, 3.03383, 0.02938, -3.5405,
             -1.50054, -1.5956]},
 {'abs_sum': 5000.502,
  'args': {'filters': 2, 'kernel_size': 3, 'output_padding': [1, 0, 1], 'strides': 2},
  'at': [0, 150, 300, 450, 600, 751, 901, 1051, 1201, 1351, 1502, 1652, 1802, 1952, 2103, 2253, 2403, 2553, 2703,
         2854, 3004, 3154, 3304, 3455],
  'shape': [2, 8, 9, 12, 2],
  'sum': -1111.9362,
  'values': [1.3336, -0.52283, -5.05063, -1.12342, -1.81271, 0.38474, -4.7784, 0.57182, 1.06844, -0.92535,
             -0.70889, -1.01164, -1.39969, -1.64424, 3.94976, 1.98132, -0.38056, 1.13096, 1.87429, -1.01164,
             -1.15386, -2.60348, -1.01164, 0.41618]},
 {'abs_sum': 2536.6249,
  'args': {'dilation_rate': 1, 'filters': 2, 'kernel_size': 2, 'output_padding': [0, 1, 0], 'strides': 2},
  'at': [0, 93, 187, 281, 375, 469, 563, 657, 750, 844, 938, 1032, 1126, 1220, 1314, 1408, 1501, 1595, 1689, 1783,
         1877, 1971, 2065, 2159],
  'shape': [2, 6, 9, 10, 2],
  'sum': 67.265,
  'values': [1.79579, -1.0216, 0.00262, -0.95207, -4.29993, -0.98531, -1.94818, 0.29531, 3.02453, 0.91906, 1.22276,
             -0.50394, -1.68952, 0.44133, 1.2198, -1.07482, -0.10114, 2.34262, -3.18723, -0.29606, -0.2233,
             -0.29606, -0.00673, -0.29606]},
 {'abs_sum': 3374.3324,
  'args': {'filters': 1, 'kernel_size': 3, 'output_padding': 2, 'padding': 'same', 'strides': 3},
  'at': [0, 140, 281, 422, 563, 704, 844, 985, 1126, 1267, 1408, 1549, 1689, 1830, 1971, 2112, 2253, 2394, 2534,
         2675, 2816, 2957, 3098, 3239],
  'shape': [2, 9, 12, 15, 1],
  'sum': -850.8433,
  'values': [2.32348, -0.37084, -0.29895, 0.08543, 0.39148, -0.99144, -0.40885, 0.12092, 1.0711, -1.62052,
             -0.50068, 0.20017, -0.56282, 4.37213, 3.31857, -0.71923, -0.27978, -2.09679, 1.57433, -1.13913,
             1.06869, -6.38433, -1.17901, -1.13939]}]


def test_dilated_and_output_padded_conv3d_transpose_match_keras():
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 3, 4, 5, 2)).astype("float32")
    for case in CASES:
        layer = layers.Conv3DTranspose(**case["args"])
        layer.build(x.shape)
        layer.set_weights([rng.standard_normal(w.shape).astype("float32") for w in layer.get_weights()])
        y = layer(x).numpy().astype(np.float64)
        assert list(y.shape) == case["shape"], case["args"]
        assert y.sum() == pytest.approx(case["sum"], abs=2e-3) and np.abs(y).sum() == pytest.approx(case["abs_sum"],
                                                                                                    abs=2e-3)
        np.testing.assert_allclose(y.reshape(-1)[case["at"]], case["values"], atol=2e-5, err_msg=str(case["args"]))


def test_config_keeps_output_padding_and_dilation():
    config = layers.Conv3DTranspose(2, 3, strides=2, output_padding=(1, 0, 1)).get_config()
    assert config["output_padding"] == [1, 0, 1] and config["dilation_rate"] == [1, 1, 1]
    config = layers.Conv3DTranspose(2, 3, dilation_rate=(1, 2, 1)).get_config()
    assert config["output_padding"] is None and config["dilation_rate"] == [1, 2, 1]


def test_argument_errors_as_keras():
    with pytest.raises(ValueError) as info:
        layers.Conv3DTranspose(2, 2, strides=2, output_padding=2)
    assert str(info.value) == ("`output_padding` must be strictly less than `strides` for all dimensions. At dimension "
                               "0, `output_padding` is 2 but `strides` is 2. Received: output_padding=(2, 2, 2), "
                               "strides=(2, 2, 2)")
    with pytest.raises(ValueError, match=r"At dimension 2, `output_padding` is 1 but `strides` is 1. Received: "
                                         r"output_padding=\(1, 1, 1\), strides=\(2, 2, 1\)"):
        layers.Conv3DTranspose(2, (2, 3, 3), strides=(2, 2, 1), output_padding=1, padding="same")
    with pytest.raises(ValueError, match=r"`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                                         r"Received: strides=\(2, 2, 2\) and dilation_rate=\(2, 2, 2\)"):
        layers.Conv3DTranspose(2, 2, strides=2, dilation_rate=2)
