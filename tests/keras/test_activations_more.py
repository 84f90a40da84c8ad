"""keras.activations against TensorFlow 2.21 (Keras 3.15): every named function's values on one
row of inputs, the options of relu / elu / celu / leaky_relu / threshold / squareplus, glu, sparsemax
against its definition, names in get/serialize/deserialize and in a layer config."""
import numpy as np
import pytest

import eagerflow as tf
from eagerflow import keras

A = keras.activations
X = np.array([[-7., -3., -1.2, -1., -0.6, -0.25, 0., 0.3, 0.5, 0.9, 1., 2.5, 6.5]], np.float32)
# name -> (the function's __name__, values on X): TF 2.21
EXPECTED = {
    'celu': ('celu', [-0.9990881085395813, -0.9502129554748535, -0.6988058090209961, -0.6321205496788025, -0.4511883854866028, -0.22119921445846558, 0.0, 0.30000001192092896, 0.5, 0.8999999761581421, 1.0, 2.5, 6.5]),
    'elu': ('elu', [-0.9990881085395813, -0.9502129554748535, -0.6988058090209961, -0.6321205496788025, -0.4511883854866028, -0.22119921445846558, 0.0, 0.30000001192092896, 0.5, 0.8999999761581421, 1.0, 2.5, 6.5]),
    'exponential': ('exponential', [0.0009118819725699723, 0.049787070602178574, 0.3011941909790039, 0.3678794503211975, 0.5488116145133972, 0.7788007855415344, 1.0, 1.3498587608337402, 1.6487212181091309, 2.4596030712127686, 2.7182817459106445, 12.182494163513184, 665.1416625976562]),
    'gelu': ('gelu', [-8.958679284520876e-12, -0.004049695562571287, -0.13808363676071167, -0.15865525603294373, -0.16455188393592834, -0.10032341629266739, 0.0, 0.1853734254837036, 0.3457312285900116, 0.7343458533287048, 0.8413447141647339, 2.48447585105896, 6.5]),
    'hard_shrink': ('hard_shrink', [-7.0, -3.0, -1.2000000476837158, -1.0, -0.6000000238418579, 0.0, 0.0, 0.0, 0.0, 0.8999999761581421, 1.0, 2.5, 6.5]),
    'hard_sigmoid': ('hard_sigmoid', [0.0, 0.0, 0.29999998211860657, 0.3333333432674408, 0.4000000059604645, 0.4583333432674408, 0.5, 0.550000011920929, 0.5833333134651184, 0.6500000357627869, 0.6666666865348816, 0.9166666865348816, 1.0]),
    'hard_silu': ('hard_silu', [-0.0, -0.0, -0.35999998450279236, -0.3333333432674408, -0.24000000953674316, -0.1145833358168602, 0.0, 0.16500000655651093, 0.2916666567325592, 0.5850000381469727, 0.6666666865348816, 2.2916667461395264, 6.5]),
    'hard_swish': ('hard_silu', [-0.0, -0.0, -0.35999998450279236, -0.3333333432674408, -0.24000000953674316, -0.1145833358168602, 0.0, 0.16500000655651093, 0.2916666567325592, 0.5850000381469727, 0.6666666865348816, 2.2916667461395264, 6.5]),
    'hard_tanh': ('hard_tanh', [-1.0, -1.0, -1.0, -1.0, -0.6000000238418579, -0.25, 0.0, 0.30000001192092896, 0.5, 0.8999999761581421, 1.0, 1.0, 1.0]),
    'leaky_relu': ('leaky_relu', [-1.399999976158142, -0.6000000238418579, -0.24000000953674316, -0.20000000298023224, -0.12000000476837158, -0.05000000074505806, 0.0, 0.30000001192092896, 0.5, 0.8999999761581421, 1.0, 2.5, 6.5]),
    'log_sigmoid': ('log_sigmoid', [-7.000911712646484, -3.0485870838165283, -1.4632824659347534, -1.31326162815094, -1.0374878644943237, -0.825939416885376, -0.6931471824645996, -0.5543552041053772, -0.4740769863128662, -0.3411538600921631, -0.3132616877555847, -0.07888973504304886, -0.0015023101586848497]),
    'log_softmax': ('log_softmax', [-13.534584999084473, -9.534584999084473, -7.734584808349609, -7.534584999084473, -7.134584903717041, -6.784584999084473, -6.534584999084473, -6.234584808349609, -6.034584999084473, -5.634584903717041, -5.534584999084473, -4.034584999084473, -0.03458496928215027]),
    'mish': ('mish', [-0.0063802627846598625, -0.14564748108386993, -0.3088357746601105, -0.30340149998664856, -0.24693603813648224, -0.12992697954177856, 0.0, 0.20800139009952545, 0.37524524331092834, 0.7612059116363525, 0.8650984168052673, 2.4713923931121826, 6.499970436096191]),
    'relu': ('relu', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.30000001192092896, 0.5, 0.8999999761581421, 1.0, 2.5, 6.5]),
    'relu6': ('relu6', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.30000001192092896, 0.5, 0.8999999761581421, 1.0, 2.5, 6.0]),
    'selu': ('selu', [-1.7564960718154907, -1.6705687046051025, -1.2285699844360352, -1.1113307476043701, -0.7932339906692505, -0.38889017701148987, 0.0, 0.3152103126049042, 0.5253505110740662, 0.9456309080123901, 1.0507010221481323, 2.6267526149749756, 6.829556465148926]),
    'sigmoid': ('sigmoid', [0.0009110512328334153, 0.04742586612701416, 0.23147520422935486, 0.26894140243530273, 0.3543437123298645, 0.43782344460487366, 0.5, 0.574442446231842, 0.622459352016449, 0.7109494805335999, 0.7310585975646973, 0.9241418242454529, 0.998498797416687]),
    'silu': ('silu', [-0.006377358455210924, -0.14227759838104248, -0.2777702510356903, -0.26894140243530273, -0.21260623633861542, -0.10945586115121841, 0.0, 0.1723327338695526, 0.3112296760082245, 0.6398544907569885, 0.7310585975646973, 2.310354471206665, 6.490242004394531]),
    'soft_shrink': ('soft_shrink', [-6.5, -2.5, -0.7000000476837158, -0.5, -0.10000002384185791, 0.0, 0.0, 0.0, 0.0, 0.3999999761581421, 0.5, 2.0, 6.0]),
    'softmax': ('softmax', [1.324355139331601e-06, 7.230733899632469e-05, 0.000437433976912871, 0.000534282939042896, 0.0007970565347932279, 0.0011310770642012358, 0.0014523317804560065, 0.0019604430999606848, 0.0023944901768118143, 0.0035721599124372005, 0.003947847057133913, 0.017693020403385162, 0.9660062789916992]),
    'softplus': ('softplus', [0.0009114663698710501, 0.04858735576272011, 0.26328244805336, 0.3132616877555847, 0.437487930059433, 0.5759394764900208, 0.6931471824645996, 0.8543552160263062, 0.9740769863128662, 1.2411538362503052, 1.31326162815094, 2.578889846801758, 6.501502513885498]),
    'softsign': ('softsign', [-0.875, -0.75, -0.5454545617103577, -0.5, -0.375, -0.20000000298023224, 0.0, 0.23076924681663513, 0.3333333432674408, 0.4736841917037964, 0.5, 0.7142857313156128, 0.8666666746139526]),
    'sparse_plus': ('sparse_plus', [0.0, 0.0, 0.0, 0.0, 0.03999999538064003, 0.140625, 0.25, 0.42249998450279236, 0.5625, 0.9024999737739563, 1.0, 2.5, 6.5]),
    'sparse_sigmoid': ('sparse_sigmoid', [0.0, 0.0, 0.0, 0.0, 0.19999998807907104, 0.375, 0.5, 0.6499999761581421, 0.75, 0.949999988079071, 1.0, 1.0, 1.0]),
    'squareplus': ('squareplus', [0.14005494117736816, 0.30277562141418457, 0.5661903619766235, 0.6180340051651001, 0.7440306544303894, 0.8827822208404541, 1.0, 1.1611874103546143, 1.2807763814926147, 1.5465855598449707, 1.6180340051651, 2.850780963897705, 6.650367736816406]),
    'swish': ('silu', [-0.006377358455210924, -0.14227759838104248, -0.2777702510356903, -0.26894140243530273, -0.21260623633861542, -0.10945586115121841, 0.0, 0.1723327338695526, 0.3112296760082245, 0.6398544907569885, 0.7310585975646973, 2.310354471206665, 6.490242004394531]),
    'tanh': ('tanh', [-0.9999983310699463, -0.9950547218322754, -0.8336547017097473, -0.7615941762924194, -0.5370495915412903, -0.24491865932941437, 0.0, 0.29131263494491577, 0.46211713552474976, 0.7162978649139404, 0.7615941762924194, 0.9866143465042114, 0.9999954104423523]),
    'tanh_shrink': ('tanh_shrink', [-6.000001907348633, -2.0049452781677246, -0.3663453459739685, -0.23840582370758057, -0.06295043230056763, -0.005081340670585632, 0.0, 0.008687376976013184, 0.037882864475250244, 0.18370211124420166, 0.23840582370758057, 1.5133856534957886, 5.500004768371582]),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values_match_keras(name):
    fn_name, values = EXPECTED[name]
    fn = getattr(A, name)
    assert fn.__name__ == fn_name
    np.testing.assert_allclose(fn(X).numpy()[0], values, rtol=2e-6, atol=1e-7)
    assert A.get(name) is fn


