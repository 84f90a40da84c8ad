"""tf.nn.ctc_greedy_decoder and tf.nn.ctc_beam_search_decoder against TensorFlow 2.21: the decoded
SparseTensors (indices, values, dense shape) and log probabilities, for logits from a NumPy
RandomState stream rebuilt here (with repeated steps), merge_repeated on and off, blank indices,
beam widths and path counts (TensorFlow's beam search approximations included), and its errors."""
import numpy as np
import pytest

import eagerflow as tf

_RS = np.random.RandomState(5)
X = _RS.randn(7, 3, 4).astype("float32")
X[2:4, 0] = X[1:3, 0]  # repeats
LENGTHS = np.array([7, 5, 2], np.int32)
PEAKED = np.log(np.array([[0.6, 0.3, 0.1], [0.5, 0.4, 0.1], [0.2, 0.2, 0.6], [0.4, 0.5, 0.1]], np.float32))[:, None, :]

CALLS = {
    "greedy": lambda x, n: tf.nn.ctc_greedy_decoder(x, n),
    "greedy_nomerge": lambda x, n: tf.nn.ctc_greedy_decoder(x, n, merge_repeated=False),
    "greedy_blank0": lambda x, n: tf.nn.ctc_greedy_decoder(x, n, blank_index=0),
    "greedy_blank1": lambda x, n: tf.nn.ctc_greedy_decoder(x, n, blank_index=1),
    "greedy_blankm2": lambda x, n: tf.nn.ctc_greedy_decoder(x, n, blank_index=-2),
    "greedy_zero_len": lambda x, n: tf.nn.ctc_greedy_decoder(x, tf.constant([0, 5, 2])),
    "beam": lambda x, n: tf.nn.ctc_beam_search_decoder(x, n),
    "beam_w3_top2": lambda x, n: tf.nn.ctc_beam_search_decoder(x, n, beam_width=3, top_paths=2),
    "beam_w10_top3": lambda x, n: tf.nn.ctc_beam_search_decoder(x, n, beam_width=10, top_paths=3),
    "beam_peaked": lambda x, n: tf.nn.ctc_beam_search_decoder(PEAKED, [4], beam_width=5, top_paths=4),
}
# TensorFlow's log probabilities and, per path, (indices, values, dense_shape)
EXPECTED = {
    "greedy": ([[-8.841095924377441], [-5.740508079528809], [0.2349047213792801]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 0], [1, 1], [2, 0]],
         [2, 1, 0, 2, 1, 0, 1, 2, 0], [3, 6]),
    ]),
    "greedy_nomerge": ([[-8.841095924377441], [-5.740508079528809], [0.2349047213792801]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [1, 0], [1, 1], [1, 2], [2, 0]],
         [2, 1, 1, 0, 2, 1, 0, 1, 1, 2, 0], [3, 7]),
    ]),
    "greedy_blank0": ([[-8.841095924377441], [-5.740508079528809], [0.2349047213792801]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2], [2, 0]],
         [2, 1, 2, 1, 1, 2, 3, 3], [3, 4]),
    ]),
    "greedy_blank1": ([[-8.841095924377441], [-5.740508079528809], [0.2349047213792801]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [2, 0], [2, 1]],
         [2, 0, 2, 0, 2, 3, 0, 3], [3, 4]),
    ]),
    "greedy_blankm2": ([[-8.841095924377441], [-5.740508079528809], [0.2349047213792801]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [2, 0], [2, 1]],
         [1, 0, 1, 0, 1, 3, 0, 3], [3, 4]),
    ]),
    "greedy_zero_len": ([[0.0], [-5.740508079528809], [0.2349047213792801]], [
        ([[1, 0], [1, 1], [2, 0]],
         [1, 2, 0], [3, 2]),
    ]),
    "beam": ([[-2.4838650226593018], [-1.7481459379196167], [-1.3031936883926392]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1], [2, 0]],
         [2, 1, 2, 1, 0, 1, 2, 0], [3, 5]),
    ]),
    "beam_w3_top2": ([[-2.647402763366699, -2.7264533042907715], [-1.7730823755264282, -2.362217903137207], [-1.3031936883926392, -1.6252280473709106]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1], [2, 0]],
         [2, 1, 2, 1, 0, 1, 2, 0], [3, 5]),
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 0], [1, 1], [2, 0]],
         [2, 1, 0, 2, 1, 0, 1, 0, 1], [3, 6]),
    ]),
    "beam_w10_top3": ([[-2.5848469734191895, -2.7264533042907715, -2.835219144821167], [-1.7483160495758057, -2.2791826725006104, -2.3575236797332764], [-1.3031936883926392, -1.6252280473709106, -2.146494150161743]], [
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [1, 0], [1, 1], [2, 0]],
         [2, 1, 2, 1, 0, 1, 2, 0], [3, 5]),
        ([[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [1, 0], [1, 1], [1, 2], [2, 0]],
         [2, 1, 0, 2, 1, 0, 1, 0, 2, 1], [3, 6]),
        ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [2, 0]],
         [2, 1, 2, 0, 1, 0, 2], [3, 4]),
    ]),
    "beam_peaked": ([[-1.3807098865509033, -2.0129048824310303, -2.2808237075805664, -2.3187143802642822]], [
        ([[0, 0], [0, 1]],
         [0, 1], [1, 2]),
        ([[0, 0], [0, 1], [0, 2]],
         [0, 1, 0], [1, 3]),
        ([[0, 0], [0, 1]],
         [1, 0], [1, 2]),
        ([[0, 0], [0, 1]],
         [0, 0], [1, 2]),
    ]),
}


