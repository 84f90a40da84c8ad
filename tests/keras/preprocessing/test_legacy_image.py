"""The legacy `tf.keras.preprocessing.image` API (ImageDataGenerator, its iterators, the NumPy transforms)
against TensorFlow 2.21's Keras 3.15.1: legacy_image_oracle.json holds what TF returned for the cases in
legacy_image_cases.py (make_legacy_image_oracle.py wrote it). Augmentations draw from NumPy's global random
state in Keras' order, so seeded batches match TF's number for number."""
import json
import os
import sys

import numpy as np
import pytest

import eagerflow as tf
from tests.keras.preprocessing.legacy_image_cases import (AFFINE_CASES, DATAFRAME_CASES, GENERATOR_CASES, image,
                                                          make_image_tree, samples)

P = tf.keras.preprocessing.image
with open(os.path.join(os.path.dirname(__file__), "legacy_image_oracle.json")) as _f:
    ORACLE = json.load(_f)

# dir(tf.keras.preprocessing.image) in TensorFlow 2.21, public names
TF_NAMES = ['DirectoryIterator', 'ImageDataGenerator', 'Iterator', 'NumpyArrayIterator', 'apply_affine_transform',
            'apply_brightness_shift', 'apply_channel_shift', 'array_to_img', 'img_to_array', 'load_img',
            'random_brightness', 'random_channel_shift', 'random_rotation', 'random_shear', 'random_shift',
            'random_zoom', 'save_img', 'smart_resize']


def test_names_match_tensorflow():
    assert ORACLE["keras"] == "3.15.1"
    assert set(TF_NAMES) <= set(dir(P))
    assert P.load_img is tf.keras.utils.load_img


@pytest.mark.parametrize("case", range(len(AFFINE_CASES)))
def test_apply_affine_transform_matches_keras(case):
    kwargs, shape = AFFINE_CASES[case]
    x = image(shape)
    out = P.apply_affine_transform(x, **kwargs)
    assert out.shape == x.shape and out.dtype == np.float32
    np.testing.assert_allclose(out, np.array(ORACLE["affine"][case]), rtol=1e-5, atol=1e-4)


def test_apply_affine_transform_identity_and_errors():
    x = image((3, 4, 2))
    assert P.apply_affine_transform(x) is x
    with pytest.raises(ValueError, match="must be distinct"):
        P.apply_affine_transform(x, theta=5, row_axis=0, col_axis=0)
    with pytest.raises(ValueError, match="multi-channel 2D images"):
        P.apply_affine_transform(x[0], theta=5)
    with pytest.raises(NotImplementedError, match="order"):
        P.apply_affine_transform(x, theta=5, order=3)
    with pytest.raises(ValueError, match="fill_mode"):
        P.apply_affine_transform(x, theta=5, fill_mode="mirror")


def _pillow():
    return pytest.importorskip("PIL")


@pytest.mark.parametrize("case", range(len(GENERATOR_CASES)))
def test_seeded_generator_batches_match_keras(case):
    gen_kwargs, flow_kwargs = GENERATOR_CASES[case]
    if "brightness_range" in gen_kwargs:
        _pillow()
    expected = ORACLE["generators"][case]
    x, y = samples(gen_kwargs.get("data_format", "channels_last"))
    with pytest.warns(UserWarning) if gen_kwargs.get("zca_whitening") else _no_warning():
        gen = P.ImageDataGenerator(**gen_kwargs)
    if gen_kwargs.get("featurewise_center") or gen_kwargs.get("zca_whitening"):
        gen.fit(x, seed=3)
    for ours, theirs in [(gen.mean, expected["mean"]), (gen.std, expected["std"])]:
        assert (ours is None) == (theirs is None)
        if theirs is not None:
            np.testing.assert_allclose(ours, theirs, rtol=1e-5)
    it = gen.flow(x, y, **flow_kwargs)
    assert isinstance(it, P.NumpyArrayIterator) and isinstance(it, tf.keras.utils.PyDataset)
    first, second, indexed = next(it), next(it), it[1]
    atol = 1e-3 if gen_kwargs.get("zca_whitening") else 1e-4
    for got, want in zip([first[0], first[1], second[0], second[1], indexed[0], indexed[1]],
                         expected["next"] + expected["indexed"]):
        np.testing.assert_allclose(got, np.array(want), rtol=1e-4, atol=atol)
    assert first[0].dtype == np.float32


class _no_warning:
    def __enter__(self):
        import warnings
        self._catch = warnings.catch_warnings()
        self._catch.__enter__()
        warnings.simplefilter("error")

    def __exit__(self, *exc):
        self._catch.__exit__(*exc)


@pytest.mark.parametrize("name", ["rotation", "shift", "shear", "zoom", "channel_shift", "brightness",
                                  "brightness_unscaled", "channel_shift_fixed"])
