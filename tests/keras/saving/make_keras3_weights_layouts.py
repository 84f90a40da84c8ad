"""Writes keras3_weights_layouts.json from TensorFlow 2.21's Keras 3.15 (run with /work/tfvenv/bin/python from the
repository root): for each model of tests/interop/keras_file_models.py, trained two epochs, every dataset of its
.weights.h5 file with its shape, and every `vars` group. The tests read the JSON; they never import TensorFlow."""
import json
import os
import sys

import h5py
import keras

sys.path.insert(0, os.path.join("tests", "interop"))
import keras_file_models  # noqa: E402

scope = keras_file_models.namespace(keras)
out = {}
for name in keras_file_models.MODEL_NAMES:
    keras.utils.set_random_seed(0)
    model, x, y = scope["build"](name)
    model.fit(x, y, epochs=2, batch_size=4, verbose=0)
    path = f"/tmp/layout_{name}.weights.h5"
    model.save_weights(path)
    listing = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: listing.__setitem__(n, list(o.shape)) if isinstance(o, h5py.Dataset)
                     else listing.__setitem__(n, "group") if n.endswith("vars") else None)
    out[name] = dict(sorted(listing.items()))
with open(os.path.join(os.path.dirname(__file__), "keras3_weights_layouts.json"), "w") as f:
    json.dump(out, f, indent=0, sort_keys=True)
    f.write("\n")
