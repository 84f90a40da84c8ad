"""Conv2DTranspose and Conv1DTranspose with `dilation_rate` and `output_padding`, against Keras 3.15.1 on
TensorFlow 2.21: the same inputs and weights (drawn below in Keras' order) give Keras' output shapes,
sums and sampled values."""
import numpy as np
import pytest

from eagerflow.keras import layers

CASES_2D_1D = [{'args': {'dilation_rate': 2, 'filters': 2, 'kernel_size': 3},
  'at': [0, 19, 38, 57, 76, 95, 114, 133, 153, 172, 191, 210, 229, 248, 267, 287],
  'cfg_op': None,
  'layer': 'Conv2DTranspose',
  'shape': [2, 8, 9, 2],
  'sum': -39.5466,
  'values': [-0.81622, 0.55291, -1.31757, -1.91308, -1.1989, -4.10755, -2.58574, -1.79739, 2.51848, -0.8356,
             -2.29533, -1.60296, -4.05979, -0.4931, -0.99027, -0.31602]},
 {'args': {'filters': 2, 'kernel_size': 3, 'output_padding': 1, 'strides': 2},
  'at': [0, 31, 63, 95, 127, 159, 191, 223, 255, 287, 319, 351, 383, 415, 447, 479],
  'cfg_op': (1, 1),
  'layer': 'Conv2DTranspose',
  'shape': [2, 10, 12, 2],
  'sum': -69.8343,
  'values': [-1.47203, 1.22464, 2.23277, 0.94953, 1.5943, 1.65132, 0.94953, 0.94953, 0.08392, 0.94953, 0.82693,
             0.41336, 0.94953, 1.21322, 0.99089, 0.94953]},
 {'args': {'filters': 3, 'kernel_size': (2, 3), 'output_padding': (2, 1), 'padding': 'same', 'strides': (3, 2)},
  'at': [0, 43, 87, 131, 175, 219, 263, 307, 351, 395, 439, 483, 527, 571, 615, 659],
  'cfg_op': (2, 1),
  'layer': 'Conv2DTranspose',
  'shape': [2, 11, 10, 3],
  'sum': -353.5409,
  'values': [-1.03989, 1.60788, -0.99904, 1.08198, -0.88664, -0.67705, 0.19541, 2.3282, -1.20977, 0.19541,
             -1.33829, -0.99904, -0.26213, -0.88664, -0.52733, -1.24332]},
 {'args': {'dilation_rate': (2, 1), 'filters': 2, 'kernel_size': 3, 'padding': 'same'},
  'at': [0, 5, 10, 15, 21, 26, 31, 36, 42, 47, 52, 57, 63, 68, 73, 79],
  'cfg_op': None,
  'layer': 'Conv2DTranspose',
  'shape': [2, 4, 5, 2],
  'sum': 58.8147,
  'values': [4.56645, 0.99862, 2.23316, -2.88452, 1.73026, 7.38116, 2.74614, -1.4474, 3.39424, -4.82633, -1.88752,
             1.46833, 1.43481, 5.77889, 5.35226, -5.02069]},
 {'args': {'dilation_rate': 2, 'filters': 2, 'kernel_size': 3},
  'at': [0, 2, 5, 7, 10, 13, 15, 18, 20, 23, 26, 28, 31, 33, 36, 39],
  'cfg_op': None,
  'layer': 'Conv1DTranspose',
  'shape': [2, 10, 2],
  'sum': 2.3275,
  'values': [1.12305, 3.02279, -1.8227, 0.11339, 0.12875, -0.87385, 0.46301, 1.18664, 2.1796, -2.90595, -4.76397,
             3.80323, -1.06089, -1.69524, 0.81673, -0.63166]},
 {'args': {'filters': 2, 'kernel_size': 4, 'output_padding': 2, 'padding': 'same', 'strides': 3},
  'at': [0, 4, 8, 13, 17, 22, 26, 31, 35, 40, 44, 49, 53, 58, 62, 67],
  'cfg_op': (2,),
  'layer': 'Conv1DTranspose',
  'shape': [2, 17, 2],
  'sum': -19.7874,
  'values': [-0.42868, -1.88471, 0.36266, 1.52021, -0.01081, -2.70361, -0.47448, 0.11421, -0.44816, -0.85671,
             -1.05463, -0.58881, -0.64232, 0.22266, -0.90124, -0.64849]},
 {'args': {'filters': 1, 'kernel_size': 2, 'output_padding': 1, 'strides': 2},
  'at': [0, 1, 3, 5, 6, 8, 10, 11, 13, 15, 16, 18, 20, 21, 23, 25],
  'cfg_op': (1,),
  'layer': 'Conv1DTranspose',
  'shape': [2, 13, 1],
  'sum': 17.5497,
  'values': [0.9309, 0.40241, 1.36422, -0.70411, 0.52975, -1.13498, 2.61578, -1.33045, 3.706, -0.31133, -0.23875,
             0.57745, 0.15846, 0.06914, 0.76038, 0.57705]}]


def test_conv2d_and_conv1d_transpose_options_match_keras():
    rng = np.random.default_rng(7)
    inputs = {"Conv2DTranspose": rng.standard_normal((2, 4, 5, 2)).astype("float32"),
              "Conv1DTranspose": rng.standard_normal((2, 6, 3)).astype("float32")}
    for case in CASES_2D_1D:
        x = inputs[case["layer"]]
        layer = getattr(layers, case["layer"])(**case["args"])
        layer.build(x.shape)
        layer.set_weights([rng.standard_normal(w.shape).astype("float32") for w in layer.get_weights()])
        y = layer(x).numpy().astype(np.float64)
        assert list(y.shape) == case["shape"], case["args"]
        assert y.sum() == pytest.approx(case["sum"], abs=2e-3)
        np.testing.assert_allclose(y.reshape(-1)[case["at"]], case["values"], atol=2e-5, err_msg=str(case["args"]))
        written = layer.get_config()["output_padding"]
        assert written == (None if case["cfg_op"] is None else list(case["cfg_op"]))
