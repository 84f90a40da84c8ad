"""The inputs shared by make_legacy_image_oracle.py (run in TensorFlow 2.21) and test_legacy_image.py."""
import os

import numpy as np


def image(shape):
    """A deterministic, non-symmetric test image (so flips and rotations show)."""
    n = int(np.prod(shape))
    return ((np.arange(n) * 7919) % 23 + np.arange(n) / n).reshape(shape).astype("float32")


def samples(data_format="channels_last"):
    """Six 6x5 RGB images (values 0-255) and labels in both halves (validation_split=0.5 keeps classes)."""
    x = np.stack([image((6, 5, 3)) * (i + 1) * 1.5 for i in range(6)])
    y = np.array([0, 1, 2, 1, 0, 2])
    return (x.transpose(0, 3, 1, 2) if data_format == "channels_first" else x), y


AFFINE_CASES = [
    ({"theta": 30, "row_axis": 0, "col_axis": 1, "channel_axis": 2, "fill_mode": "constant", "cval": -1.0},
     (5, 6, 2)),
    ({"tx": 1.5, "ty": -2.25, "row_axis": 0, "col_axis": 1, "channel_axis": 2}, (5, 6, 2)),
    ({"shear": 20, "row_axis": 0, "col_axis": 1, "channel_axis": 2, "fill_mode": "reflect"}, (6, 5, 1)),
    ({"zx": 0.7, "zy": 1.3, "row_axis": 0, "col_axis": 1, "channel_axis": 2, "fill_mode": "wrap"}, (5, 6, 3)),
    ({"theta": -75, "tx": 0.5, "ty": 1, "shear": 10, "zx": 1.2, "zy": 0.8, "row_axis": 0, "col_axis": 1,
      "channel_axis": 2, "fill_mode": "nearest"}, (7, 6, 2)),
    ({"theta": 90}, (2, 5, 4)),  # Keras' default axes: channels first
    ({"theta": 90, "row_axis": 0, "col_axis": 1, "channel_axis": 2, "fill_mode": "constant"}, (4, 4, 1)),
    ({"theta": 33, "zx": 1.4, "row_axis": 0, "col_axis": 1, "channel_axis": 2, "order": 0,
      "fill_mode": "constant", "cval": 9.0}, (5, 6, 1)),
    ({"tx": 1, "ty": 2, "row_axis": 1, "col_axis": 0, "channel_axis": 2}, (5, 6, 1)),  # rows after columns
]

GENERATOR_CASES = [
    ({"rotation_range": 20, "width_shift_range": 0.1, "height_shift_range": 0.2, "shear_range": 10,
      "zoom_range": 0.2, "horizontal_flip": True, "vertical_flip": True, "fill_mode": "reflect",
      "rescale": 1 / 255.0},
     {"batch_size": 4, "shuffle": True, "seed": 7}),
    ({"featurewise_center": True, "featurewise_std_normalization": True, "width_shift_range": [1, 2],
      "height_shift_range": 2, "channel_shift_range": 20.0},
     {"batch_size": 3, "shuffle": True, "seed": 1}),
    ({"samplewise_center": True, "samplewise_std_normalization": True, "brightness_range": (0.6, 1.4),
      "validation_split": 0.5},
     {"batch_size": 2, "shuffle": False, "seed": 2, "subset": "training"}),
    ({"zca_whitening": True, "zca_epsilon": 0.1, "rescale": 0.5, "data_format": "channels_first",
      "zoom_range": [0.8, 1.1]},
     {"batch_size": 5, "shuffle": True, "seed": 4}),
]

CLASS_DIRS = {"dogs": 3, "cats": 4, "Birds": 2}  # sorted class order: Birds, cats, dogs


def make_image_tree(root):
    """root/<class>/<n>.png (lossless), plus a nested folder and a non-image file that must be skipped."""
    from PIL import Image
    for k, (name, count) in enumerate(CLASS_DIRS.items()):
        os.makedirs(os.path.join(root, name, "more"))
        for i in range(count):
            pixels = np.clip(image((6, 8, 3)) * (3 + 2 * i + 5 * k), 0, 255).astype("uint8")
            folder = os.path.join(root, name, "more") if i == count - 1 else os.path.join(root, name)
            Image.fromarray(pixels).save(os.path.join(folder, f"img{i}.png"))
        with open(os.path.join(root, name, "notes.txt"), "w") as f:
            f.write("not an image")


# flow_from_dataframe: (table columns, keyword arguments); the table's files are those of make_image_tree,
# plus a missing file and a non-image file that validate_filenames drops
_FILES = ["cats/img0.png", "dogs/img1.png", "Birds/img0.png", "cats/missing.png", "dogs/img0.png",
          "Birds/notes.txt", "cats/img2.png", "dogs/more/img2.png", "cats/img1.png"]
_VALID = [f for f in _FILES if "missing" not in f and f.endswith(".png")]
DATAFRAME_CASES = [
    ({"filename": _FILES, "class": ["cat", "dog", "bird", "cat", "dog", "bird", "cat", "dog", "cat"]},
     {"class_mode": "categorical", "batch_size": 4}),
    ({"filename": _FILES, "class": [["a"], ["b", "c"], ["c"], ["a"], ["a", "b"], ["b"], ["c"], ["b"], ["c", "a"]]},
     {"class_mode": "categorical", "classes": ["b", "a"], "batch_size": 3}),
    ({"name": _FILES, "label": ["x", "y", "x", "y", "y", "x", "x", "y", "x"],
      "w": [0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5]},
     {"x_col": "name", "y_col": "label", "weight_col": "w", "class_mode": "binary", "batch_size": 5}),
    ({"filename": _FILES, "class": ["p", "q", "r", "p", "q", "r", "p", "q", "r"]},
     {"class_mode": "sparse", "subset": "validation", "batch_size": 4, "color_mode": "grayscale"}),
    ({"filename": _VALID, "a": [0.1 * i for i in range(7)], "b": [float(i * i) for i in range(7)]},
     {"class_mode": "raw", "y_col": ["a", "b"], "batch_size": 3}),
    ({"filename": _VALID, "a": [0.1 * i for i in range(7)], "b": [i % 2 for i in range(7)]},
     {"class_mode": "multi_output", "y_col": ["a", "b"], "batch_size": 3}),
    ({"filename": _VALID}, {"class_mode": None, "validate_filenames": False, "batch_size": 4, "subset": "training"}),
    ({"filename": _VALID}, {"class_mode": "input", "batch_size": 2, "target_size": (3, 3)}),
]
