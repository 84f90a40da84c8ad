"""The random image augmentation layers of issue 24 point 6 beyond their deterministic settings (those
are in test_more_layers.py against Keras' recorded outputs): what each draw may produce and how often,
Keras' {"images", "labels"} dict for the mixing layers, and Keras 3.15.1's error messages. Random streams
differ from Keras', so these check the distribution, not the values."""
import numpy as np
import pytest

from eagerflow import keras

L = keras.layers
RNG = np.random.default_rng(11)


def _images(n, h=3, w=4):
    return RNG.uniform(0, 255, (n, h, w, 3)).astype(np.float32)


def _gray(x):
    return np.repeat((x * np.array([0.2989, 0.5870, 0.1140], np.float32)).sum(-1, keepdims=True), 3, -1)


def test_random_grayscale_turns_about_factor_of_the_images_gray():
    x = _images(400)
    y = np.asarray(L.RandomGrayscale(0.3)(x))
    gray = np.array([np.allclose(a, _gray(b[None])[0], atol=1e-3) for a, b in zip(y, x)])
    kept = np.array([np.array_equal(a, b) for a, b in zip(y, x)])
    assert (gray | kept).all()
    assert 0.22 < gray.mean() < 0.38


def test_random_invert_inverts_with_the_drawn_probability():
    x = _images(400)
    y = np.asarray(L.RandomInvert(factor=(0.5, 0.5))(x))
    inverted = np.array([np.allclose(a, 255 - b) for a, b in zip(y, x)])
    kept = np.array([np.array_equal(a, b) for a, b in zip(y, x)])
    assert (inverted | kept).all() and 0.4 < inverted.mean() < 0.6


def test_solarization_inverts_values_above_a_threshold_drawn_per_image():
    # threshold_factor (0.5, 0.5): Keras draws thresholds in [0.5, 0.5 * 255)
    x = _images(50)
    y = np.asarray(L.Solarization(threshold_factor=(0.5, 0.5))(x))
    for a, b in zip(y, x):
        inverted = ~np.isclose(a, b)
        assert np.allclose(a[inverted], 255 - b[inverted], atol=1e-3)
        if inverted.any() and (~inverted).any():
            assert b[~inverted].max() <= b[inverted].min() + 1e-3  # one threshold per image
    assert 0 < np.mean([~np.isclose(a, b) for a, b in zip(y, x)]) < 1


def test_posterization_keeps_between_one_and_seven_bits():
    x = _images(60)
    y = np.asarray(L.RandomPosterization(8)(x))  # bits drawn from [1, 8)
    seen = set()
    for a, b in zip(y, x):
        options = [bits for bits in range(1, 8)
                   if np.array_equal(a, (b.astype(np.uint8) >> (8 - bits) << (8 - bits)).astype(np.float32))]
        assert options
        seen.add(options[0])
    assert len(seen) > 3


def test_color_degeneration_blends_toward_gray_by_one_factor_per_image():
    x = _images(40)
    y = np.asarray(L.RandomColorDegeneration(0.5)(x))
    gray = _gray(x)
    factors = []
    for a, b, g in zip(y, x, gray):
        inside = (a > 0.5) & (a < 254.5)  # not clipped
        f = ((a - b)[inside] / (g - b)[inside])
        f = f[np.abs((g - b)[inside]) > 5]
        assert np.allclose(f, f[0], atol=1e-3)
        factors.append(f[0])
    assert min(factors) >= -0.5 - 1e-3 and max(factors) <= 0.5 + 1e-3 and np.std(factors) > 0.1


def test_random_crop_takes_one_window_for_the_batch_and_varies_it():
    x = _images(3, 6, 7)
    layer = L.RandomCrop(3, 4)
    places = set()
    for _ in range(25):
        y = np.asarray(layer(x))
        assert y.shape == (3, 3, 4, 3)
        found = [(r, c) for r in range(4) for c in range(4) if np.array_equal(y, x[:, r:r + 3, c:c + 4])]
        assert len(found) == 1
        places.add(found[0])
    assert len(places) > 3


def test_mix_up_mixes_images_and_labels_with_one_weight():
    x, labels = _images(6), np.eye(6, dtype=np.float32)
    out = L.MixUp(alpha=0.4)({"images": x, "labels": labels})
    images, mixed = np.asarray(out["images"]), np.asarray(out["labels"])
    np.testing.assert_allclose(mixed.sum(1), 1.0, rtol=1e-5)
    for i in range(6):
        w = mixed[i, i]
        others = [j for j in range(6) if j != i and mixed[i, j] > 1e-6]
        partner = others[0] if others else i
        if partner == i:
            w = 1.0
        np.testing.assert_allclose(images[i], w * x[i] + (1 - w) * x[partner], rtol=1e-4, atol=1e-2)