def test_random_transforms_replay_keras_with_the_same_seed(name):
    if "brightness" in name:
        _pillow()
    img = image((5, 6, 3)) * 10.0
    calls = {"rotation": lambda: P.random_rotation(img, 40, 0, 1, 2),
             "shift": lambda: P.random_shift(img, 0.2, 0.3, 0, 1, 2, fill_mode="wrap"),
             "shear": lambda: P.random_shear(img, 25, 0, 1, 2, fill_mode="reflect"),
             "zoom": lambda: P.random_zoom(img, (0.6, 1.4), 0, 1, 2, fill_mode="constant", cval=3),
             "channel_shift": lambda: P.random_channel_shift(img, 30.0, 2),
             "brightness": lambda: P.random_brightness(img, (0.5, 1.5)),
             "brightness_unscaled": lambda: P.apply_brightness_shift(img * 3 - 100, 1.3, scale=False),
             "channel_shift_fixed": lambda: P.apply_channel_shift(img, -25.0, 2)}
    np.random.seed(11)
    out = calls[name]()
    np.testing.assert_allclose(out, np.array(ORACLE["random"][name]), rtol=1e-5, atol=1e-3)
    np.random.seed(11)
    np.testing.assert_array_equal(calls[name](), out)


def test_random_rotation_spreads_over_its_range():
    """Unseeded: each call draws a new angle; the centre pixel of an odd image never moves."""
    x = np.zeros((9, 9, 1), "float32")
    x[4, :] = 1.0
    outs = [P.random_rotation(x, 60, 0, 1, 2, fill_mode="constant") for _ in range(20)]
    assert len({o.tobytes() for o in outs}) == 20
    assert all(abs(o[4, 4, 0] - 1.0) < 1e-6 for o in outs)


@pytest.fixture(scope="module")
def image_tree(tmp_path_factory):
    _pillow()
    root = tmp_path_factory.mktemp("images")
    make_image_tree(str(root))
    return str(root)


@pytest.mark.parametrize("mode", ["categorical", "binary", "sparse", "input", None])
def test_flow_from_directory_matches_keras(image_tree, mode, capsys):
    expected = ORACLE["directory"][str(mode)]
    gen = P.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.25)
    classes = ["cats", "dogs"] if mode == "binary" else None
    it = gen.flow_from_directory(image_tree, target_size=(4, 5), class_mode=mode, classes=classes, batch_size=3,
                                 shuffle=False)
    assert capsys.readouterr().out == f"Found {expected['samples']} images belonging to " \
                                      f"{len(expected['class_indices'])} classes.\n"
    assert isinstance(it, P.DirectoryIterator) and isinstance(it, P.Iterator)
    assert it.class_indices == expected["class_indices"]
    assert it.classes.tolist() == expected["classes"] and it.classes.dtype == np.int32
    assert [f.replace(os.sep, "/") for f in it.filenames] == expected["filenames"]
    assert it.samples == expected["samples"] and len(it) == expected["len"]
    batch = it[0]
    xs, ys = batch if isinstance(batch, tuple) else (batch, None)
    assert str(xs.dtype) == expected["x_dtype"]
    np.testing.assert_allclose(xs, np.array(expected["x"]), rtol=1e-6)
    if expected["y"] is None:
        assert ys is None
    else:
        assert str(ys.dtype) == expected["y_dtype"]
        np.testing.assert_allclose(ys, np.array(expected["y"]), rtol=1e-6)


@pytest.mark.parametrize("subset", ["training", "validation"])
def test_flow_from_directory_subsets_match_keras(image_tree, subset):
    expected = ORACLE["directory"][subset]
    gen = P.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.25)
    it = gen.flow_from_directory(image_tree, target_size=(3, 3), color_mode="grayscale", subset=subset,
                                 class_mode="sparse", batch_size=4, shuffle=False)
    assert [f.replace(os.sep, "/") for f in it.filenames] == expected["filenames"]
    assert it.classes.tolist() == expected["classes"]
    np.testing.assert_allclose(it[0][0], np.array(expected["x"]), rtol=1e-6)


def test_flow_from_directory_seeded_shuffle_matches_keras(image_tree):
    expected = ORACLE["directory"]["shuffled"]
    gen = P.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.25)
    it = gen.flow_from_directory(image_tree, target_size=(4, 5), batch_size=2, shuffle=True, seed=5,
                                 interpolation="bilinear")
    first, second = it[0], it[1]
    np.testing.assert_array_equal(first[1], expected["y"][0])
    np.testing.assert_array_equal(second[1], expected["y"][1])
    np.testing.assert_allclose(first[0], np.array(expected["x0"]), rtol=1e-6)


