"""Masks through the new layers, against TensorFlow 2.21's Keras 3.15: Bidirectional over an
Embedding(mask_zero=True) (masked steps give zeros, the mask passes on), GlobalAveragePooling1D's
masked mean, and the merge layers' mask rules (Multiply counts a masked step as 1)."""
import re

import numpy as np
import pytest

from eagerflow import keras
from tests.keras.layer_oracle import ORACLE, arr

L = keras.layers
IDS = np.array([[3, 1, 0, 0], [2, 2, 2, 1]], np.int32)


@pytest.fixture(autouse=True)
def _fresh_names():
    keras.backend.clear_session()


def _embedded():
    emb = L.Embedding(4, 3, mask_zero=True)
    emb.build((None, 4))
    emb.set_weights([arr("table")])
    return emb(IDS)


def _mask_of(t):
    from eagerflow.keras.layers.masks import get_keras_mask
    m = get_keras_mask(t)
    return None if m is None else m.numpy().tolist()


def test_bidirectional_over_a_masked_sequence_matches_keras():
    weights = [np.asarray(w, np.float32) for w in ORACLE["mbi_ws"]]
    bi = L.Bidirectional(L.LSTM(2, return_sequences=True))
    bi.build((None, 4, 3))
    bi.set_weights(weights)
    y = bi(_embedded())
    np.testing.assert_allclose(y.numpy(), arr("mbi_out"), rtol=1e-5, atol=1e-6)
    assert _mask_of(y) == ORACLE["mbi_mask"]
    last = L.Bidirectional(L.LSTM(2))
    last.build((None, 4, 3))
    last.set_weights(weights)
    np.testing.assert_allclose(last(_embedded()).numpy(), arr("mbi_last"), rtol=1e-5, atol=1e-6)
    lstm = L.LSTM(2, return_sequences=True)  # alone it repeats the last output on masked steps (no zeros)
    lstm.build((None, 4, 3))
    lstm.set_weights(weights[:3])
    np.testing.assert_allclose(lstm(_embedded()).numpy(), arr("mlstm_out"), rtol=1e-5, atol=1e-6)


def test_masked_global_average_and_multiply_match_keras():
    e = _embedded()
    np.testing.assert_allclose(L.GlobalAveragePooling1D()(e).numpy(), arr("gap_masked"), rtol=1e-6)
    m = L.Multiply()([e, e])
    np.testing.assert_allclose(m.numpy(), arr("mul_masked"), rtol=1e-6)
    assert _mask_of(m) == ORACLE["mul_mask"]


def test_maximum_takes_the_other_inputs_value_on_masked_steps():
    e = _embedded()
    unmasked = np.full(e.shape, -5.0, np.float32)
    # Keras 3: a masked step of one input takes the other input's value, so max(e, -5) keeps -5 there
    out = L.Maximum()([e, unmasked]).numpy()
    expected = np.maximum(e.numpy(), -5.0)
    expected[0, 2:] = -5.0
    np.testing.assert_array_equal(out, expected)


def test_merge_rank_alignment_follows_keras():
    # Keras gives the lower-rank input size-1 axes after the batch axis: (2, 3) meets (2, 4, 3) as (2, 1, 3)
    a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((2, 4, 3), np.float32) * 2
    np.testing.assert_array_equal(L.Multiply()([a, b]).numpy(), a[:, None, :] * b)
    with pytest.raises(ValueError, match=re.escape("Inputs have incompatible shapes. Received shapes (4, 3) and (4,)")):
        L.Maximum()([np.ones((2, 4), np.float32), b])