def test_cut_mix_pastes_a_box_of_the_partner_image():
    x, labels = _images(6, 8, 8), np.eye(6, dtype=np.float32)
    out = L.CutMix()({"images": x, "labels": labels})
    images, mixed = np.asarray(out["images"]), np.asarray(out["labels"])
    np.testing.assert_allclose(mixed.sum(1), 1.0, rtol=1e-5)
    for i in range(6):
        others = [j for j in range(6) if j != i and mixed[i, j] > 1e-6]
        if not others:
            continue
        pasted = ~np.isclose(images[i], x[i]).all(-1)
        assert np.array_equal(images[i][pasted], x[others[0]][pasted])
        rows, cols = np.nonzero(pasted)
        if rows.size:  # a box: every pixel between its corners is pasted
            box = pasted[rows.min():rows.max() + 1, cols.min():cols.max() + 1]
            assert box.mean() > 0.6


@pytest.mark.parametrize("make, message", [
    # Keras 3.15.1's messages
    (lambda: L.RandomPosterization(9), "The `factor` argument should be a number (or a list of two numbers) in "
                                       "the range [1, 8]. Received: factor=9"),
    (lambda: L.Solarization(addition_factor=2), "The `addition_factor` and `threshold_factor` arguments should be "
                                                "a number (or a list of two numbers) in the range [0, 1]. Received: "
                                                "input_number=2"),
    (lambda: L.RandomGrayscale(1.5), "`factor` should be between 0 and 1. Received: factor=1.5"),
    (lambda: L.AutoContrast(value_range=(1, 2, 3)), "The `value_range` argument should be a list of two numbers. "
                                                    "Received: value_range=(1, 2, 3)"),
    (lambda: L.RandomSaturation(0.5, value_range=[0]), "The `value_range` argument should be a list of two "
                                                        "numbers. Received: value_range=[0]"),
    (lambda: L.RandomGrayscale(0.5)(np.zeros((2, 3), np.float32)),
     "Expected image tensor to have rank 3 (single image) or 4 (batch of images). Received: data.shape=(2, 3)"),
])
def test_keras_messages(make, message):
    with pytest.raises(ValueError) as info:
        make()
    assert message in str(info.value)


def test_augmentation_inside_a_model_runs_in_direct_calls_and_fit_not_predict():
    """Keras 3.15: model(x) leaves training unset, so the layers' own default (True) applies and they
    augment; predict() runs them in inference (identity)."""
    model = keras.Sequential([keras.Input((4, 4, 3)), L.RandomInvert(factor=(1.0, 1.0)), L.RandomGrayscale(1.0),
                              L.Flatten(), L.Dense(1)])
    x = _images(4, 4, 4)
    kernel, bias = np.asarray(model.layers[-1].kernel), np.asarray(model.layers[-1].bias)
    np.testing.assert_allclose(model.predict(x, verbose=0), x.reshape(4, -1) @ kernel + bias, rtol=1e-4, atol=1e-2)
    augmented = _gray(255 - x).reshape(4, -1) @ kernel + bias
    np.testing.assert_allclose(np.asarray(model(x)), augmented, rtol=1e-4, atol=1e-2)
    model.compile(optimizer="sgd", loss="mse")
    assert np.isfinite(model.fit(x, np.zeros((4, 1)), epochs=1, verbose=0).history["loss"][0])


def test_random_hue_shifts_each_image_by_plus_or_minus_half_the_factor():
    import colorsys
    x = RNG.uniform(0, 255, (40, 2, 2, 3)).astype(np.float32)
    y = np.asarray(L.RandomHue(factor=(0.4, 0.4))(x))
    signs = []
    for a, b in zip(y, x):
        shifts = []
        for p, q in zip(a.reshape(-1, 3) / 255, b.reshape(-1, 3) / 255):
            (h1, s1, v1), (h0, s0, v0) = colorsys.rgb_to_hsv(*p), colorsys.rgb_to_hsv(*q)
            assert abs(s1 - s0) < 1e-3 and abs(v1 - v0) < 1e-3
            if s0 > 0.05:
                shifts.append((h1 - h0 + 0.5) % 1.0 - 0.5)
        assert np.allclose(shifts, shifts[0], atol=2e-3) and abs(abs(shifts[0]) - 0.2) < 2e-3
        signs.append(np.sign(shifts[0]))
    assert 0.2 < np.mean(np.array(signs) > 0) < 0.8


