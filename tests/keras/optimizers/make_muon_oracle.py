"""Writes muon_keras_3_15.json from TensorFlow 2.21's Keras 3.15 (run with /work/tfvenv/bin/python from the
repository root): muon_cases.py's runs, and Muon's get_config. The test reads the JSON; it never imports TensorFlow."""
import importlib.util
import json
import os

import keras
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("muon_cases", os.path.join(HERE, "muon_cases.py"))
cases = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cases)

out = {"keras_version": keras.__version__, "runs": {}}
for name, (arguments, steps) in cases.RUNS.items():
    values, slots = cases.run(keras, tf, arguments, steps)
    out["runs"][name] = {"values": values, "optimizer_variables": slots}
out["config"] = keras.optimizers.Muon(learning_rate=0.01, name="mu").get_config()
path = os.path.join(HERE, "muon_keras_3_15.json")
with open(path + ".tmp", "w") as f:
    json.dump(out, f, indent=1)
os.replace(path + ".tmp", path)
