"""The harness itself: TensorFlow's process runs, sees none of eagerflow, and answers in JSON."""


def test_tensorflow_runs_alone(run_tf):
    answer = run_tf("""
        import json, sys
        import tensorflow as tf
        print(json.dumps({"version": tf.__version__, "eagerflow": "eagerflow" in sys.modules,
                          "sum": float(tf.reduce_sum(tf.constant([1.5, 2.5])))}))
    """)
    assert answer["version"].startswith("2.")
    assert answer["eagerflow"] is False
    assert answer["sum"] == 4.0


def test_each_script_starts_from_a_fresh_process(run_tf):
    """Scripts run in forks of one process that imported TensorFlow (conftest.py): nothing one script does
    (Keras' layer-name counter, graph mode switched on, a module's attribute) is seen by the next."""
    script = """
        import json, os, sys
        import tensorflow as tf
        import keras
        seen = [keras.layers.Dense(1).name, tf.executing_eagerly(), hasattr(tf, "_changed_by_a_script"), __name__]
        tf._changed_by_a_script = True
        tf.compat.v1.disable_eager_execution()
        print(json.dumps(seen + [os.getpid()]))
    """
    first, second = run_tf(script), run_tf(script)
    assert first[:4] == second[:4] == ["dense", True, False, "__main__"]
    assert first[4] != second[4]
