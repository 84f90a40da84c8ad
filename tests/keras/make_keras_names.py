"""Writes keras_names_3_15.json: the public names (dir() without leading underscores) of Keras 3.15.1's
namespaces that test_keras_name_coverage.py checks. Run with /work/tfvenv/bin/python (TensorFlow 2.21's
Keras) from the repository root; the test reads the JSON and never imports Keras."""
import json
import os

import keras

NAMESPACES = ("keras", "layers", "losses", "metrics", "optimizers", "callbacks", "initializers", "activations",
              "utils", "applications", "random")

if __name__ == "__main__":
    names = {"version": keras.__version__}
    for namespace in NAMESPACES:
        module = keras if namespace == "keras" else getattr(keras, namespace)
        names[namespace] = sorted(n for n in dir(module) if not n.startswith("_"))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_names_3_15.json")
    with open(path, "w") as f:
        json.dump(names, f, indent=1)
        f.write("\n")
