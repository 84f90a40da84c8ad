"""Writes directory_datasets_oracle.json: what Keras 3.15 on TensorFlow 2.21 answers for the folder that
directory_files.py builds (class names, file order for a seed, splits, batch shapes, pixels, errors). Run with
/work/tfvenv/bin/python; the tests read the JSON and never import TensorFlow."""
import os, sys, json, tempfile; os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
import tensorflow as tf, numpy as np, keras
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from directory_files import build  # noqa: E402
root = tempfile.mkdtemp(); build(tf, root)
rel = lambda ps: [os.path.relpath(p, root) for p in ps]
out = {}
ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), shuffle=False, batch_size=4, verbose=False)
out["class_names"] = ds.class_names; out["paths_noshuffle"] = rel(ds.file_paths)
x, y = next(iter(ds)); out["batch0_shape"] = x.shape.as_list(); out["batch0_dtype"] = x.dtype.name; out["labels_noshuffle"] = [int(v) for b in ds for v in b[1].numpy()]
out["batch0_pixels"] = np.round(x.numpy()[1, :2, :3], 4).tolist(); out["batch0_sum"] = float(x.numpy().sum())
for seed in (1, 42):
    ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), seed=seed, batch_size=4, verbose=False)
    out[f"paths_seed{seed}"] = rel(ds.file_paths)
    out[f"labels_seed{seed}"] = [[int(v) for v in b[1].numpy()] for b in ds]  # the batches as shuffled
    out[f"sums_seed{seed}"] = [round(float(b[0].numpy().sum()), 1) for b in ds]
tr, va = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(4, 6), seed=7, validation_split=0.3, subset="both", batch_size=3, verbose=False)
out["train_paths"] = rel(tr.file_paths); out["val_paths"] = rel(va.file_paths)
out["val_labels"] = [int(v) for b in va for v in b[1].numpy()]
ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(3, 3), shuffle=False, label_mode="categorical", color_mode="grayscale", batch_size=None, verbose=False, crop_to_aspect_ratio=True, interpolation="nearest")
x, y = next(iter(ds)); out["cat_shape"] = [x.shape.as_list(), y.shape.as_list(), y.dtype.name]; out["crop_pixels"] = x.numpy()[..., 0].tolist(); out["cat_label"] = y.numpy().tolist()
ds = keras.utils.image_dataset_from_directory(os.path.join(root, "images"), image_size=(5, 5), shuffle=False, batch_size=2, verbose=False, pad_to_aspect_ratio=True, label_mode=None)
x = next(iter(ds)); out["pad_shape"] = x.shape.as_list(); out["pad_sum"] = float(x.numpy()[0].sum()); out["pad_col0"] = np.round(x.numpy()[0, :, 0, 0], 4).tolist()
tds = keras.utils.text_dataset_from_directory(os.path.join(root, "texts"), shuffle=False, batch_size=3, max_length=5, verbose=False)
out["text_classes"] = tds.class_names; b = next(iter(tds)); out["text_batch"] = [v.decode() for v in b[0].numpy()]; out["text_labels"] = b[1].numpy().tolist()
tds = keras.utils.text_dataset_from_directory(os.path.join(root, "texts"), seed=3, validation_split=0.4, subset="training", batch_size=8, verbose=False, label_mode="binary")
b = next(iter(tds)); out["text_train_n"] = int(b[0].shape[0]); out["text_binary_shape"] = b[1].shape.as_list()
out["text_train_set"] = sorted(v.decode() for v in b[0].numpy())
ads = keras.utils.audio_dataset_from_directory(os.path.join(root, "audio"), shuffle=False, batch_size=5, verbose=False)
a, l = next(iter(ads)); out["audio_shape"] = a.shape.as_list(); out["audio_labels"] = l.numpy().tolist(); out["audio_last_rows"] = a.numpy()[0, -3:].tolist()
ads = keras.utils.audio_dataset_from_directory(os.path.join(root, "audio"), shuffle=False, batch_size=5, verbose=False, output_sequence_length=4)
out["audio_fixed_shape"] = next(iter(ads))[0].shape.as_list()
ads = keras.utils.audio_dataset_from_directory(os.path.join(root, "audio"), shuffle=False, batch_size=5, verbose=False, ragged=True)
r = next(iter(ads))[0]; out["audio_ragged"] = [type(r).__name__, r.shape.as_list(), [int(v) for v in r.row_lengths().numpy()]]
def err(f):
    try: f(); return None
    except Exception as e: return [type(e).__name__, str(e)]
d = os.path.join(root, "images")
out["errors"] = {
 "split_no_seed": err(lambda: keras.utils.image_dataset_from_directory(d, validation_split=0.2, subset="training")),
 "subset_no_split": err(lambda: keras.utils.image_dataset_from_directory(d, subset="training")),
 "bad_subset": err(lambda: keras.utils.image_dataset_from_directory(d, validation_split=0.2, subset="x", seed=1)),
 "bad_color": err(lambda: keras.utils.image_dataset_from_directory(d, color_mode="cmyk")),
 "binary_3": err(lambda: keras.utils.image_dataset_from_directory(d, label_mode="binary", verbose=False)),
 "bad_class_names": err(lambda: keras.utils.image_dataset_from_directory(d, class_names=["cats", "cows"], verbose=False)),
 "bad_labels": err(lambda: keras.utils.image_dataset_from_directory(d, labels="foo")),
 "labels_count": err(lambda: keras.utils.image_dataset_from_directory(d, labels=[0, 1], verbose=False)),
 "crop_and_pad": err(lambda: next(iter(keras.utils.image_dataset_from_directory(d, crop_to_aspect_ratio=True, pad_to_aspect_ratio=True, verbose=False)))),
 "empty": err(lambda: keras.utils.image_dataset_from_directory(os.path.join(root, "texts"), verbose=False)),
 "bad_interp": err(lambda: keras.utils.image_dataset_from_directory(d, interpolation="cubic")),
}
ds = keras.utils.image_dataset_from_directory(d, class_names=["zebras", "cats"], shuffle=False, image_size=(2, 2), verbose=False)
out["given_class_names"] = [ds.class_names, rel(ds.file_paths)]
ds = keras.utils.image_dataset_from_directory(d, labels=[i % 3 for i in range(10)], shuffle=False, image_size=(2, 2), verbose=False)
out["manual_labels"] = [ds.class_names, rel(ds.file_paths)]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "directory_datasets_oracle.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
