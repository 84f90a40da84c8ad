"""Runs SavedModels the way TensorFlow 1's loader and `saved_model_cli run` do: the MetaGraphDef tagged `serve`
imported into a graph, the variables restored through its SaverDef, the init op run with the assets' paths fed,
then each SignatureDef run by its input and output tensor names in one Session.

This file is a script for TensorFlow's own environment (conftest.py's `run_tf`), never imported by the tests.
In the working folder it loads every `models/MODEL` with `tf.compat.v1.saved_model.loader.load`, feeds
`inputs/MODEL.SIGNATURE.npz` (arrays keyed by the SignatureDef's input keys) and writes the outputs to
`session/MODEL.SIGNATURE.npz`; then runs TensorFlow's `saved_model_cli run` (its own code, called in this
process) on each signature, whose `--outdir` gets one OUTPUT_KEY.npy per output (`cli/MODEL.SIGNATURE/`), and
`saved_model_cli show --all` on each model. It writes the SignatureDefs' tensor names, as TensorFlow parsed
them, to `signatures.json` for tf_capi_runner.py; its last line is JSON:
{model: {"load": error or null, "signatures": {key: {"method": ..., "inputs": {key: [tensor name, dtype,
shape]}, "outputs": ...}}, "session": {key: error or null}, "cli": {key: error or null}, "show": text}}.
"""
import contextlib
import io
import json
import os
import sys

import numpy as np
import tensorflow as tf
from absl import flags
from tensorflow.python.tools import saved_model_cli


def _storable(array):
    array = np.asarray(array)
    return array.astype(bytes) if array.dtype == object else array


def _saved_model_cli(*argv):
    """TensorFlow's saved_model_cli main, as its console script runs it; its printout."""
    flags.FLAGS.unparse_flags()  # absl's flags keep the previous call's values otherwise
    sys.argv = ["saved_model_cli", *argv]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            saved_model_cli.main()
        except SystemExit as done:  # absl's app.run ends with SystemExit
            if done.code:
                raise RuntimeError(f"saved_model_cli {' '.join(argv)} exited with {done.code}") from None
    return out.getvalue()


def _tensor_info(info):
    return [info.name, tf.dtypes.as_dtype(info.dtype).name,
            None if info.tensor_shape.unknown_rank else [d.size for d in info.tensor_shape.dim]]


def _session_run(model, entry):
    directory = os.path.join("models", model)
    with tf.Graph().as_default() as graph, tf.compat.v1.Session(graph=graph) as session:
        meta_graph = tf.compat.v1.saved_model.loader.load(session, ["serve"], directory)
        for key, sig in sorted(meta_graph.signature_def.items()):
            if key == "__saved_model_init_op":
                continue
            entry["signatures"][key] = {"method": sig.method_name,
                                        "inputs": {k: _tensor_info(v) for k, v in sig.inputs.items()},
                                        "outputs": {k: _tensor_info(v) for k, v in sig.outputs.items()}}
            try:
                with np.load(os.path.join("inputs", f"{model}.{key}.npz"), allow_pickle=False) as stored:
                    feeds = {sig.inputs[k].name: stored[k] for k in sig.inputs}
                got = session.run({k: v.name for k, v in sig.outputs.items()}, feed_dict=feeds)
                np.savez(os.path.join("session", f"{model}.{key}.npz"), **{k: _storable(v) for k, v in got.items()})
                entry["session"][key] = None
            except Exception as err:  # noqa: BLE001 - reported per signature; the test names it
                entry["session"][key] = f"{type(err).__name__}: {err}"[:3000]


def _cli_runs(model, entry):
    directory = os.path.join("models", model)
    for key, sig in entry["signatures"].items():
        inputs = os.path.join("inputs", f"{model}.{key}.npz")
        try:
            _saved_model_cli("run", "--dir", directory, "--tag_set", "serve", "--signature_def", key,
                             "--inputs", ";".join(f"{k}={inputs}[{k}]" for k in sorted(sig["inputs"])),
                             "--outdir", os.path.join("cli", f"{model}.{key}"))
            for name in sig["outputs"]:  # string outputs come as object arrays: stored again as bytes
                path = os.path.join("cli", f"{model}.{key}", f"{name}.npy")
                np.save(path, _storable(np.load(path, allow_pickle=True)))  # (this process's own file)
            entry["cli"][key] = None
        except Exception as err:  # noqa: BLE001
            entry["cli"][key] = f"{type(err).__name__}: {err}"[:3000]


def main():
    for folder in ("session", "cli"):
        os.makedirs(folder, exist_ok=True)
    report = {}
    for model in sorted(os.listdir("models")):
        entry = report[model] = {"load": None, "signatures": {}, "session": {}, "cli": {}, "show": None}
        try:
            _session_run(model, entry)
        except Exception as err:  # noqa: BLE001
            entry["load"] = f"{type(err).__name__}: {err}"[:3000]
    # every `show` before the first `run`: `run` leaves its required flags registered in absl's flags
    for model, entry in report.items():
        entry["show"] = _saved_model_cli("show", "--dir", os.path.join("models", model), "--all")
    for model, entry in report.items():
        if entry["load"] is None:
            _cli_runs(model, entry)
    with open("signatures.json", "w") as f:
        json.dump({m: {k: {"inputs": {i: v[0] for i, v in s["inputs"].items()},
                           "outputs": {o: v[0] for o, v in s["outputs"].items()}}
                       for k, s in e["signatures"].items()} for m, e in report.items()}, f)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
