"""eagerflow's SavedModel of functions calling tf.py_function / tf.numpy_function behaves in real
TensorFlow 2.21 as TensorFlow's own in a process that did not register the callbacks: it loads, its
other functions run, and a Python call fails when it runs with InvalidArgumentError "Could not find
callback with key=pyfunc_<n> in the registry"."""
import eagerflow as tf

from tests.saved_model.test_python_call_export import _Calls


class _Mixed(_Calls):
    @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
    def plain(self, x):
        return x * 3.0


def test_tensorflow_loads_eagerflows_python_calls_and_fails_only_when_they_run(tmp_path, run_tf):
    m = _Mixed()
    tf.saved_model.save(m, str(tmp_path / "m"), signatures={"serving_default": m.eager, "plain": m.plain})
    answer = run_tf("""
        import json
        import tensorflow as tf
        m = tf.saved_model.load("m")
        out = {"plain": m.plain(tf.constant([1.0, 2.0])).numpy().tolist(),
               "signatures": sorted(m.signatures)}
        for name, call in (("eager", lambda: m.eager(tf.constant([1.0, 2.0]))),
                           ("numpy", lambda: m.numpy(tf.constant([1.0, 2.0]))),
                           ("signature", lambda: m.signatures["serving_default"](x=tf.constant([1.0, 2.0])))):
            try:
                call()
                out[name] = "ran"
            except Exception as e:
                out[name] = [type(e).__name__, "Could not find callback with key=pyfunc_" in str(e)]
        print(json.dumps(out))
    """)
    assert answer["plain"] == [3.0, 6.0] and answer["signatures"] == ["plain", "serving_default"]
    for name in ("eager", "numpy", "signature"):
        assert answer[name] == ["InvalidArgumentError", True], name
