"""Writes legacy_image_oracle.json: what TensorFlow 2.21's tf.keras.preprocessing.image (Keras 3.15.1) returns for
the cases test_legacy_image.py replays. Keras resamples with SciPy, which TF's venv lacks, so run it with a SciPy
on the path:

    mkdir -p /tmp/sp && ln -s /work/venv/lib/python3.11/site-packages/scipy* /tmp/sp/
    TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH=/tmp/sp /work/tfvenv/bin/python \
        tests/keras/preprocessing/make_legacy_image_oracle.py
(Pillow is linked the same way: /work/venv/.../PIL and pillow.libs.)
"""
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from legacy_image_cases import (AFFINE_CASES, DATAFRAME_CASES, GENERATOR_CASES, image, make_image_tree,  # noqa: E402
                                samples)


def main():
    import tensorflow as tf
    P = tf.keras.preprocessing.image
    out = {"keras": tf.keras.__version__, "affine": [], "generators": [], "random": {}, "directory": {}}
    for kwargs, shape in AFFINE_CASES:
        out["affine"].append(P.apply_affine_transform(image(shape), **kwargs).tolist())
    for gen_kwargs, flow_kwargs in GENERATOR_CASES:
        x, y = samples(gen_kwargs.get("data_format", "channels_last"))
        gen = P.ImageDataGenerator(**gen_kwargs)
        if gen_kwargs.get("featurewise_center") or gen_kwargs.get("zca_whitening"):
            gen.fit(x, seed=3)
        it = gen.flow(x, y, **flow_kwargs)
        first = next(it)
        second = next(it)
        indexed = it[1]
        out["generators"].append({"next": [first[0].tolist(), first[1].tolist(), second[0].tolist(),
                                           second[1].tolist()],
                                  "indexed": [indexed[0].tolist(), indexed[1].tolist()],
                                  "mean": None if gen.mean is None else gen.mean.tolist(),
                                  "std": None if gen.std is None else gen.std.tolist()})
    img = image((5, 6, 3)) * 10.0
    for name, call in [("rotation", lambda: P.random_rotation(img, 40, 0, 1, 2)),
                       ("shift", lambda: P.random_shift(img, 0.2, 0.3, 0, 1, 2, fill_mode="wrap")),
                       ("shear", lambda: P.random_shear(img, 25, 0, 1, 2, fill_mode="reflect")),
                       ("zoom", lambda: P.random_zoom(img, (0.6, 1.4), 0, 1, 2, fill_mode="constant", cval=3)),
                       ("channel_shift", lambda: P.random_channel_shift(img, 30.0, 2)),
                       ("brightness", lambda: P.random_brightness(img, (0.5, 1.5))),
                       ("brightness_unscaled", lambda: P.apply_brightness_shift(img * 3 - 100, 1.3, scale=False)),
                       ("channel_shift_fixed", lambda: P.apply_channel_shift(img, -25.0, 2))]:
        np.random.seed(11)
        out["random"][name] = np.asarray(call()).tolist()
    with tempfile.TemporaryDirectory() as root:
        make_image_tree(root)
        gen = P.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.25)
        for mode in ["categorical", "binary", "sparse", "input", None]:
            classes = ["cats", "dogs"] if mode == "binary" else None
            it = gen.flow_from_directory(root, target_size=(4, 5), class_mode=mode, classes=classes, batch_size=3,
                                         shuffle=False)
            batch = it[0]
            xs, ys = (batch if isinstance(batch, tuple) else (batch, None))
            out["directory"][str(mode)] = {
                "class_indices": it.class_indices, "classes": it.classes.tolist(), "samples": it.samples,
                "filenames": [f.replace(os.sep, "/") for f in it.filenames], "len": len(it),
                "x": xs.tolist(), "x_dtype": str(xs.dtype), "y": None if ys is None else ys.tolist(),
                "y_dtype": None if ys is None else str(ys.dtype)}
        for subset in ["training", "validation"]:
            it = gen.flow_from_directory(root, target_size=(3, 3), color_mode="grayscale", subset=subset,
                                         class_mode="sparse", batch_size=4, shuffle=False)
            out["directory"][subset] = {"filenames": [f.replace(os.sep, "/") for f in it.filenames],
                                        "classes": it.classes.tolist(), "x": it[0][0].tolist()}
        it = gen.flow_from_directory(root, target_size=(4, 5), batch_size=2, shuffle=True, seed=5,
                                     interpolation="bilinear")
        out["directory"]["shuffled"] = {"y": [it[0][1].tolist(), it[1][1].tolist()], "x0": it[0][0].tolist()}
        out["dataframe"] = [dataframe_case(P, root, columns, kwargs) for columns, kwargs in DATAFRAME_CASES]
    with open(os.path.join(os.path.dirname(__file__), "legacy_image_oracle.json"), "w") as f:
        json.dump(out, f)
        f.write("\n")


def dataframe_case(P, root, columns, kwargs):
    import pandas
    gen = P.ImageDataGenerator(rescale=1 / 255.0, validation_split=0.25)
    kwargs = dict({"target_size": (4, 5), "shuffle": False}, **kwargs)
    it = gen.flow_from_dataframe(pandas.DataFrame(columns), directory=root, **kwargs)
    batch = it[0]
    parts = list(batch) if isinstance(batch, tuple) else [batch]
    return {"class_indices": getattr(it, "class_indices", None),
            "classes": [c if isinstance(c, list) else int(c) for c in it.classes] if hasattr(it, "classes") else None,
            "filenames": it.filenames, "samples": it.samples, "len": len(it),
            "batch": [[np.asarray(p).tolist() for p in part] if isinstance(part, list) else np.asarray(part).tolist()
                      for part in parts],
            "dtypes": [str(np.asarray(part).dtype) if not isinstance(part, list) else "list" for part in parts]}


if __name__ == "__main__":
    main()