@pytest.mark.parametrize("case", range(len(DATAFRAME_CASES)))
def test_flow_from_dataframe_matches_keras(image_tree, case):
    """Keras takes a pandas DataFrame; a dict of columns reads the same (pandas is not installed here)."""
    columns, kwargs = DATAFRAME_CASES[case]
    expected = ORACLE["dataframe"][case]
    gen = P.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.25)
    kwargs = dict({"target_size": (4, 5), "shuffle": False}, **kwargs)
    invalid = kwargs.get("validate_filenames", True) and len(columns[kwargs.get("x_col", "filename")]) == 9
    with pytest.warns(UserWarning, match="Found 2 invalid image filename") if invalid else _no_warning():
        it = gen.flow_from_dataframe(columns, directory=image_tree, **kwargs)
    assert getattr(it, "class_indices", None) == expected["class_indices"]
    if expected["classes"] is not None:
        assert list(it.classes) == expected["classes"]
    assert it.filenames == expected["filenames"]
    assert it.samples == expected["samples"] and len(it) == expected["len"]
    batch = it[0]
    parts = list(batch) if isinstance(batch, tuple) else [batch]
    assert len(parts) == len(expected["batch"])
    for part, want, dtype in zip(parts, expected["batch"], expected["dtypes"]):
        if dtype == "list":
            assert isinstance(part, list)
            for got, w in zip(part, want):
                np.testing.assert_allclose(got, w, rtol=1e-6)
        else:
            assert str(part.dtype) == dtype
            np.testing.assert_allclose(part, np.array(want), rtol=1e-6)


def test_flow_from_dataframe_bad_tables(image_tree):
    gen = P.ImageDataGenerator()
    with pytest.raises(TypeError, match="All values in column x_col=filename must be strings"):
        gen.flow_from_dataframe({"filename": [1, 2], "class": ["a", "b"]}, image_tree)
    with pytest.raises(ValueError, match='If class_mode="binary" there must be 2 classes. Found 3 classes'):
        gen.flow_from_dataframe({"filename": ["a.png"] * 3, "class": ["a", "b", "c"]}, image_tree,
                                class_mode="binary")
    with pytest.raises(TypeError, match='If class_mode="sparse", y_col="class" column values must be strings'):
        gen.flow_from_dataframe({"filename": ["a.png"] * 2, "class": [0, 1]}, image_tree, class_mode="sparse")
    with pytest.raises(TypeError, match='If class_mode="multi_output", y_col must be a list. Received str'):
        gen.flow_from_dataframe({"filename": ["a.png"]}, image_tree, class_mode="multi_output")
    with pytest.raises(TypeError, match="Column weight_col=w must be numeric"):
        gen.flow_from_dataframe({"filename": ["a.png"], "class": ["a"], "w": ["heavy"]}, image_tree,
                                weight_col="w")
    with pytest.warns(DeprecationWarning, match='`class_mode="other"` is deprecated'):
        it = gen.flow_from_dataframe({"filename": ["cats/img0.png"], "class": [3.0]}, image_tree,
                                     class_mode="other", target_size=(2, 2))
    np.testing.assert_array_equal(it[0][1], [3.0])


def test_iterator_protocol():
    x, y = samples()
    it = P.ImageDataGenerator().flow(x, y, batch_size=4, shuffle=False)
    assert len(it) == 2 and it.n == 6 and it.batch_size == 4
    sizes = [len(next(it)[0]) for _ in range(4)]
    assert sizes == [4, 2, 4, 2]  # next() walks the epoch endlessly; the last batch is short
    next(it)
    it.reset()
    np.testing.assert_array_equal(next(it)[1], y[:4])
    with pytest.raises(ValueError, match="Asked to retrieve element 2, but the Sequence has length 2"):
        it[2]
    only_x = P.ImageDataGenerator().flow(x, batch_size=6, shuffle=False)
    np.testing.assert_array_equal(next(only_x), x)
    weighted = P.ImageDataGenerator().flow((x, np.arange(6.0)), y, sample_weight=np.ones(6) * 2, batch_size=6,
                                           shuffle=False)
    (images, extra), labels, weights = next(weighted)
    np.testing.assert_array_equal(extra, np.arange(6.0))
    np.testing.assert_array_equal(weights, np.full(6, 2.0))


