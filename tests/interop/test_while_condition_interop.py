"""Loops saved by eagerflow run in real TensorFlow 2.21 as TensorFlow's own do: a condition squeezed from shape [1]
runs through tf.saved_model.load, and a scalar `n` fed as shape [1] through TensorFlow's C API (the loader TF
Serving links) fails with TensorFlow's error, where before the unlowered While never stopped."""
import pathlib

import eagerflow as tf

from tests.saved_model.test_while_condition_export import TF_RUNS, Looper

CAPI_RUNNER = pathlib.Path(__file__).resolve().parent / "tf_capi_runner.py"


def test_tensorflow_runs_eagerflows_loops_and_checks_their_condition(tmp_path, run_tf):
    m = Looper()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.looped})
    answer = run_tf(f"""
        import importlib.util, json, os
        import numpy as np
        import tensorflow as tf
        m = tf.saved_model.load("m")
        runs = [float(getattr(m, method)(tf.constant(x), tf.constant(n, tf.int32)).numpy())
                for method, x, n, _ in {TF_RUNS!r}]
        spec = importlib.util.spec_from_file_location("capi", {str(CAPI_RUNNER)!r})
        capi = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(capi)
        api = capi.CApi()
        session, graph = api.load(os.path.abspath("m"))
        fed = {{}}
        for n in (np.int32(3), np.array([3], np.int32)):
            try:
                got = api.run(session, graph, {{"serving_default_x:0": np.float32(2.0), "serving_default_n:0": n}},
                              ["StatefulPartitionedCall:0"])
                fed[str(n.shape)] = float(got[0])
            except RuntimeError as err:
                fed[str(n.shape)] = str(err)
        print(json.dumps([runs, fed]))
    """, timeout=120)
    runs, fed = answer
    assert runs == [want for *_, want in TF_RUNS]
    assert fed["()"] == 1.5
    assert "The second input must be a scalar, but it has shape [1]" in fed["(1,)"]  # TensorFlow's own graph's error