def test_random_sharpness_factor_is_drawn_per_image():
    x = _images(30, 5, 5)
    y = np.asarray(L.RandomSharpness(factor=(0.1, 0.4), value_range=(-1000, 1000))(x))
    blurred = np.asarray(L.RandomSharpness(factor=(0.0, 0.0), value_range=(-1000, 1000))(x))
    amounts = [float(np.sum((a - b) * (c - b)) / np.sum((c - b) ** 2)) for a, b, c in zip(y, x, blurred)]
    assert min(amounts) > 1 - 0.8 - 1e-3 and max(amounts) < 1 - 0.2 + 1e-3 and np.std(amounts) > 0.05


def test_random_erasing_fills_one_box_in_about_factor_of_the_images():
    x = _images(300, 8, 8)
    y = np.asarray(L.RandomErasing(factor=(0.5, 0.5), scale=(0.1, 0.3), fill_value=(1.0, 2.0, 3.0))(x))
    erased = []
    for a, b in zip(y, x):
        box = (a != b).any(-1)
        erased.append(box.any())
        if box.any():
            np.testing.assert_array_equal(a[box], np.broadcast_to([1.0, 2.0, 3.0], a[box].shape))
            rows, cols = np.nonzero(box)
            assert box[rows.min():rows.max() + 1, cols.min():cols.max() + 1].all()
            # sides are sqrt(scale) of the image's: between 0.31 and 0.55 of 8 pixels, so 2 to 6 pixels
            assert 1 <= rows.max() - rows.min() + 1 <= 6 and 1 <= cols.max() - cols.min() + 1 <= 6
    assert 0.4 < np.mean(erased) < 0.6


def test_equalization_leaves_a_single_valued_channel_alone():
    x = np.full((1, 4, 4, 3), 100.0, np.float32)
    x[..., 1] = np.arange(16, dtype=np.float32).reshape(1, 4, 4) * 10
    y = np.asarray(L.Equalization()(x))
    np.testing.assert_array_equal(y[..., 0], x[..., 0])
    # 16 distinct values in 16 bins: the cumulative histogram spreads them evenly over 0..255
    np.testing.assert_allclose(np.sort(y[..., 1].ravel()), np.round(np.arange(16) * 255 / 15), atol=1e-4)


def test_random_shear_gives_one_of_keras_two_shears():
    import json
    import os
    with open(os.path.join(os.path.dirname(__file__), "keras3_more_layers_oracle.json")) as f:
        recorded = json.load(f)["shear_references"]
    image = np.asarray(recorded["image"], np.float32)
    batch = np.repeat(image, 40, axis=0)
    out = np.asarray(L.RandomShear(x_factor=(0.3, 0.3), y_factor=(0.1, 0.1))(batch))
    plus, minus = (np.asarray(s, np.float32)[0] for s in recorded["sheared"])
    which = []
    for o in out:
        is_plus, is_minus = np.allclose(o, plus, atol=1e-3), np.allclose(o, minus, atol=1e-3)
        assert is_plus or is_minus
        which.append(is_plus)
    assert 0.2 < np.mean(which) < 0.8


def test_rand_augment_applies_one_of_keras_eleven_choices():
    """With factor 0 and one op, each of Keras' choices is the identity (shear, translation, rotation,
    brightness, colour degeneration, contrast) or a fixed map: full smoothing (sharpness 0), 1-bit
    posterization, inversion (solarization at threshold 0), AutoContrast or Equalization."""
    x = _images(2, 6, 6)
    candidates = {
        "identity": x,
        "smoothed": np.asarray(L.RandomSharpness(factor=(0.0, 0.0))(x)),
        "posterized": np.asarray(L.RandomPosterization(factor=(1, 1))(x)),
        "solarized": np.asarray(L.Solarization()(x)),
        "auto_contrast": np.asarray(L.AutoContrast()(x)),
        "equalized": np.asarray(L.Equalization()(x)),
    }
    layer = L.RandAugment(num_ops=1, factor=0.0)
    seen = set()
    for _ in range(40):
        y = np.asarray(layer(x))
        match = [name for name, c in candidates.items() if np.allclose(y, c, atol=1e-2)]
        assert match, "not one of RandAugment's choices"
        seen.add(match[0])
    assert "identity" in seen and len(seen) >= 3
    assert layer.get_config()["factor"] == [0, 0.0] and layer.get_config()["num_ops"] == 1