def test_bad_arguments_raise_like_keras():
    x, y = samples()
    with pytest.raises(ValueError, match="`validation_split` must be strictly between 0 and 1"):
        P.ImageDataGenerator(validation_split=1.5)
    with pytest.raises(ValueError, match="`zoom_range` should be a float or a tuple or list of two floats"):
        P.ImageDataGenerator(zoom_range=(0.1, 0.2, 0.3))
    with pytest.raises(ValueError, match="`data_format` should be"):
        P.ImageDataGenerator(data_format="NHWC")
    with pytest.raises(ValueError, match="should have rank 4"):
        P.ImageDataGenerator().flow(x[0], batch_size=2)
    with pytest.raises(ValueError, match="should have the same length"):
        P.ImageDataGenerator().flow(x, y[:3])
    with pytest.raises(ValueError, match="Invalid subset name"):
        P.ImageDataGenerator(validation_split=0.5).flow(x, y, subset="test")
    with pytest.raises(ValueError, match="different number of classes after the split"):
        P.ImageDataGenerator(validation_split=0.5).flow(x, np.sort(y), subset="training")
    with pytest.raises(ValueError, match="Input to `.fit[(][)]` should have rank 4"):
        P.ImageDataGenerator(featurewise_center=True).fit(x[0])


def test_bad_directory_arguments(image_tree):
    gen = P.ImageDataGenerator()
    with pytest.raises(ValueError, match="Invalid class_mode: other"):
        gen.flow_from_directory(image_tree, class_mode="other")
    with pytest.raises(ValueError, match="Invalid color mode: cmyk"):
        gen.flow_from_directory(image_tree, color_mode="cmyk")


def test_standardize_warns_before_fit():
    gen = P.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True)
    with pytest.warns(UserWarning, match="hasn't been fit on any training data"):
        gen.standardize(image((4, 4, 3)))


def test_missing_pillow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"eagerflow\[image\]"):
        P.apply_brightness_shift(image((4, 4, 3)), 1.2)


def test_model_fit_on_a_flow_and_a_directory(image_tree):
    tf.keras.utils.set_random_seed(0)
    x, y = samples()
    gen = P.ImageDataGenerator(rescale=1 / 255.0, horizontal_flip=True, rotation_range=10)
    model = tf.keras.Sequential([tf.keras.Input((6, 5, 3)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(3, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy")
    history = model.fit(gen.flow(x, y, batch_size=4, seed=0), epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3 and np.isfinite(history.history["loss"]).all()
    it = P.ImageDataGenerator(rescale=1 / 255.0).flow_from_directory(image_tree, target_size=(4, 5), batch_size=4)
    clf = tf.keras.Sequential([tf.keras.Input((4, 5, 3)), tf.keras.layers.Flatten(),
                               tf.keras.layers.Dense(3, activation="softmax")])
    clf.compile("sgd", "categorical_crossentropy")
    before = clf.evaluate(it, verbose=0)
    clf.fit(it, epochs=20, verbose=0)
    assert clf.evaluate(it, verbose=0) < before
    assert clf.predict(it, verbose=0).shape == (9, 3)


def test_resampling_agrees_with_scipy_where_installed():
    """SciPy's ndimage.affine_transform, which Keras calls, as a second reference: random maps (rounded ones
    too, whose sample points fall exactly on pixel edges), every fill mode, orders 0 and 1, float and int."""
    ndimage = pytest.importorskip("scipy.ndimage")
    from eagerflow.keras.preprocessing.affine import affine_resample
    rng = np.random.default_rng(1)
    for trial in range(60):
        h, w = rng.integers(1, 9, 2)
        t, zoom = rng.uniform(-np.pi, np.pi), rng.uniform(0.3, 2.5, 2)
        matrix = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ np.diag(zoom)
        offset = rng.uniform(-12, 12, 2)
        if trial % 3 == 0:
            matrix, offset = np.round(matrix), np.round(offset)
        for dtype in ["float64", "int32"]:
            planes = (rng.normal(size=(2, h, w)) * 50 + 60).astype(dtype)
            for mode in ["constant", "nearest", "reflect", "wrap"]:
                for order in (0, 1):
                    want = np.stack([ndimage.affine_transform(p, matrix, offset, order=order, mode=mode, cval=-3)
                                     for p in planes])
                    got = affine_resample(planes, matrix, offset, mode, -3, order)
                    assert got.dtype == want.dtype
                    np.testing.assert_allclose(got, want, atol=1e-9, err_msg=f"{mode} order={order} {dtype}")


def test_save_to_dir_writes_each_augmented_image(tmp_path):
    _pillow()
    x, y = samples()
    it = P.ImageDataGenerator(horizontal_flip=True).flow(x, y, batch_size=4, shuffle=False, save_to_dir=str(tmp_path),
                                                         save_prefix="aug", save_format="png")
    images, _ = it[0]
    names = sorted(os.listdir(tmp_path))
    assert len(names) == 4 and all(n.startswith("aug_") and n.endswith(".png") for n in names)
    first = next(n for n in names if n.startswith("aug_0_"))
    saved = P.img_to_array(P.load_img(os.path.join(tmp_path, first)))
    scaled = (images[0] - images[0].min()) / (images[0].max() - images[0].min()) * 255  # array_to_img's scale
    np.testing.assert_allclose(saved, scaled.astype("uint8"), atol=0)