@pytest.mark.parametrize("mode", ["eager", "function"])
@pytest.mark.parametrize("case", list(CALLS))
def test_decoders_match_tensorflow(mode, case):
    call = CALLS[case]
    decoded, log_probs = call(tf.constant(X), tf.constant(LENGTHS)) if mode == "eager" else \
        tf.function(call)(tf.constant(X), tf.constant(LENGTHS))
    expected_log_probs, expected_paths = EXPECTED[case]
    assert log_probs.dtype == tf.float32
    np.testing.assert_allclose(log_probs.numpy(), expected_log_probs, rtol=1e-6, atol=1e-6)
    assert len(decoded) == len(expected_paths)
    for path, (indices, values, shape) in zip(decoded, expected_paths):
        assert isinstance(path, tf.SparseTensor) and path.values.dtype == tf.int64
        assert path.indices.numpy().tolist() == indices
        assert path.values.numpy().tolist() == values
        assert path.dense_shape.numpy().tolist() == shape


def test_float64_logits():
    decoded, log_probs = tf.nn.ctc_beam_search_decoder(tf.constant(X.astype(np.float64)), LENGTHS, beam_width=4,
                                                       top_paths=2)
    np.testing.assert_allclose(log_probs.numpy(), [[-2.64740221526616, -2.7264532330273905],
                                                   [-1.7730822208167414, -2.279763789504523],
                                                   [-1.3031937306746981, -1.6252280449494858]], rtol=1e-6)
    assert decoded[1].values.numpy().tolist() == [2, 1, 0, 2, 1, 0, 1, 0, 2, 1]


@pytest.mark.parametrize("mode", ["eager", "function"])
def test_errors_match_tensorflow(mode):
    def run(f):
        return f() if mode == "eager" else tf.function(f)()
    too_long = tf.constant([8, 5, 2])
    with pytest.raises(tf.errors.FailedPreconditionError, match=r"sequence_length\(0\) <= 7"):
        run(lambda: tf.nn.ctc_greedy_decoder(tf.constant(X), too_long))
    with pytest.raises(tf.errors.FailedPreconditionError, match=r"sequence_length\(0\) <= 7"):
        run(lambda: tf.nn.ctc_beam_search_decoder(tf.constant(X), too_long))
    with pytest.raises(tf.errors.InvalidArgumentError, match="requested more paths than the beam width."):
        run(lambda: tf.nn.ctc_beam_search_decoder(tf.constant(X), LENGTHS, beam_width=2, top_paths=3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Less leaves in the beam search than requested."):
        run(lambda: tf.nn.ctc_beam_search_decoder(tf.constant(X), tf.constant([0, 5, 2]), beam_width=3,
                                                  top_paths=2))
    message = "inputs is not a 3-Tensor" if mode == "eager" else "Shape must be rank 3 but is rank 2"
    with pytest.raises(tf.errors.InvalidArgumentError if mode == "eager" else ValueError, match=message):
        run(lambda: tf.nn.ctc_greedy_decoder(tf.constant(X[0]), LENGTHS))