def test_options():
    np.testing.assert_allclose(A.relu(X, negative_slope=0.1).numpy()[0][:3], [-0.7, -0.3, -0.12], rtol=1e-6)
    np.testing.assert_allclose(A.relu(X, max_value=2.0).numpy()[0][-3:], [1.0, 2.0, 2.0])
    np.testing.assert_allclose(A.relu(X, threshold=0.4).numpy()[0][6:9], [0.0, 0.0, 0.5])
    np.testing.assert_allclose(A.relu(X, negative_slope=0.1, max_value=6.0, threshold=0.5).numpy()[0], [
        -0.75, -0.3499999940395355, -0.17000000178813934, -0.15000000596046448, -0.11000000685453415,
        -0.07500000298023224, -0.05000000074505806, -0.019999999552965164, 0.0, 0.8999999761581421, 1.0, 2.5, 6.0],
        rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(A.elu(X, alpha=0.5).numpy()[0][:3], [-0.49954405426979065, -0.47510647773742676,
                                                                  -0.34940290451049805], rtol=1e-6)
    np.testing.assert_allclose(A.celu(X, alpha=2.0).numpy()[0][:5], [-1.9396052360534668, -1.5537396669387817,
                                                                   -0.9023767709732056, -0.7869386672973633,
                                                                   -0.5183635354042053], rtol=1e-6)
    np.testing.assert_allclose(A.leaky_relu(X, negative_slope=0.05).numpy()[0][:2], [-0.35, -0.15], rtol=1e-6)
    np.testing.assert_allclose(A.threshold(X, 0.4, -2.0).numpy()[0], [-2.0] * 8 + [0.5, 0.9, 1.0, 2.5, 6.5],
                               rtol=1e-6)
    np.testing.assert_allclose(A.squareplus(X, b=1).numpy()[0][:3], [0.035533905029296875, 0.08113884925842285,
                                                                    0.181024968624115], rtol=1e-6)
    np.testing.assert_allclose(A.glu(np.array([[1., -2., 0.5, 3.]], np.float32)).numpy(),
                               [[0.622459352016449, -1.9051482677459717]], rtol=1e-6)
    with pytest.raises(ValueError, match=r"axis size must be divisible by 2. Received: x.shape=\(1, 13\) with "
                                         r"axis=-1"):
        A.glu(X)


def _sparsemax_reference(z):
    """The projection onto the simplex, one row at a time (NumPy)."""
    out = []
    for row in z:
        s = np.sort(row)[::-1]
        k = np.arange(1, len(row) + 1)
        support = 1 + k * s > np.cumsum(s)
        kk = k[support][-1]
        tau = (np.cumsum(s)[kk - 1] - 1) / kk
        out.append(np.maximum(row - tau, 0))
    return np.array(out)


def test_sparsemax_is_the_simplex_projection():
    z = np.array([[0.1, 2.0, 1.5, -1.], [0.3, 0.3, 0.3, 0.3], [-7., -3., 0.2, 0.25]], np.float32)
    got = A.sparsemax(z).numpy()
    np.testing.assert_allclose(got, _sparsemax_reference(z), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(got.sum(-1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(A.sparsemax(z.T, axis=0).numpy(), got.T, rtol=1e-6, atol=1e-7)


def test_in_a_tf_function_and_gradients():
    f = tf.function(lambda t: A.mish(t) + A.hard_silu(t) + A.celu(t, alpha=2.0) + A.sparse_plus(t))
    np.testing.assert_allclose(f(tf.constant(X)).numpy(), (A.mish(X) + A.hard_silu(X) + A.celu(X, alpha=2.0) +
                                                           A.sparse_plus(X)).numpy(), rtol=1e-6)
    x = tf.Variable(np.array([-0.6, 0.3, 1.7], np.float32))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(A.mish(x))
    eps = 1e-3
    numeric = [(float(np.sum(A.mish(x.numpy() + eps * np.eye(3, dtype=np.float32)[i]).numpy())) -
                float(np.sum(A.mish(x.numpy() - eps * np.eye(3, dtype=np.float32)[i]).numpy()))) / (2 * eps)
               for i in range(3)]
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), numeric, rtol=2e-3)


def test_names_serialize_deserialize_and_layer_configs():
    assert A.get("hard_swish") is A.hard_silu and A.serialize(A.hard_swish) == "hard_silu"
    assert A.get("swish") is A.silu and A.serialize(A.swish) == "silu"
    assert A.serialize(A.relu6) == "relu6" and A.get(None) is A.linear
    assert A.deserialize("mish") is A.mish
    assert A.deserialize({"module": "keras.activations", "class_name": "function", "config": "mish",
                          "registered_name": "function"}) is A.mish
    with pytest.raises(ValueError, match="Could not interpret activation function identifier: nope"):
        A.get("nope")
    assert keras.layers.Dense(2, activation="mish").get_config()["activation"] == "mish"
    assert keras.layers.Dense(2, activation="hard_swish").get_config()["activation"] == "hard_silu"  # TF 2.21


def test_new_activations_survive_model_saving(tmp_path):
    keras.utils.set_random_seed(0)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="mish"),
                              keras.layers.Dense(2, activation="log_sigmoid")])
    x = np.random.RandomState(1).rand(5, 3).astype(np.float32)
    model.save(tmp_path / "m.keras")
    loaded = keras.models.load_model(tmp_path / "m.keras")
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0), rtol=1e-6)
